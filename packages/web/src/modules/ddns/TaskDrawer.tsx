// A task's history: its log (newest first, a page at a time, in the UI language), the IP it got
// over time, the webhook calls and each domain's last status changes.
import { ReloadOutlined } from '@ant-design/icons';
import type { CodedText, DdnsTaskView } from '@lucky/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Empty, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogTable } from '../../components/ruleLog/LogTable';
import { useWindowSize } from '../../hooks/useWindowSize';
import { ddnsKeys, fetchTaskLogs } from './api';
import { fmtTime } from './format';
import { ddnsReasonText, ddnsText } from './reasons';
import { StatusTag } from './TaskCard';

export type DrawerTab = 'log' | 'ip' | 'webhook' | 'domains';

export interface TaskDrawerProps {
  task: DdnsTaskView | null;
  tab: DrawerTab;
  onTab: (tab: DrawerTab) => void;
  intervalMs: number;
  onClose: () => void;
}

export function TaskDrawer({ task, tab, onTab, intervalMs, onClose }: TaskDrawerProps) {
  const { t } = useTranslation();
  const { width } = useWindowSize();
  return (
    <Drawer
      open={task !== null}
      onClose={onClose}
      size={width <= 768 ? '100%' : Math.min(900, width - 48)}
      destroyOnHidden
      title={t('ddns.drawerTitle', { name: task?.name || t('ddns.unnamed') })}
      data-testid="ddns-task-drawer"
    >
      {task && (
        <Tabs
          activeKey={tab}
          onChange={(k) => onTab(k as DrawerTab)}
          items={[
            { key: 'log', label: t('ddns.log'), children: <TaskLog taskKey={task.key} intervalMs={intervalMs} /> },
            { key: 'ip', label: t('ddns.ipHistory'), children: <IpHistory task={task} /> },
            { key: 'webhook', label: t('ddns.webhookHistory'), children: <WebhookHistory task={task} /> },
            { key: 'domains', label: t('ddns.domainHistory'), children: <DomainHistory task={task} /> },
          ]}
        />
      )}
    </Drawer>
  );
}

function TaskLog({ taskKey, intervalMs }: { taskKey: string; intervalMs: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const query = useQuery({
    queryKey: [...ddnsKeys.logs(taskKey), page, pageSize],
    queryFn: ({ signal }) => fetchTaskLogs(taskKey, { page, pageSize }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? intervalMs : false,
    refetchIntervalInBackground: false,
  });
  const data = query.data;
  return (
    <div data-testid="ddns-task-log">
      <Button
        icon={<ReloadOutlined />}
        loading={query.isFetching}
        onClick={() => void query.refetch()}
        className="ddns-drawer-toolbar"
      >
        {t('common.refresh')}
      </Button>
      <LogTable
        // Worded here (ddnsText: the one coded-text helper plus the reasons a line carries inside
        // it, `cause` and the address's source), so the table shows the line as it is.
        data={
          data && {
            total: data.total,
            logs: data.logs.map((l) => ({ ...l, text: ddnsText('log', l), code: undefined })),
          }
        }
        loading={query.isPending}
        page={page}
        pageSize={pageSize}
        onPage={(p, size) => {
          setPage(p);
          setPageSize(size);
        }}
        testId="ddns-log-table"
      />
    </div>
  );
}

function IpHistory({ task }: { task: DdnsTaskView }) {
  const { t } = useTranslation();
  return (
    <Table
      size="small"
      rowKey={(r) => `${r.time}-${r.ip}`}
      dataSource={task.state.ipHistory}
      pagination={false}
      locale={{ emptyText: <Empty description={t('ddns.noIpHistory')} /> }}
      data-testid="ddns-ip-history"
      columns={[
        {
          title: t('ddns.colTime'),
          dataIndex: 'time',
          width: 200,
          render: (v: string) => <span className="mono ddns-nowrap">{fmtTime(v)}</span>,
        },
        { title: t('ddns.colIp'), dataIndex: 'ip', render: (v: string) => <span className="mono">{v}</span> },
      ]}
    />
  );
}

function WebhookHistory({ task }: { task: DdnsTaskView }) {
  const { t } = useTranslation();
  return (
    <Table
      size="small"
      rowKey={(r) => `${r.time}-${r.target}`}
      dataSource={task.state.webhookHistory}
      pagination={false}
      scroll={{ x: 640 }}
      locale={{ emptyText: <Empty description={t('ddns.noWebhookHistory')} /> }}
      data-testid="ddns-webhook-history"
      columns={[
        {
          title: t('ddns.colTime'),
          dataIndex: 'time',
          width: 170,
          render: (v: string) => <span className="mono ddns-nowrap">{fmtTime(v)}</span>,
        },
        {
          title: t('ddns.colResult'),
          dataIndex: 'ok',
          width: 90,
          render: (ok: boolean) => (
            <Tag color={ok ? 'success' : 'error'}>{t(ok ? 'ddns.callOk' : 'ddns.callFailed')}</Tag>
          ),
        },
        {
          title: t('ddns.colTarget'),
          dataIndex: 'target',
          width: 110,
          render: (v: string) => t(`ddns.webhookTarget_${v}`),
        },
        { title: t('ddns.colAttempts'), dataIndex: 'attempts', width: 80 },
        { title: t('webhook.httpStatus'), dataIndex: 'status', width: 90, render: (v?: number) => v ?? '—' },
        {
          title: t('ddns.colMessage'),
          dataIndex: 'reason',
          render: (r: CodedText) => ddnsReasonText(r),
        },
      ]}
    />
  );
}

function DomainHistory({ task }: { task: DdnsTaskView }) {
  const { t } = useTranslation();
  const rows = task.state.domains.flatMap((d) =>
    d.history.map((h, i) => ({ key: `${d.line}-${i}`, fqdn: d.fqdn || d.line, ...h })),
  );
  return (
    <Table
      size="small"
      rowKey="key"
      dataSource={rows}
      pagination={false}
      scroll={{ x: 640 }}
      locale={{ emptyText: <Empty description={t('ddns.noDomainHistory')} /> }}
      columns={[
        { title: t('ddns.colDomain'), dataIndex: 'fqdn', render: (v: string) => <span className="mono">{v}</span> },
        { title: t('ddns.colStatus'), dataIndex: 'status', width: 150, render: (v) => <StatusTag status={v} /> },
        {
          title: t('ddns.colTime'),
          dataIndex: 'time',
          width: 170,
          render: (v: string) => <span className="mono ddns-nowrap">{fmtTime(v)}</span>,
        },
        {
          title: t('ddns.colMessage'),
          dataIndex: 'reason',
          render: (r: CodedText | undefined) => ddnsReasonText(r) || '—',
        },
      ]}
    />
  );
}
