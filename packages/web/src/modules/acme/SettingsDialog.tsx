// The module's settings: when to warn of a coming expiry, and how long one call to a CA may take.
// Sent as a patch of what changed; a refused value lands beside its field.
import { type AcmeSettings, acmeIssues, acmeSettingsPatchSchema, ACME_LIMITS as L } from '@lucky/shared';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../../api/callErrors';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { changedFields, schemaFailures } from '../../components/form/settingsForm';
import { numberRangeRule } from '../../components/numberRangeRule';
import { useFormErrors } from '../../hooks/useFormErrors';
import { saveSettings } from './api';

export interface SettingsDialogProps {
  open: boolean;
  settings: AcmeSettings;
  onClose: () => void;
  onSaved: () => void;
}

/** What changed, checked by the server's schema (none = nothing to send). */
export function settingsPatch(
  before: AcmeSettings,
  after: AcmeSettings,
): { patch: Partial<AcmeSettings>; issues: Failure[] } {
  const patch = changedFields(before, after, Object.keys(before) as (keyof AcmeSettings)[]);
  return { patch, issues: schemaFailures(acmeSettingsPatchSchema, acmeIssues, patch) };
}

export function SettingsDialog({ open, settings, onClose, onSaved }: SettingsDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AcmeSettings>();
  const errors = useFormErrors(form, { ns: 'acme' });

  const save: SaveHandler = async (saved) => {
    const { patch, issues } = settingsPatch(settings, { ...settings, ...form.getFieldsValue(true) });
    if (issues.length > 0) return issues;
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    await saveSettings(patch);
    saved(t('acme.ui_settingsSaved'));
    onSaved();
  };

  return (
    <FormDialog<AcmeSettings>
      open={open}
      title={t('acme.dialog_settingsTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="acme-settings"
      width={560}
      name="acmeSettings"
      initialValues={settings}
    >
      <Form.Item
        name="expiryWarnDays"
        label={t('acme.dialog_expiryWarnDays')}
        extra={t('acme.dialog_expiryWarnDaysHelp')}
        rules={[numberRangeRule(t, L.expiryWarnDays.min, L.expiryWarnDays.max)]}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.unitDay')}
          style={{ width: 160 }}
          data-testid="acme-settings-warn"
        />
      </Form.Item>
      <Form.Item
        name="httpTimeout"
        label={t('acme.dialog_httpTimeout')}
        extra={t('acme.dialog_httpTimeoutHelp')}
        rules={[numberRangeRule(t, L.httpTimeout.min, L.httpTimeout.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.secondsShort')} style={{ width: 160 }} />
      </Form.Item>
    </FormDialog>
  );
}
