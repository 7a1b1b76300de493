// A rule's whole log, newest first, a page at a time; level as a coloured
// tag; the log can be cleared. Page 1 follows new lines at the list's interval.
import { ClearOutlined, ReloadOutlined } from '@ant-design/icons';
import type { PortforwardLogEntry } from '@lucky/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Popconfirm, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindowSize } from '../../hooks/useWindowSize';
import { fetchLogs, pfKeys } from './api';
import { LevelTag } from './LevelTag';
import { logTime } from './RecentLogs';

export interface LogDrawerProps {
  /** The rule whose log is open; null = closed. */
  rule: { key: string; name: string } | null;
  intervalMs: number;
  onClose: () => void;
  onClear: (key: string) => Promise<boolean>;
}

const PAGE_SIZES = [20, 50, 100, 200];

export function LogDrawer({ rule, intervalMs, onClose, onClear }: LogDrawerProps) {
  const { t } = useTranslation();
  const { width } = useWindowSize();
  return (
    <Drawer
      open={rule !== null}
      onClose={onClose}
      size={width <= 768 ? '100%' : Math.min(860, width - 48)}
      destroyOnHidden
      title={t('portforward.logsTitle', { name: rule?.name || t('portforward.unnamed') })}
      data-testid="pf-log-drawer"
    >
      {rule && <LogPages key={rule.key} ruleKey={rule.key} intervalMs={intervalMs} onClear={onClear} />}
    </Drawer>
  );
}

function LogPages({
  ruleKey,
  intervalMs,
  onClear,
}: {
  ruleKey: string;
  intervalMs: number;
  onClear: LogDrawerProps['onClear'];
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const query = useQuery({
    queryKey: [...pfKeys.logs(ruleKey), page, pageSize],
    queryFn: ({ signal }) => fetchLogs(ruleKey, { page, pageSize }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? intervalMs : false,
    refetchIntervalInBackground: false,
  });
  const data = query.data;

  const clear = async () => {
    if (await onClear(ruleKey)) {
      setPage(1);
      await query.refetch();
    }
  };

  return (
    <div className="pf-log-pages">
      <Space className="pf-log-toolbar" wrap>
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
          {t('common.refresh')}
        </Button>
        <Popconfirm
          title={t('portforward.clearLogsConfirm')}
          okText={t('common.confirm')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => clear()}
        >
          <Button danger icon={<ClearOutlined />} disabled={!data?.total} data-testid="pf-logs-clear">
            {t('portforward.clearLogs')}
          </Button>
        </Popconfirm>
      </Space>
      <Table<PortforwardLogEntry>
        size="small"
        rowKey="seq"
        loading={query.isPending}
        dataSource={data?.logs ?? []}
        locale={{ emptyText: t('portforward.noLogs') }}
        scroll={{ x: 560 }}
        data-testid="pf-log-table"
        pagination={{
          current: page,
          pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (total) => t('portforward.logsTotal', { total }),
          onChange: (p, size) => {
            setPage(size !== pageSize ? 1 : p);
            setPageSize(size);
          },
        }}
        columns={[
          {
            title: t('portforward.logTime'),
            dataIndex: 'time',
            width: 180,
            render: (v: string) => <span className="mono pf-num pf-nowrap">{logTime(v, true)}</span>,
          },
          {
            title: t('portforward.logLevelShort'),
            dataIndex: 'level',
            width: 90,
            render: (v: number) => <LevelTag level={v} />,
          },
          {
            title: t('portforward.logText'),
            dataIndex: 'text',
            render: (v: string) => <span className="mono pf-log-text">{v}</span>,
          },
        ]}
      />
    </div>
  );
}
