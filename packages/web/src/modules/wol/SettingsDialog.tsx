// The module's settings: how often every device is checked and how long one check may take; agent
// mode (other consoles may ask this one, with an API token, to run its shutdown command or to send
// magic packets on its LAN); the webhook called when a device goes online or offline. Only what
// changed is sent; a refused value lands beside its field.
import { WOL_LIMITS as L, WOL_WEBHOOK_VARS, type WolSettings, wolWebhook } from '@lucky/shared';
import { Divider, Form, Input, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { numberRangeRule } from '../../components/numberRangeRule';
import { useWebhookTest } from '../../components/webhook/useWebhookTest';
import { WebhookFields } from '../../components/webhook/WebhookFields';
import { testProblems } from '../../components/webhook/webhookForm';
import { useFormErrors } from '../../hooks/useFormErrors';
import { saveSettings, testWebhook } from './api';
import {
  checkSettings,
  type SettingsFormValues,
  settingsFieldOf,
  settingsPatch,
  settingsToValues,
  valuesToSettings,
} from './settingsForm';

const WEBHOOK_VARS = WOL_WEBHOOK_VARS.map((v) => `#{${v}}`).join(' ');

export interface SettingsDialogProps {
  open: boolean;
  settings: WolSettings;
  onClose: () => void;
  onSaved: () => void;
}

export function SettingsDialog({ open, settings, onClose, onSaved }: SettingsDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingsFormValues>();
  const webhookTest = useWebhookTest('wol');
  const errors = useFormErrors(form, {
    ns: 'wol',
    nameOf: settingsFieldOf,
    reveal: (names) => {
      if (names.some((n) => n[0] === 'webhook' && n.length > 1)) form.setFieldValue(['webhook', 'enabled'], true);
      if (names.some((n) => n[0] === 'agent' && n[1] === 'shutdownCommand'))
        form.setFieldValue(['agent', 'shutdownEnabled'], true);
    },
  });
  const initial = settingsToValues(settings);
  const agentShutdown = Form.useWatch(['agent', 'shutdownEnabled'], form) ?? initial.agent.shutdownEnabled;

  const current = (): SettingsFormValues => ({ ...initial, ...form.getFieldsValue(true) });

  const save: SaveHandler = async (saved) => {
    const patch = settingsPatch(settings, current());
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    const local = checkSettings(patch);
    if (local.length > 0) return local;
    await saveSettings(patch);
    saved(t('wol.ui_settingsSaved'));
    onSaved();
  };

  const runWebhookTest = () => {
    const webhook = valuesToSettings(current()).webhook;
    const problems = testProblems(wolWebhook.testSchema, webhook, 'webhook.');
    if (problems.length > 0) errors.show(problems);
    else void webhookTest.run(() => testWebhook(webhook));
  };

  return (
    <FormDialog<SettingsFormValues>
      open={open}
      title={t('wol.dialog_settingsTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="wol-settings"
      width={860}
      labelWidth={190}
      className="wol-settings-dialog"
      name="wolSettings"
      initialValues={initial}
      after={webhookTest.resultModal}
    >
      <Form.Item
        name="refreshSec"
        label={t('wol.dialog_refreshSec')}
        extra={t('wol.dialog_refreshSecHelp')}
        rules={[numberRangeRule(t, L.refreshSec.min, L.refreshSec.max)]}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.secondsShort')}
          style={{ width: 160 }}
          data-testid="wol-settings-refresh"
        />
      </Form.Item>
      <Form.Item
        name="checkTimeoutSec"
        label={t('wol.dialog_checkTimeout')}
        rules={[numberRangeRule(t, L.checkTimeoutSec.min, L.checkTimeoutSec.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.secondsShort')} style={{ width: 160 }} />
      </Form.Item>

      <Divider titlePlacement="start" className="wol-section">
        {t('wol.dialog_sectionAgent')}
      </Divider>
      <Form.Item
        name={['agent', 'shutdownEnabled']}
        label={t('wol.dialog_agentShutdown')}
        valuePropName="checked"
        extra={t('wol.dialog_agentShutdownHelp')}
      >
        <Switch data-testid="wol-settings-agent" />
      </Form.Item>
      {agentShutdown && (
        <Form.Item
          name={['agent', 'shutdownCommand']}
          label={t('wol.dialog_agentCommand')}
          required
          rules={[{ required: true, whitespace: true, message: t('wol.err_commandRequired') }]}
        >
          <Input className="mono" placeholder="systemctl poweroff" data-testid="wol-settings-agent-command" />
        </Form.Item>
      )}
      <Form.Item
        name={['agent', 'relayEnabled']}
        label={t('wol.dialog_agentRelay')}
        valuePropName="checked"
        extra={t('wol.dialog_agentRelayHelp')}
      >
        <Switch data-testid="wol-settings-relay" />
      </Form.Item>

      <Divider titlePlacement="start" className="wol-section">
        {t('wol.dialog_sectionWebhook')}
      </Divider>
      <WebhookFields
        prefix={['webhook']}
        vars={WEBHOOK_VARS}
        enabledHelp={t('wol.dialog_webhookHelp')}
        testing={webhookTest.testing}
        onTest={runWebhookTest}
        testId="wol-settings-webhook"
      />
    </FormDialog>
  );
}
