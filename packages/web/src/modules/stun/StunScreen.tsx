// The STUN screen (being built: rule list, rule dialog, global settings, NAT type, log).
import type { StunListResponse } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';

export default function StunScreen() {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: ['stun', 'rules'],
    queryFn: ({ signal }) => get<StunListResponse>('api/stun/rules', { signal }),
  });
  return (
    <Card title={t('menu.stun')}>
      <List
        dataSource={list.data?.list ?? []}
        rowKey="key"
        renderItem={(r) => (
          <List.Item>
            <Typography.Text>{r.name}</Typography.Text>
          </List.Item>
        )}
      />
    </Card>
  );
}
