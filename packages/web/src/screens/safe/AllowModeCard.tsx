// Who the lists let in (allow mode) and what they leave alone (exempt scopes: the admin console,
// each module by its menu name), with the admin's own address shown. The server refuses a change
// that would shut the admin out (`wouldLockOut`); that refusal stands at the top of the card.
import { SAFE_ALLOW_MODES, SAFE_SCOPES, type SafeAllowMode, type SafeScope } from '@lucky/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Form, Radio, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormErrors } from '../../hooks/useFormErrors';
import { type LockOut, LockOutAlert } from './LockOutAlert';
import { lockOutOf, safeKeys, saveSafeSettings } from './safeApi';

interface ModeValues {
  allowMode: SafeAllowMode;
  exempt: SafeScope[];
}

/** A scope by the name the admin knows it: the console, or the module's menu name. */
export const scopeName = (t: (k: string) => string, scope: string) =>
  scope === 'admin' ? t('safe.lists_scopeAdmin') : t(`menu.${scope}`);

export function AllowModeCard({ values, you }: { values: ModeValues; you: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<ModeValues>();
  const [saving, setSaving] = useState(false);
  const [lockOut, setLockOut] = useState<LockOut>();
  const errors = useFormErrors(form, { ns: 'safe' });
  const mode = Form.useWatch('allowMode', form) ?? values.allowMode;

  useEffect(() => {
    form.setFieldsValue(values);
  }, [values, form]);

  const save = async (v: ModeValues) => {
    setSaving(true);
    setLockOut(undefined);
    try {
      await saveSafeSettings({ allowMode: v.allowMode, exempt: v.exempt });
      errors.clear();
      void message.success(t('set.saved'));
      await qc.invalidateQueries({ queryKey: safeKeys.all });
    } catch (err) {
      const locked = lockOutOf(err);
      if (locked) setLockOut(locked);
      else errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('safe.lists_modeTitle')} data-testid="safe-mode-card">
      <Typography.Paragraph type="secondary">{t('safe.lists_intro')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('safe.lists_you')}{' '}
        <Typography.Text code className="mono" data-testid="safe-you">
          {you}
        </Typography.Text>
      </Typography.Paragraph>
      {lockOut && <LockOutAlert lockOut={lockOut} onClose={() => setLockOut(undefined)} />}
      <Form<ModeValues>
        form={form}
        layout="vertical"
        initialValues={values}
        onFinish={save}
        onValuesChange={errors.onValuesChange}
        style={{ maxWidth: 720 }}
      >
        <Form.Item name="allowMode" label={t('safe.lists_mode')} extra={t(`safe.lists_modeHelp_${mode}`)}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={SAFE_ALLOW_MODES.map((m) => ({ value: m, label: t(`safe.lists_mode_${m}`) }))}
            data-testid="safe-mode"
          />
        </Form.Item>
        {mode === 'all' && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('safe.lists_modeAllWarning')}
            data-testid="safe-mode-all-warning"
          />
        )}
        <Form.Item name="exempt" label={t('safe.lists_exempt')} extra={t('safe.lists_exemptHelp')}>
          <Checkbox.Group
            className="safe-scopes"
            options={SAFE_SCOPES.map((s) => ({ value: s, label: scopeName(t, s) }))}
            data-testid="safe-exempt"
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="safe-mode-save">
            {t('common.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
