// Placeholder until the cron-screen branch lands the real screen: the module switch and the task
// list with each task's switch (the scaffold's item dialog went with the old item contract).
import type { CronListResponse, CronTaskView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Space, Switch, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { del, get, put } from '../../api/client';

const BASE = 'api/cron';
const listKey = ['cron', 'tasks'] as const;

export default function CronScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => get<CronListResponse>(`${BASE}/tasks`, { signal }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['cron'] });

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await refresh();
    } catch {
      // Not silent: the request client has shown the failure in the user's language.
      await refresh();
    }
  };

  const data = list.data;
  return (
    <Card
      title={t('menu.cron')}
      data-testid="cron-screen"
      extra={
        <Space>
          <span>{t('cron.moduleSwitch')}</span>
          <Switch
            data-testid="cron-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => put(`api/modules/cron/enabled`, { enabled: on }))}
          />
        </Space>
      }
    >
      <Table<CronTaskView>
        rowKey="key"
        size="small"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        locale={{ emptyText: t('cron.empty') }}
        columns={[
          { title: t('cron.name'), dataIndex: 'name' },
          {
            title: t('cron.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, item) => (
              <Switch
                size="small"
                checked={on}
                onChange={(v) => act(() => put(`${BASE}/tasks/${encodeURIComponent(item.key)}/enable`, { enabled: v }))}
              />
            ),
          },
          {
            title: t('common.actions'),
            render: (_v, item) => (
              <Space>
                <Popconfirm
                  title={t('cron.deleteConfirm', { name: item.name })}
                  onConfirm={() => act(() => del(`${BASE}/tasks/${encodeURIComponent(item.key)}`))}
                >
                  <Button size="small" danger>
                    {t('cron.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
