// The module's settings: how often each console is read while it answers, and how long one call
// to a console may take. Only what changed is sent; a refused value lands beside its field.
import { WANJI_ADMIN_LIMITS as L, type WanjiAdminSettings, type WanjiAdminSettingsPatch } from '@lucky/shared';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/form/FormDialog';
import { numberRangeRule } from '../../components/numberRangeRule';
import { useFormErrors } from '../../hooks/useFormErrors';
import { saveSettings } from './api';

export interface SettingsDialogProps {
  open: boolean;
  settings: WanjiAdminSettings;
  onClose: () => void;
  onSaved: () => void;
}

export function SettingsDialog({ open, settings, onClose, onSaved }: SettingsDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WanjiAdminSettings>();
  const errors = useFormErrors(form, { ns: 'wanji_admin' });

  return (
    <FormDialog<WanjiAdminSettings>
      open={open}
      title={t('wanji_admin.dialog_settingsTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      testId="wanji-settings"
      width={560}
      labelWidth={170}
      name="wanjiSettings"
      initialValues={settings}
      onSave={async (saved) => {
        const v: WanjiAdminSettings = { ...settings, ...form.getFieldsValue(true) };
        const patch: WanjiAdminSettingsPatch = {};
        if (v.refreshSeconds !== settings.refreshSeconds) patch.refreshSeconds = v.refreshSeconds;
        if (v.timeoutMs !== settings.timeoutMs) patch.timeoutMs = v.timeoutMs;
        if (Object.keys(patch).length > 0) {
          await saveSettings(patch);
          saved(t('wanji_admin.ui_settingsSaved'));
        }
        onSaved();
        return undefined;
      }}
    >
      <Form.Item
        name="refreshSeconds"
        label={t('wanji_admin.dialog_refreshSeconds')}
        extra={t('wanji_admin.dialog_refreshSecondsHelp', { max: L.backoffMaxSeconds / 60 })}
        rules={[numberRangeRule(t, L.refreshSeconds.min, L.refreshSeconds.max)]}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.secondsShort')}
          style={{ width: 160 }}
          data-testid="wanji-settings-refresh"
        />
      </Form.Item>
      <Form.Item
        name="timeoutMs"
        label={t('wanji_admin.dialog_timeoutMs')}
        rules={[numberRangeRule(t, L.timeoutMs.min, L.timeoutMs.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('wanji_admin.dialog_ms')} style={{ width: 160 }} />
      </Form.Item>
    </FormDialog>
  );
}
