// The audit log (GET /api/audit): every login attempt and every call that changes something —
// when (in this browser's time zone), from which address, by whom (the account, or an API
// token), what, and how it ended. Filtered and paged on the server.
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';
import { formatTime } from './time';

export interface AuditEntry {
  /** ISO 8601, UTC. */
  time: string;
  clientIp: string;
  /** The admin account, `token:<name>` for an API token; absent for a login naming another account. */
  actor?: string;
  /** `METHOD /api/path`. */
  action: string;
  /** 0 = done. */
  ret: number;
  msg?: string;
}

interface AuditPage {
  ret: number;
  total: number;
  list: AuditEntry[];
}

type ResultFilter = '' | 'ok' | 'failed';

/** The calls people look for, in words; others show as they are (`POST /api/ddns/tasks`). */
const ACTION_KEYS: Record<string, string> = {
  'POST /api/login': 'login',
  'PUT /api/logout': 'logout',
  'PUT /api/baseconfigure': 'settings',
  'POST /api/twofa/enable': 'twofaOn',
  'POST /api/twofa/disable': 'twofaOff',
  'POST /api/apitokens': 'tokenCreate',
  'DELETE /api/apitokens': 'tokenRevoke',
  'DELETE /api/sessions': 'sessionRevoke',
  'POST /api/configure': 'restoreUpload',
  'GET /api/restoreconfigureconfirm': 'restore',
  'GET /api/reboot_program': 'restart',
  'POST /api/update': 'updateUpload',
  'PUT /api/update/comfire': 'update',
};

const TOKEN_PREFIX = 'token:';

export function AuditTab() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [q, setQ] = useState('');
  const [result, setResult] = useState<ResultFilter>('');
  const audit = useQuery({
    queryKey: ['audit', page, pageSize, q, result],
    queryFn: ({ signal }) => get<AuditPage>('api/audit', { signal, query: { page, pageSize, q, result } }),
    placeholderData: keepPreviousData,
  });

  const actor = (a?: string) => {
    if (!a) return <Typography.Text type="secondary">-</Typography.Text>;
    if (!a.startsWith(TOKEN_PREFIX)) return a;
    return (
      <Space size={4}>
        <Tag className="audit-token-tag">{t('safe.auditToken')}</Tag>
        {a.slice(TOKEN_PREFIX.length)}
      </Space>
    );
  };

  return (
    <Card
      title={t('safe.auditTitle')}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void audit.refetch()} data-testid="audit-refresh">
          {t('common.refresh')}
        </Button>
      }
      data-testid="audit-tab"
    >
      <Typography.Paragraph type="secondary">{t('safe.auditHelp')}</Typography.Paragraph>
      <Space wrap className="audit-filters">
        <Input.Search
          allowClear
          placeholder={t('safe.auditSearch')}
          onSearch={(v) => {
            setQ(v.trim());
            setPage(1);
          }}
          style={{ width: 280 }}
          data-testid="audit-search"
        />
        <Select<ResultFilter>
          value={result}
          onChange={(v) => {
            setResult(v);
            setPage(1);
          }}
          style={{ width: 140 }}
          options={(['', 'ok', 'failed'] as const).map((v) => ({
            value: v,
            label: t(`safe.auditResult_${v || 'all'}`),
          }))}
          aria-label={t('safe.auditResult')}
          data-testid="audit-result-filter"
        />
      </Space>
      <Table<AuditEntry>
        rowKey={(e) => `${e.time}|${e.action}|${e.clientIp}`}
        loading={audit.isFetching}
        dataSource={audit.data?.list}
        scroll={{ x: 1000 }}
        data-testid="audit-table"
        pagination={{
          current: page,
          pageSize,
          total: audit.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100, 200],
          showTotal: (total) => t('safe.auditTotal', { total }),
          onChange: (p, size) => {
            setPage(size === pageSize ? p : 1);
            setPageSize(size);
          },
        }}
        columns={[
          {
            title: t('safe.auditTime'),
            dataIndex: 'time',
            width: 170,
            render: (v: string) => <span className="audit-time">{formatTime(v)}</span>,
          },
          {
            title: t('safe.auditAddress'),
            dataIndex: 'clientIp',
            width: 170,
            render: (ip: string) => <span className="mono">{ip || '-'}</span>,
          },
          { title: t('safe.auditActor'), dataIndex: 'actor', width: 160, render: actor },
          {
            title: t('safe.auditAction'),
            dataIndex: 'action',
            render: (action: string) => {
              const key = ACTION_KEYS[action];
              return (
                <div className="audit-action">
                  {key && <span>{t(`safe.auditAction_${key}`)}</span>}
                  <Typography.Text type={key ? 'secondary' : undefined} className="mono audit-action-raw">
                    {action}
                  </Typography.Text>
                </div>
              );
            },
          },
          {
            title: t('safe.auditResult'),
            dataIndex: 'ret',
            width: 220,
            render: (ret: number, e) =>
              ret === 0 ? (
                <Tag color="success">{t('safe.auditResult_ok')}</Tag>
              ) : (
                <div className="audit-action">
                  <span>
                    <Tag color="error">{t('safe.auditResult_failed')}</Tag>
                  </span>
                  {e.msg && (
                    <Typography.Text type="secondary" className="audit-msg">
                      {e.msg}
                    </Typography.Text>
                  )}
                </div>
              ),
          },
        ]}
      />
    </Card>
  );
}
