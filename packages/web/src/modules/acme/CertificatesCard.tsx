// The certificates: name, names (a wildcard stands out), challenge, state (the running order's
// step, the last failure's reason), expiry with the days left, last issued, next renewal (ARI's
// window in a tooltip), the switch, and the actions (issue / renew now, revoke, edit, delete).
import { PlusOutlined } from '@ant-design/icons';
import type { AcmeAccountView, AcmeCertificateView } from '@lucky/shared';
import { Button, Card, Popconfirm, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { reasonText } from './errors';
import { daysLeft, daysLeftType, isRunning, STATE_COLORS } from './format';

export interface CertificatesCardProps {
  certificates: AcmeCertificateView[];
  accounts: AcmeAccountView[];
  expiryWarnDays: number;
  loading: boolean;
  serviceOn: boolean;
  onAdd: () => void;
  onEdit: (c: AcmeCertificateView) => void;
  onToggle: (c: AcmeCertificateView, on: boolean) => unknown;
  onIssue: (c: AcmeCertificateView) => unknown;
  onRevoke: (c: AcmeCertificateView) => void;
  onDelete: (key: string) => unknown;
}

const NAMES_SHOWN = 3;

function Names({ names }: { names: string[] }) {
  const shown = names.slice(0, NAMES_SHOWN);
  const rest = names.slice(NAMES_SHOWN);
  return (
    <Space size={[4, 4]} wrap>
      {shown.map((n) => (
        <Tag key={n} color={n.startsWith('*.') ? 'purple' : undefined} className="mono">
          {n}
        </Tag>
      ))}
      {rest.length > 0 && (
        <Tooltip title={<span className="mono">{rest.join(', ')}</span>}>
          <Tag>+{rest.length}</Tag>
        </Tooltip>
      )}
    </Space>
  );
}

function State({ c }: { c: AcmeCertificateView }) {
  const { t } = useTranslation();
  const s = c.status;
  return (
    <div className="acme-state" data-testid={`acme-cert-state-${c.key}`} data-state={s.state}>
      <Tag color={STATE_COLORS[s.state]}>{t(`acme.state_${s.state}`)}</Tag>
      {isRunning(s.state) && s.step && (
        <Typography.Text type="secondary" className="acme-step">
          {t(`acme.cert_step_${s.step}`)}
        </Typography.Text>
      )}
      {s.lastError && (
        <Typography.Paragraph
          type="danger"
          className="acme-reason"
          ellipsis={{ rows: 2, tooltip: reasonText(s.lastError) }}
          data-testid={`acme-cert-reason-${c.key}`}
        >
          {reasonText(s.lastError)}
        </Typography.Paragraph>
      )}
      {s.state === 'failing' && s.failures > 1 && (
        <Typography.Text type="secondary" className="acme-failures">
          {t('acme.cert_failures', { count: s.failures })}
        </Typography.Text>
      )}
    </div>
  );
}

function Expiry({ c, warnDays }: { c: AcmeCertificateView; warnDays: number }) {
  const { t } = useTranslation();
  const days = daysLeft(c.status.notAfter);
  if (days === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <div data-testid={`acme-cert-expiry-${c.key}`}>
      <div className="mono">{formatTime(c.status.notAfter, 'YYYY-MM-DD')}</div>
      <Typography.Text type={daysLeftType(days, warnDays)}>
        {days < 0 ? t('acme.cert_expiredAgo', { count: -days }) : t('acme.cert_daysLeft', { count: days })}
      </Typography.Text>
    </div>
  );
}

function NextRenewal({ c }: { c: AcmeCertificateView }) {
  const { t } = useTranslation();
  const { nextRenewalAt, ariWindow } = c.status;
  if (!nextRenewalAt) return <Typography.Text type="secondary">—</Typography.Text>;
  const text = <span className="mono">{formatTime(nextRenewalAt, 'YYYY-MM-DD HH:mm:ss')}</span>;
  if (!ariWindow) return text;
  return (
    <Tooltip
      title={t('acme.cert_ariWindow', {
        start: formatTime(ariWindow.start, 'YYYY-MM-DD HH:mm:ss'),
        end: formatTime(ariWindow.end, 'YYYY-MM-DD HH:mm:ss'),
      })}
    >
      <span className="acme-ari">
        {text} <Tag color="blue">ARI</Tag>
      </span>
    </Tooltip>
  );
}

export function CertificatesCard(props: CertificatesCardProps) {
  const { certificates, accounts, expiryWarnDays, loading, serviceOn } = props;
  const { t } = useTranslation();
  const accountName = (key: string) => accounts.find((a) => a.key === key)?.name ?? key;
  return (
    <Card
      size="small"
      title={t('acme.ui_certificates')}
      data-testid="acme-certificates"
      extra={
        <Button
          type="primary"
          size="small"
          icon={<PlusOutlined />}
          onClick={props.onAdd}
          disabled={accounts.length === 0}
          title={accounts.length === 0 ? t('acme.cert_needAccount') : undefined}
          data-testid="acme-add-cert"
        >
          {t('acme.cert_add')}
        </Button>
      }
    >
      <Table<AcmeCertificateView>
        rowKey="key"
        size="small"
        loading={loading}
        dataSource={certificates}
        pagination={false}
        scroll={{ x: 1180 }}
        locale={{ emptyText: t(accounts.length === 0 ? 'acme.cert_needAccount' : 'acme.cert_none') }}
        columns={[
          {
            title: t('acme.cert_name'),
            dataIndex: 'name',
            fixed: 'left',
            width: 140,
            render: (name: string, c) => (
              <div>
                <div className="acme-cert-name">{name}</div>
                <Typography.Text type="secondary" className="acme-small">
                  {accountName(c.account)}
                </Typography.Text>
              </div>
            ),
          },
          { title: t('acme.cert_names'), dataIndex: 'names', width: 220, render: (n: string[]) => <Names names={n} /> },
          {
            title: t('acme.cert_challenge'),
            dataIndex: 'challenge',
            width: 90,
            render: (ch: string) => <span className="mono">{ch.toUpperCase()}</span>,
          },
          { title: t('acme.cert_state'), width: 200, render: (_v, c) => <State c={c} /> },
          {
            title: t('acme.cert_expiry'),
            width: 120,
            render: (_v, c) => <Expiry c={c} warnDays={expiryWarnDays} />,
          },
          {
            title: t('acme.cert_lastIssued'),
            width: 110,
            render: (_v, c) =>
              c.status.lastIssuedAt ? (
                <span className="mono">{formatTime(c.status.lastIssuedAt, 'YYYY-MM-DD')}</span>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
          { title: t('acme.cert_nextRenewal'), width: 170, render: (_v, c) => <NextRenewal c={c} /> },
          {
            title: t('common.enabled'),
            dataIndex: 'enabled',
            width: 70,
            render: (on: boolean, c) => (
              <Switch
                size="small"
                checked={on}
                onChange={(v) => void props.onToggle(c, v)}
                aria-label={c.name}
                data-testid={`acme-cert-switch-${c.key}`}
              />
            ),
          },
          {
            title: t('common.actions'),
            width: 260,
            render: (_v, c) => {
              const running = isRunning(c.status.state);
              const issued = !!c.status.notAfter && c.status.state !== 'revoked';
              return (
                <Space size={[4, 4]} wrap>
                  <Button
                    size="small"
                    type="primary"
                    ghost
                    loading={running}
                    disabled={running || !c.enabled || !serviceOn}
                    onClick={() => void props.onIssue(c)}
                    data-testid={`acme-cert-issue-${c.key}`}
                  >
                    {t(issued ? 'acme.cert_renewNow' : 'acme.cert_issueNow')}
                  </Button>
                  {issued && (
                    <Button
                      size="small"
                      danger
                      disabled={running}
                      onClick={() => props.onRevoke(c)}
                      data-testid={`acme-cert-revoke-${c.key}`}
                    >
                      {t('acme.cert_revoke')}
                    </Button>
                  )}
                  <Button size="small" onClick={() => props.onEdit(c)} data-testid={`acme-cert-edit-${c.key}`}>
                    {t('acme.ui_edit')}
                  </Button>
                  <Popconfirm
                    title={t('acme.cert_deleteConfirm', { name: c.name })}
                    okText={t('common.confirm')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => props.onDelete(c.key)}
                  >
                    <Button size="small" danger type="text">
                      {t('acme.ui_delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              );
            },
          },
        ]}
      />
    </Card>
  );
}
