// The server's settings: listening, passive ports and the announced address, TLS, limits, who may
// connect, the anonymous login and the log. Only the sections that changed are sent; the check
// before sending is the server's own schema, and a refused value lands beside its field.
import type { FtpserverMountView, FtpserverUserView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, queryLoad, type SaveHandler } from '../../components/form/FormDialog';
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
  const qc = useQueryClient();
  const [form] = Form.useForm<SettingsFormValues>();
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

  const save: SaveHandler = async (saved) => {
    if (!loaded) return;
    const values = form.getFieldsValue(true) as SettingsFormValues;
    const patch = settingsPatch(loaded, values);
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    const local = checkSettings(valuesToSettings(values), mounts, users);
    if (local.length > 0) return local;
    await saveSettings(patch);
    saved(t('ftpserver.settingsSaved'));
    await qc.invalidateQueries({ queryKey: ftpKeys.all });
    onClose();
  };

  return (
    <FormDialog<SettingsFormValues>
      open={open}
      title={t('ftpserver.settingsTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="ftp-settings"
      width={860}
      labelWidth={190}
      className="ftp-settings-dialog"
      load={queryLoad(query, (err) => ({ title: t('ftpserver.loadError'), description: errorText(err, t) }))}
      name="ftpSettings"
      initialValues={loaded && settingsToValues(loaded)}
    >
      <ListenFields ctx={ctx} />
      <PassiveFields ctx={ctx} />
      <TlsFields ctx={ctx} />
      <LimitsFields ctx={ctx} />
      <ClientFields ctx={ctx} mounts={mounts} />
      <LogFields ctx={ctx} />
    </FormDialog>
  );
}
