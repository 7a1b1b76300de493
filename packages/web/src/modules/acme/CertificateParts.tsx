// The pieces of a certificate's row (wide screens) and card (phones): its names, state, expiry,
// renewal times and actions.
import { MoreOutlined } from '@ant-design/icons';
import type { AcmeCertificateView } from '@lucky/shared';
import { App, Button, Dropdown, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { reasonText } from './errors';
import { daysLeft, daysLeftType, isRunning, STATE_COLORS } from './format';

const NAMES_SHOWN = 3;

/** The names as tags, a wildcard in its own colour; past three, the rest in a tooltip. */
export function Names({ names }: { names: string[] }) {
  const shown = names.slice(0, NAMES_SHOWN);
  const rest = names.slice(NAMES_SHOWN);
  return (
    <Space size={[4, 4]} wrap>
      {shown.map((n) => (
        <Tag key={n} color={n.startsWith('*.') ? 'purple' : undefined} className="mono acme-name-tag">
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

/** The state tag, the running order's step, the last failure's reason and the failures in a row. */
export function State({ c }: { c: AcmeCertificateView }) {
  const { t } = useTranslation();
  const s = c.status;
  return (
    <div className="acme-state" data-testid={`acme-cert-state-${c.key}`} data-state={s.state}>
      <Tag color={STATE_COLORS[s.state]}>{t(`acme.state_${s.state}`)}</Tag>
      {isRunning(s.state) && s.step && (
        <Typography.Text type="secondary" className="acme-small">
          {t(`acme.cert_step_${s.step}`)}
        </Typography.Text>
      )}
      {s.lastError && (
        <Typography.Paragraph
          type="danger"
          className="acme-reason"
          ellipsis={{ rows: 3, tooltip: reasonText(s.lastError) }}
          data-testid={`acme-cert-reason-${c.key}`}
        >
          {reasonText(s.lastError)}
        </Typography.Paragraph>
      )}
      {s.state === 'failing' && s.failures > 1 && (
        <Typography.Text type="secondary" className="acme-small">
          {t('acme.cert_failures', { count: s.failures })}
        </Typography.Text>
      )}
    </div>
  );
}

export function Expiry({ c, warnDays }: { c: AcmeCertificateView; warnDays: number }) {
  const { t } = useTranslation();
  const days = daysLeft(c.status.notAfter);
  if (days === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  const { issuer, serial } = c.status;
  const date = <span className="mono">{formatTime(c.status.notAfter, 'YYYY-MM-DD')}</span>;
  return (
    <div data-testid={`acme-cert-expiry-${c.key}`}>
      {issuer || serial ? (
        <Tooltip
          title={
            <div className="acme-cert-facts">
              {issuer && <div>{t('acme.cert_issuer', { issuer })}</div>}
              {serial && <div className="mono">{t('acme.cert_serial', { serial })}</div>}
            </div>
          }
        >
          {date}
        </Tooltip>
      ) : (
        date
      )}{' '}
      <Typography.Text type={daysLeftType(days, warnDays)} className="acme-days">
        {days < 0 ? t('acme.cert_expiredAgo', { count: -days }) : t('acme.cert_daysLeft', { count: days })}
      </Typography.Text>
    </div>
  );
}

/** Last issued and next renewal (ARI's window in a tooltip when the CA gave one). */
export function Renewal({ c }: { c: AcmeCertificateView }) {
  const { t } = useTranslation();
  const { lastIssuedAt, nextRenewalAt, ariWindow } = c.status;
  const day = (iso: string | undefined) => (iso ? formatTime(iso, 'YYYY-MM-DD') : '—');
  // A retry after a failure comes within minutes or hours: its time of day says more than the date.
  const soon = nextRenewalAt !== undefined && Math.abs(Date.parse(nextRenewalAt) - Date.now()) < 86_400_000;
  const next = (
    <span className="mono" data-testid={`acme-cert-next-${c.key}`}>
      {soon ? formatTime(nextRenewalAt, 'HH:mm:ss') : day(nextRenewalAt)}
    </span>
  );
  return (
    <div className="acme-renewal">
      <div>
        <Typography.Text type="secondary">{t('acme.cert_lastShort')}</Typography.Text>{' '}
        <span className="mono">{day(lastIssuedAt)}</span>
      </div>
      <div>
        <Typography.Text type="secondary">{t('acme.cert_nextShort')}</Typography.Text>{' '}
        {ariWindow ? (
          <Tooltip
            title={t('acme.cert_ariWindow', {
              start: formatTime(ariWindow.start, 'YYYY-MM-DD HH:mm:ss'),
              end: formatTime(ariWindow.end, 'YYYY-MM-DD HH:mm:ss'),
            })}
          >
            <span className="acme-ari">
              {next}
              <Tag color="blue">ARI</Tag>
            </span>
          </Tooltip>
        ) : (
          next
        )}
      </div>
    </div>
  );
}

export interface CertActionsProps {
  c: AcmeCertificateView;
  serviceOn: boolean;
  onIssue: (c: AcmeCertificateView) => unknown;
  onEdit: (c: AcmeCertificateView) => void;
  onRevoke: (c: AcmeCertificateView) => void;
  onDelete: (key: string) => unknown;
}

/** Issue / renew now and edit as buttons; revoke and delete (confirmed) behind "more". */
export function CertActions({ c, serviceOn, onIssue, onEdit, onRevoke, onDelete }: CertActionsProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const running = isRunning(c.status.state);
  const issued = !!c.status.notAfter && c.status.state !== 'revoked';
  const confirmDelete = () =>
    modal.confirm({
      title: t('acme.cert_deleteConfirm', { name: c.name }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'acme-cert-delete-confirm' },
      onOk: () => onDelete(c.key),
    });
  return (
    <Space size={4}>
      <Button
        size="small"
        type="primary"
        ghost
        loading={running}
        disabled={running || !c.enabled || !serviceOn}
        onClick={() => void onIssue(c)}
        data-testid={`acme-cert-issue-${c.key}`}
      >
        {t(issued ? 'acme.cert_renewNow' : 'acme.cert_issueNow')}
      </Button>
      <Button size="small" onClick={() => onEdit(c)} data-testid={`acme-cert-edit-${c.key}`}>
        {t('acme.ui_edit')}
      </Button>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'revoke', label: t('acme.cert_revoke'), danger: true, disabled: !issued || running },
            { key: 'delete', label: t('acme.ui_delete'), danger: true },
          ],
          onClick: ({ key }) => (key === 'revoke' ? onRevoke(c) : confirmDelete()),
        }}
      >
        <Button
          size="small"
          icon={<MoreOutlined />}
          aria-label={t('acme.ui_more')}
          data-testid={`acme-cert-more-${c.key}`}
        />
      </Dropdown>
    </Space>
  );
}
