import { Card, Empty, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
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
                {m.error && (
                  <Typography.Text type="danger" style={{ marginRight: 8 }}>
                    {m.error}
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
