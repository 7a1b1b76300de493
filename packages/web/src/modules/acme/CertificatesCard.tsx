// The certificates: on a wide screen a table (name with its account and challenge, names, state,
// expiry with the days left, last issued and next renewal, the switch, the actions); on a phone one
// card per certificate with the same pieces.
import { PlusOutlined } from '@ant-design/icons';
import type { AcmeAccountView, AcmeCertificateView } from '@lucky/shared';
import { Button, Card, Empty, Switch, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useWindowSize } from '../../hooks/useWindowSize';
import { CertActions, type CertActionsProps, Expiry, Names, Renewal, State } from './CertificateParts';

export interface CertificatesCardProps extends Omit<CertActionsProps, 'c'> {
  certificates: AcmeCertificateView[];
  accounts: AcmeAccountView[];
  expiryWarnDays: number;
  onAdd: () => void;
  onToggle: (c: AcmeCertificateView, on: boolean) => unknown;
}

/** Narrower than this, certificates show as cards. */
const PHONE_PX = 768;

export function CertificatesCard(props: CertificatesCardProps) {
  const { certificates, accounts, expiryWarnDays } = props;
  const { t } = useTranslation();
  const { width } = useWindowSize();
  const accountName = (key: string) => accounts.find((a) => a.key === key)?.name ?? key;
  const empty = t(accounts.length === 0 ? 'acme.cert_needAccount' : 'acme.cert_none');
  const toggle = (c: AcmeCertificateView) => (
    <Switch
      size="small"
      checked={c.enabled}
      onChange={(v) => void props.onToggle(c, v)}
      aria-label={c.name}
      data-testid={`acme-cert-switch-${c.key}`}
    />
  );
  const title = (c: AcmeCertificateView) => (
    <div>
      <div className="acme-cert-name">{c.name}</div>
      <Typography.Text type="secondary" className="acme-small">
        {accountName(c.account)} · <span className="mono">{c.challenge.toUpperCase()}</span>
      </Typography.Text>
    </div>
  );

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
          data-testid="acme-add-cert"
        >
          {t('acme.cert_add')}
        </Button>
      }
    >
      {width <= PHONE_PX ? (
        <div className="acme-cert-cards">
          {certificates.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />}
          {certificates.map((c) => (
            <div key={c.key} className="acme-cert-card" data-testid={`acme-cert-card-${c.key}`}>
              <div className="acme-cert-card-head">
                {title(c)}
                {toggle(c)}
              </div>
              <Names names={c.names} />
              <State c={c} />
              <Expiry c={c} warnDays={expiryWarnDays} />
              <Renewal c={c} />
              <CertActions {...props} c={c} />
            </div>
          ))}
        </div>
      ) : (
        <Table<AcmeCertificateView>
          rowKey="key"
          size="small"
          dataSource={certificates}
          pagination={false}
          tableLayout="fixed"
          locale={{ emptyText: empty }}
          columns={[
            { title: t('acme.cert_name'), width: '14%', render: (_v, c) => title(c) },
            { title: t('acme.cert_names'), width: '20%', render: (_v, c) => <Names names={c.names} /> },
            { title: t('acme.cert_state'), width: '18%', render: (_v, c) => <State c={c} /> },
            {
              title: t('acme.cert_expiry'),
              width: '14%',
              render: (_v, c) => <Expiry c={c} warnDays={expiryWarnDays} />,
            },
            { title: t('acme.cert_renewal'), width: '14%', render: (_v, c) => <Renewal c={c} /> },
            { title: t('common.enabled'), width: 84, render: (_v, c) => toggle(c) },
            { title: t('common.actions'), width: 190, render: (_v, c) => <CertActions {...props} c={c} /> },
          ]}
        />
      )}
    </Card>
  );
}
