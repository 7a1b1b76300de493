// The server's settings: listening, passive ports and the announced address, TLS, limits, who may
// connect, the anonymous login and the log. Only the sections that changed are sent; the check
// before sending is the server's own schema, and a refused value lands beside its field.
import type { FtpserverMountView, FtpserverUserView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Modal, Skeleton } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { useFormErrors } from '../../hooks/useFormErrors';
import { ClientFields, LimitsFields, LogFields } from './AccessFields';
import { fetchSettings, ftpKeys, saveSettings } from './api';
import { errorText } from './errors';
import { ListenFields, PassiveFields, TlsFields } from './ListenFields';
import {
  checkSettings,
  type SettingsFormValues,
  settingsFieldOf,
  settingsPatch,
  settingsToValues,
  valuesToSettings,
} from './settingsForm';
import type { SettingsContext } from './settingsRules';

export interface SettingsDialogProps {
  open: boolean;
  mounts: readonly FtpserverMountView[];
  users: readonly FtpserverUserView[];
  onClose: () => void;
}

export function SettingsDialog({ open, mounts, users, onClose }: SettingsDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<SettingsFormValues>();
  const [saving, setSaving] = useState(false);
  const layout = useDialogLayout(860);
  const query = useQuery({
    queryKey: ftpKeys.settings,
    queryFn: ({ signal }) => fetchSettings(signal),
    enabled: open,
    // Always the stored values when the dialog opens.
    staleTime: 0,
  });
  const loaded = query.data?.settings;
  const ctx: SettingsContext = useMemo(() => ({ mounts, users }), [mounts, users]);
  const errors = useFormErrors(form, { ns: 'ftpserver', nameOf: settingsFieldOf });

  const submit = async () => {
    if (!loaded) return;
    if (!(await errors.validate())) return;
    const values = form.getFieldsValue(true) as SettingsFormValues;
    const patch = settingsPatch(loaded, values);
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    const local = checkSettings(valuesToSettings(values), mounts, users);
    if (local.length > 0) {
      errors.show(local);
      return;
    }
    setSaving(true);
    try {
      await saveSettings(patch);
      errors.clear();
      void message.success(t('ftpserver.settingsSaved'));
      await qc.invalidateQueries({ queryKey: ftpKeys.all });
      onClose();
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('ftpserver.settingsTitle')}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={`ftp-settings-dialog ${layout.className}`}
      mask={{ closable: false }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={saving}
          disabled={!loaded}
          onClick={() => void submit()}
          data-testid="ftp-settings-save"
        >
          {t('common.save')}
        </Button>,
      ]}
    >
      {query.isPending && <Skeleton active paragraph={{ rows: 6 }} />}
      {query.isError && !loaded && (
        <Alert type="error" showIcon title={t('ftpserver.loadError')} description={errorText(query.error, t)} />
      )}
      {loaded && (
        <Form<SettingsFormValues>
          form={form}
          name="ftpSettings"
          initialValues={settingsToValues(loaded)}
          onValuesChange={errors.onValuesChange}
          layout={layout.fullScreen ? 'vertical' : 'horizontal'}
          labelCol={layout.fullScreen ? undefined : { flex: '190px' }}
          labelWrap
          colon={false}
          data-testid="ftp-settings-form"
        >
          <ListenFields ctx={ctx} />
          <PassiveFields ctx={ctx} />
          <TlsFields ctx={ctx} />
          <LimitsFields ctx={ctx} />
          <ClientFields ctx={ctx} mounts={mounts} />
          <LogFields ctx={ctx} />
        </Form>
      )}
    </Modal>
  );
}
