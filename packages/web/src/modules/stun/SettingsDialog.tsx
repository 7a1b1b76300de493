// Global settings of the module: the switch, the STUN server list every rule without its own
// uses (with the built-in list one click away), the keep-alive server of TCP mappings, the
// default heartbeat and retry, and the global webhook. Only what changed is sent; a refused
// value lands beside its field.
import { UndoOutlined } from '@ant-design/icons';
import { DEFAULT_STUN_SERVERS, STUN_LIMITS as L } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Divider, Form, Input, InputNumber, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import type { Translate } from '../../api/callErrors';
import { FormDialog, queryLoad, type SaveHandler } from '../../components/form/FormDialog';
import { LinesInput } from '../../components/LinesInput';
import { failureText, useFormErrors } from '../../hooks/useFormErrors';
import { fetchSettings, saveSettings, stunKeys } from './api';
import { errorText } from './errors';
import { StunWebhookFields } from './StunWebhookFields';
import {
  checkSettings,
  type SettingsFormValues,
  settingsFieldOf,
  settingsPatch,
  settingsToValues,
  valuesToSettings,
} from './settingsForm';
import { useStunWebhookTest } from './useStunWebhookTest';
import { rangeRule } from './validators';

export interface SettingsDialogProps {
  open: boolean;
  onClose: () => void;
}

/** One field through the settings schema, in the words a refused save shows. */
function settingRule(t: Translate, name: 'stunServers' | 'keepAliveUrl', clean: (v: unknown) => unknown): Rule {
  return {
    validator: (_, value) => {
      const [issue] = checkSettings({ [name]: clean(value) });
      return issue ? Promise.reject(new Error(failureText(t, 'stun', issue))) : Promise.resolve();
    },
  };
}
const cleanLines = (v: unknown) => ((v as string[] | undefined) ?? []).map((s) => s.trim()).filter(Boolean);
const cleanText = (v: unknown) => String(v ?? '').trim();

export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<SettingsFormValues>();
  const webhookTest = useStunWebhookTest();
  const query = useQuery({
    queryKey: stunKeys.settings,
    queryFn: ({ signal }) => fetchSettings(signal),
    enabled: open,
    // Always the stored values when the dialog opens.
    staleTime: 0,
  });
  const loaded = query.data?.settings;
  const errors = useFormErrors(form, {
    ns: 'stun',
    nameOf: settingsFieldOf,
    reveal: (names) => {
      if (names.some((n) => n[0] === 'webhook' && n.length > 1)) form.setFieldValue(['webhook', 'enabled'], true);
    },
  });

  const current = (): SettingsFormValues => ({ ...(loaded && settingsToValues(loaded)), ...form.getFieldsValue(true) });

  const save: SaveHandler = async (saved) => {
    if (!loaded) return;
    const patch = settingsPatch(loaded, current());
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    const local = checkSettings(patch);
    if (local.length > 0) return local;
    await saveSettings(patch);
    saved(t('stun.settingsSaved'));
    await qc.invalidateQueries({ queryKey: stunKeys.all });
    onClose();
  };

  const testWebhook = () => {
    const refused = webhookTest.run(valuesToSettings(current()).webhook, '');
    if (refused.length > 0) errors.show(refused);
  };

  const resetServers = () => {
    form.setFieldValue('stunServers', [...DEFAULT_STUN_SERVERS]);
    void form.validateFields(['stunServers']);
  };

  const num = <InputNumber<number> precision={0} suffix={t('common.secondsShort')} style={{ width: 180 }} />;

  return (
    <FormDialog<SettingsFormValues>
      open={open}
      title={t('stun.settingsTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="stun-settings"
      width={860}
      labelWidth={180}
      className="stun-settings-dialog"
      load={queryLoad(query, (err) => ({ title: t('stun.loadError'), description: errorText(err, t) }))}
      name="stunSettings"
      initialValues={loaded && settingsToValues(loaded)}
      after={webhookTest.resultModal}
    >
      <Form.Item
        name="enabled"
        label={t('stun.moduleSwitch')}
        valuePropName="checked"
        extra={t('stun.moduleSwitchHelp')}
      >
        <Switch data-testid="stun-settings-enabled" />
      </Form.Item>
      <Form.Item label={t('stun.stunServers')} required extra={t('stun.globalServersHelp')}>
        <Form.Item name="stunServers" noStyle rules={[settingRule(t, 'stunServers', cleanLines)]}>
          <LinesInput rows={5} placeholder="stun.example.com:3478" data-testid="stun-settings-servers" />
        </Form.Item>
        <div>
          <Button
            size="small"
            icon={<UndoOutlined />}
            onClick={resetServers}
            className="stun-reset-servers"
            data-testid="stun-settings-reset-servers"
          >
            {t('stun.resetServers')}
          </Button>
        </div>
      </Form.Item>
      <Form.Item
        name="keepAliveUrl"
        label={t('stun.keepAliveUrl')}
        extra={t('stun.keepAliveUrlHelp')}
        rules={[settingRule(t, 'keepAliveUrl', cleanText)]}
      >
        <Input
          placeholder={t('stun.keepAliveUrlPlaceholder')}
          className="mono"
          allowClear
          data-testid="stun-settings-keepalive"
        />
      </Form.Item>
      <Form.Item
        name="heartbeatSec"
        label={t('stun.heartbeat')}
        extra={t('stun.globalHeartbeatHelp')}
        rules={[rangeRule(t, L.heartbeatSec)]}
      >
        {num}
      </Form.Item>
      <Form.Item
        name="retrySec"
        label={t('stun.retry')}
        extra={t('stun.retryHelp', { max: L.retryMaxSec })}
        rules={[rangeRule(t, L.retrySec)]}
      >
        {num}
      </Form.Item>
      <Divider titlePlacement="start" className="stun-section">
        {t('stun.globalWebhook')}
      </Divider>
      <StunWebhookFields
        enabledHelp={t('stun.globalWebhookHelp')}
        testing={webhookTest.testing}
        onTest={testWebhook}
        testId="stun-settings-webhook"
      />
    </FormDialog>
  );
}
