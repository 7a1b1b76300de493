// Revoking asks why (RFC 5280 reasons a user may give) and says what follows: the CA marks the
// certificate revoked and the box stops serving it.
import { ACME_REVOKE_REASONS, type AcmeCertificateView, type AcmeRevokeReason } from '@lucky/shared';
import { Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface RevokeDialogProps {
  certificate: AcmeCertificateView | null;
  onClose: () => void;
  onRevoke: (c: AcmeCertificateView, reason: AcmeRevokeReason) => Promise<unknown>;
}

const REASONS = Object.keys(ACME_REVOKE_REASONS) as AcmeRevokeReason[];

export function RevokeDialog({ certificate, onClose, onRevoke }: RevokeDialogProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<AcmeRevokeReason>('unspecified');
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!certificate) return;
    setBusy(true);
    try {
      await onRevoke(certificate, reason);
      onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={certificate !== null}
      title={t('acme.dialog_revokeTitle', { name: certificate?.name ?? '' })}
      onCancel={onClose}
      onOk={() => void confirm()}
      okText={t('acme.cert_revoke')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'acme-revoke-confirm' }}
      destroyOnHidden
      data-testid="acme-revoke-dialog"
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>{t('acme.dialog_revokeText')}</Typography.Paragraph>
        <div>
          <Typography.Text>{t('acme.dialog_revokeReason')}</Typography.Text>
          <Select<AcmeRevokeReason>
            value={reason}
            onChange={setReason}
            style={{ width: '100%', marginTop: 4 }}
            options={REASONS.map((r) => ({ value: r, label: t(`acme.dialog_revokeReason_${r}`) }))}
            data-testid="acme-revoke-reason"
          />
        </div>
      </Space>
    </Modal>
  );
}
