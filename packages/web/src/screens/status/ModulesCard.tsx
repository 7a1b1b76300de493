import { Card, Empty, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { codedText } from '../../i18n/coded';
import type { StatusData } from './statusData';

const STATE_COLOR = {
  running: 'green',
  stopped: 'default',
  disabled: 'default',
  error: 'red',
  unknown: 'default',
} as const;

export function ModulesCard({ data }: { data: StatusData }) {
  const { t } = useTranslation();
  return (
    <Card title={t('status.modules')}>
      {data.modules.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('status.noModules')} />
      ) : (
        <List
          size="small"
          dataSource={data.modules}
          renderItem={(m) => (
            <List.Item data-testid={`module-${m.key}`} data-state={m.state}>
              <span>{t(`menu.${m.key}`, { defaultValue: m.key })}</span>
              <span>
                {(m.reason || m.error) && (
                  <Typography.Text type="danger" style={{ marginRight: 8 }} data-testid={`module-${m.key}-reason`}>
                    {codedText(m.key, 'reason', { ...m.reason, text: m.error })}
                  </Typography.Text>
                )}
                <Tag color={STATE_COLOR[m.state]}>{t(`status.state_${m.state}`)}</Tag>
              </span>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
