// A rule's recent webhook calls (newest first): when, how it went, attempts, HTTP status and what
// it came to in the UI language.
import type { CodedText, WebhookCallView } from '@lucky/shared';
import { Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { codedTextWithCauses } from '../../i18n/coded';

export function WebhookHistory({ calls }: { calls: WebhookCallView[] }) {
  const { t } = useTranslation();
  return (
    <Table<WebhookCallView>
      size="small"
      rowKey={(r) => `${r.time}-${r.attempts}`}
      dataSource={calls}
      pagination={false}
      scroll={{ x: 560 }}
      locale={{ emptyText: <Empty description={t('stun.noWebhookCalls')} /> }}
      data-testid="stun-webhook-history"
      columns={[
        {
          title: t('common.logTime'),
          dataIndex: 'time',
          width: 170,
          render: (v: string) => <span className="mono">{formatTime(v)}</span>,
        },
        {
          title: t('stun.callResult'),
          dataIndex: 'ok',
          width: 90,
          render: (ok: boolean) => (
            <Tag color={ok ? 'success' : 'error'}>{t(ok ? 'stun.callOk' : 'stun.callFailed')}</Tag>
          ),
        },
        { title: t('stun.callAttempts'), dataIndex: 'attempts', width: 80 },
        { title: t('webhook.httpStatus'), dataIndex: 'status', width: 90, render: (v?: number) => v ?? '—' },
        {
          title: t('common.logText'),
          dataIndex: 'reason',
          render: (r: CodedText) => codedTextWithCauses('stun', 'reason', r),
        },
      ]}
    />
  );
}
