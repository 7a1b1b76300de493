// A rule's whole log, newest first, a page at a time; level as a coloured tag; the log can be
// cleared. Page 1 follows new lines at the list's interval. A second tab lists the rule's recent
// webhook calls.
import { ClearOutlined, ReloadOutlined } from '@ant-design/icons';
import type { WebhookCallView } from '@lucky/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Popconfirm, Space, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogTable } from '../../components/ruleLog/LogTable';
import { useWindowSize } from '../../hooks/useWindowSize';
import { fetchLogs, stunKeys } from './api';
import { WebhookHistory } from './WebhookHistory';

export interface LogDrawerProps {
  /** The rule whose log is open; null = closed. */
  rule: { key: string; name: string } | null;
  /** The rule's recent webhook calls (from the polled list). */
  webhookCalls: WebhookCallView[];
  intervalMs: number;
  onClose: () => void;
  onClear: (key: string) => Promise<boolean>;
}

export function LogDrawer({ rule, webhookCalls, intervalMs, onClose, onClear }: LogDrawerProps) {
  const { t } = useTranslation();
  const { width } = useWindowSize();
  return (
    <Drawer
      open={rule !== null}
      onClose={onClose}
      size={width <= 768 ? '100%' : Math.min(860, width - 48)}
      destroyOnHidden
      title={t('stun.logsTitle', { name: rule?.name ?? '' })}
      data-testid="stun-log-drawer"
    >
      {rule && (
        <Tabs
          items={[
            {
              key: 'log',
              label: t('stun.logs'),
              children: <LogPages key={rule.key} ruleKey={rule.key} intervalMs={intervalMs} onClear={onClear} />,
            },
            {
              key: 'webhook',
              label: t('stun.webhookCalls', { count: webhookCalls.length }),
              children: <WebhookHistory calls={webhookCalls} />,
            },
          ]}
        />
      )}
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
    queryKey: [...stunKeys.logs(ruleKey), page, pageSize],
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
    <div>
      <Space className="stun-log-toolbar" wrap>
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
          {t('common.refresh')}
        </Button>
        <Popconfirm
          title={t('stun.clearLogsConfirm')}
          okText={t('common.confirm')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => clear()}
        >
          <Button danger icon={<ClearOutlined />} disabled={!data?.total} data-testid="stun-logs-clear">
            {t('stun.clearLogs')}
          </Button>
        </Popconfirm>
      </Space>
      <LogTable
        data={data}
        loading={query.isPending}
        page={page}
        pageSize={pageSize}
        onPage={(p, size) => {
          setPage(p);
          setPageSize(size);
        }}
        testId="stun-log-table"
        ns="stun"
      />
    </div>
  );
}
