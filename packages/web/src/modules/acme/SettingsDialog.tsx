// The module's settings: when to warn of a coming expiry, and how long one call to a CA may take.
// Sent as a patch of what changed; a refused value lands beside its field.
import { type AcmeSettings, acmeIssues, acmeSettingsPatchSchema, ACME_LIMITS as L } from '@lucky/shared';
import { App, Button, Form, InputNumber, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../../api/callErrors';
import { numberRangeRule } from '../../components/numberRangeRule';
import { useDialogLayout } from '../../hooks/useDialogLayout';
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
  const patch: Partial<AcmeSettings> = {};
  for (const k of Object.keys(before) as (keyof AcmeSettings)[]) if (after[k] !== before[k]) patch[k] = after[k];
  const r = acmeSettingsPatchSchema.safeParse(patch);
  const issues = (r.error?.issues ?? []).map((i) => {
    const { field, code, params } = acmeIssues.fromZod(i, acmeSettingsPatchSchema);
    return { field, code, params };
  });
  return { patch, issues };
}

export function SettingsDialog({ open, settings, onClose, onSaved }: SettingsDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<AcmeSettings>();
  const [saving, setSaving] = useState(false);
  const layout = useDialogLayout(560);
  const errors = useFormErrors(form, { ns: 'acme' });

  const submit = async () => {
    if (!(await errors.validate())) return;
    const { patch, issues } = settingsPatch(settings, { ...settings, ...form.getFieldsValue(true) });
    if (issues.length > 0) {
      errors.show(issues);
      return;
    }
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      await saveSettings(patch);
      errors.clear();
      void message.success(t('acme.ui_settingsSaved'));
      onSaved();
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('acme.dialog_settingsTitle')}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={layout.className}
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
          onClick={() => void submit()}
          data-testid="acme-settings-save"
        >
          {t('common.save')}
        </Button>,
      ]}
    >
      <Form<AcmeSettings>
        form={form}
        name="acmeSettings"
        initialValues={settings}
        onValuesChange={errors.onValuesChange}
        layout="vertical"
        data-testid="acme-settings-form"
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
      </Form>
    </Modal>
  );
}
