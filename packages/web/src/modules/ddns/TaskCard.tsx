// One task in the list: switch, name, record type, provider, IP source and current IP, and per
// domain its sync status (coloured tag), time and message; the task's actions.
import {
  ApiOutlined,
  DeleteOutlined,
  EditOutlined,
  FileTextOutlined,
  HistoryOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import type { DdnsDomainState, DdnsTaskView } from '@lucky/shared';
import { Alert, Button, Card, Popconfirm, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fmtTime, STATUS_COLOR } from './format';
import { ddnsReasonText } from './reasons';

export interface TaskCardProps {
  task: DdnsTaskView;
  serviceOn: boolean;
  onToggle: (enabled: boolean) => Promise<unknown>;
  onSync: () => Promise<unknown>;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
  onTestWebhook: () => Promise<unknown>;
  onHistory: () => void;
  onLogs: () => void;
}

export function StatusTag({ status, testId }: { status: DdnsDomainState['status']; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid={testId} data-status={status} className="ddns-status-tag">
      {t(`ddns.sync_${status}`)}
    </Tag>
  );
}

export function TaskCard(props: TaskCardProps) {
  const { task, serviceOn, onToggle, onSync, onEdit, onDelete, onTestWebhook, onHistory, onLogs } = props;
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'' | 'switch' | 'sync' | 'webhook'>('');
  const run = async (what: typeof busy, fn: () => Promise<unknown>) => {
    setBusy(what);
    try {
      await fn();
    } finally {
      setBusy('');
    }
  };
  const s = task.state;
  const name = task.name || t('ddns.unnamed');
  const src = task.ipSource;
  const sourceDetail =
    src.type === 'url'
      ? t('ddns.urlCount', { count: src.urls.length })
      : src.type === 'netInterface'
        ? src.netInterface
        : src.type === 'odhcpd'
          ? src.odhcpdFile
          : '';
  const canSync = serviceOn && task.enabled;
  const syncHint = !serviceOn ? t('ddns.err_serviceOff') : !task.enabled ? t('ddns.err_taskDisabled') : '';

  return (
    <Card size="small" className="ddns-task" data-testid={`ddns-task-${task.key}`}>
      <div className="ddns-task-head">
        <div className="ddns-task-title">
          <Switch
            checked={task.enabled}
            loading={busy === 'switch'}
            onChange={(on) => void run('switch', () => onToggle(on))}
            aria-label={t('ddns.taskSwitch')}
            data-testid={`ddns-task-switch-${task.key}`}
          />
          <Typography.Text strong className="ddns-task-name" ellipsis>
            {name}
          </Typography.Text>
          <Tag color="geekblue">{task.recordType === 'A' ? 'IPv4 · A' : 'IPv6 · AAAA'}</Tag>
          <Tag>{t(`ddns.provider_${task.dns.provider}`)}</Tag>
          {s.running && (
            <Tag icon={<SyncOutlined spin />} color="processing">
              {t('ddns.running')}
            </Tag>
          )}
        </div>
        <Space size={4} wrap className="ddns-task-actions">
          <Tooltip title={syncHint}>
            <Button
              type="primary"
              ghost
              icon={<SyncOutlined />}
              disabled={!canSync}
              loading={busy === 'sync'}
              onClick={() => void run('sync', onSync)}
              data-testid={`ddns-task-sync-${task.key}`}
            >
              {t('ddns.syncNow')}
            </Button>
          </Tooltip>
          <Button icon={<EditOutlined />} onClick={onEdit} data-testid={`ddns-task-edit-${task.key}`}>
            {t('ddns.edit')}
          </Button>
          <Tooltip title={task.webhook.enabled ? '' : t('ddns.webhookOffHint')}>
            <Button
              icon={<ApiOutlined />}
              disabled={!task.webhook.enabled}
              loading={busy === 'webhook'}
              onClick={() => void run('webhook', onTestWebhook)}
              data-testid={`ddns-task-webhook-${task.key}`}
            >
              {t('webhook.test')}
            </Button>
          </Tooltip>
          <Button icon={<HistoryOutlined />} onClick={onHistory} data-testid={`ddns-task-history-${task.key}`}>
            {t('ddns.history')}
          </Button>
          <Button icon={<FileTextOutlined />} onClick={onLogs} data-testid={`ddns-task-logs-${task.key}`}>
            {t('ddns.log')}
          </Button>
          <Popconfirm
            title={t('ddns.deleteConfirm', { name })}
            description={t('ddns.deleteConfirmHelp')}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onDelete()}
          >
            <Button danger icon={<DeleteOutlined />} data-testid={`ddns-task-delete-${task.key}`}>
              {t('ddns.delete')}
            </Button>
          </Popconfirm>
        </Space>
      </div>

      <div className="ddns-task-facts">
        <Fact label={t('ddns.ipSource')}>
          {t(`ddns.source_${src.type}`)}
          {sourceDetail && <span className="ddns-muted"> · {sourceDetail}</span>}
        </Fact>
        <Fact label={t('ddns.currentIp')}>
          {s.ip ? (
            <Tooltip title={s.ipTime ? t('ddns.ipSince', { time: fmtTime(s.ipTime) }) : ''}>
              <span className="mono" data-testid={`ddns-task-ip-${task.key}`}>
                {s.ip}
              </span>
            </Tooltip>
          ) : (
            <span className="ddns-muted" data-testid={`ddns-task-ip-${task.key}`}>
              {t('ddns.noIpYet')}
            </span>
          )}
        </Fact>
        <Fact label={t('ddns.lastCheck')}>
          <span className="mono">{fmtTime(s.lastCheck) || '—'}</span>
        </Fact>
        {task.webhook.enabled && (
          <Fact label={t('webhook.title')}>
            <Tag color="purple">{t('ddns.webhookOwn')}</Tag>
          </Fact>
        )}
      </div>

      {s.ipError && (
        <Alert
          type="warning"
          showIcon
          className="ddns-ip-error"
          title={ddnsReasonText(s.ipError)}
          data-testid={`ddns-task-iperror-${task.key}`}
        />
      )}

      <Table<DdnsDomainState>
        size="small"
        className="ddns-domains"
        rowKey={(d) => d.line}
        dataSource={s.domains}
        pagination={false}
        scroll={{ x: 640 }}
        locale={{ emptyText: t('ddns.noDomains') }}
        columns={[
          {
            title: t('ddns.colDomain'),
            dataIndex: 'fqdn',
            width: '32%',
            render: (_: string, d) => (
              <span className="mono ddns-domain" title={d.line}>
                {d.fqdn || d.line}
              </span>
            ),
          },
          {
            title: t('ddns.colStatus'),
            dataIndex: 'status',
            width: 150,
            render: (_: string, d) => (
              <StatusTag status={d.status} testId={`ddns-domain-status-${task.key}-${d.fqdn}`} />
            ),
          },
          {
            title: t('ddns.colTime'),
            dataIndex: 'time',
            width: 170,
            render: (v?: string) => <span className="mono ddns-nowrap">{fmtTime(v) || '—'}</span>,
          },
          {
            title: t('ddns.colMessage'),
            dataIndex: 'reason',
            render: (_: unknown, d) => <DomainMessage d={d} />,
          },
        ]}
      />
    </Card>
  );
}

function DomainMessage({ d }: { d: DdnsDomainState }) {
  const text = ddnsReasonText(d.reason);
  return <span className={d.status === 'failed' ? 'ddns-msg ddns-msg-error' : 'ddns-msg'}>{text || '—'}</span>;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="ddns-fact">
      <span className="ddns-fact-label">{label}</span>
      <span className="ddns-fact-value">{children}</span>
    </div>
  );
}
