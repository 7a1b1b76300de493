// The console now shows another certificate than the pinned one: nothing was sent to it. If the
// change is expected (the console's certificate was renewed), the user compares the old and the
// new fingerprint and pins the new one; the token is kept.
import { SECRET_MASK, type WanjiConsoleView } from '@lucky/shared';
import { Alert, App, Descriptions, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateConsole } from './api';
import { errorText } from './errors';

export interface RepinDialogProps {
  console: WanjiConsoleView | undefined;
  onClose: () => void;
  onSaved: (c: WanjiConsoleView) => void;
}

export function RepinDialog({ console: c, onClose, onSaved }: RepinDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const seen = c?.seenFingerprint ?? '';

  const repin = async () => {
    if (!c || !seen) return;
    setSaving(true);
    try {
      const r = await updateConsole(c.key, {
        name: c.name,
        enabled: c.enabled,
        url: c.url,
        token: SECRET_MASK,
        tls: { ...c.tls, mode: 'pin', fingerprint: seen },
        note: c.note,
      });
      void message.success(t('wanji_admin.ui_repinned', { name: c.name }));
      onSaved(r.console);
    } catch (err) {
      const text = errorText(err, t);
      if (text) void message.error(text);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={c !== undefined}
      title={t('wanji_admin.dialog_repinTitle', { name: c?.name ?? '' })}
      onCancel={onClose}
      onOk={() => void repin()}
      okText={t('wanji_admin.dialog_repinOk')}
      okButtonProps={{ danger: true, disabled: !seen, loading: saving, 'data-testid': 'wanji-repin-ok' }}
      cancelText={t('common.cancel')}
      destroyOnHidden
      width={640}
    >
      <Alert type="warning" showIcon title={t('wanji_admin.dialog_repinWarning')} style={{ marginBottom: 12 }} />
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          {
            key: 'old',
            label: t('wanji_admin.dialog_repinOld'),
            children: <Typography.Text className="mono wanji-fingerprint">{c?.tls.fingerprint || '-'}</Typography.Text>,
          },
          {
            key: 'new',
            label: t('wanji_admin.dialog_repinNew'),
            children: (
              <Typography.Text className="mono wanji-fingerprint" data-testid="wanji-repin-new">
                {seen || '-'}
              </Typography.Text>
            ),
          },
        ]}
      />
    </Modal>
  );
}
