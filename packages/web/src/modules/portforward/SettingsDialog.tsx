// Global settings of the module: the switch and the limits over all rules.
// Only what changed is sent; a refused value lands on its field.
import { PORTFORWARD_LIMITS as L, type PortforwardSettings } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { useFormErrors } from '../../hooks/useFormErrors';
import { fetchSettings, pfKeys, saveSettings } from './api';
import { isIssueCode, issueText } from './errors';
import { SpeedInput } from './SpeedInput';
import { rangeRule, speedRule } from './validators';

export interface SettingsDialogProps {
  open: boolean;
  onClose: () => void;
}

const FIELDS: (keyof PortforwardSettings)[] = [
  'enabled',
  'ruleLimit',
  'maxTcpConnections',
  'maxUdpSessions',
  'perIpMaxConnections',
  'connectionSpeedLimit',
  'connectTimeoutMs',
];

export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<PortforwardSettings>();
  const query = useQuery({
    queryKey: pfKeys.settings,
    queryFn: ({ signal }) => fetchSettings(signal),
    enabled: open,
    // Always the stored values when the dialog opens.
    staleTime: 0,
    gcTime: 0,
  });
  const loaded = query.data?.settings;
  const errors = useFormErrors(form, {
    ns: 'portforward',
    nameOf: (field) => (FIELDS.includes(field as keyof PortforwardSettings) ? [field] : undefined),
    describe: ({ code, params }) => (isIssueCode(code) ? issueText(t, { code, params }) : undefined),
  });

  const save: SaveHandler = async (saved) => {
    if (!loaded) return;
    const values = form.getFieldsValue() as PortforwardSettings;
    const changes: Partial<PortforwardSettings> = {};
    for (const f of FIELDS) if (values[f] !== loaded[f]) Object.assign(changes, { [f]: values[f] });
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    await saveSettings(changes);
    saved(t('portforward.settingsSaved'));
    await qc.invalidateQueries({ queryKey: pfKeys.all });
    onClose();
  };

  // No min / max on the input (it would move an entry to the bound unseen): the rules refuse it.
  const num = (suffix?: string) => <InputNumber<number> precision={0} suffix={suffix} style={{ width: 180 }} />;

  return (
    <FormDialog<PortforwardSettings>
      open={open}
      title={t('portforward.settingsTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="pf-settings"
      width={760}
      labelWidth={230}
      load={{
        ready: !!loaded,
        pending: query.isPending,
        error: query.isError ? { title: t('portforward.loadError') } : undefined,
      }}
      name="pfSettings"
      initialValues={loaded}
    >
      <Form.Item
        name="enabled"
        label={t('portforward.moduleSwitch')}
        valuePropName="checked"
        extra={t('portforward.moduleSwitchHelp')}
      >
        <Switch data-testid="pf-settings-enabled" />
      </Form.Item>
      <Form.Item
        name="ruleLimit"
        label={t('portforward.ruleLimit')}
        extra={t('portforward.ruleLimitHelp', { used: query.data?.summary.proxies ?? 0 })}
        rules={[rangeRule(t, L.ruleLimit.min, L.ruleLimit.max)]}
      >
        {num()}
      </Form.Item>
      <Form.Item
        name="maxTcpConnections"
        label={t('portforward.globalMaxTcp')}
        extra={t('portforward.globalMaxHelp')}
        rules={[rangeRule(t, L.maxTcpConnections.min, L.maxTcpConnections.max)]}
      >
        {num()}
      </Form.Item>
      <Form.Item
        name="maxUdpSessions"
        label={t('portforward.globalMaxUdp')}
        extra={t('portforward.globalMaxHelp')}
        rules={[rangeRule(t, L.maxUdpSessions.min, L.maxUdpSessions.max)]}
      >
        {num()}
      </Form.Item>
      <Form.Item
        name="perIpMaxConnections"
        label={t('portforward.perIpMax')}
        extra={t('portforward.perIpMaxGlobalHelp')}
        rules={[rangeRule(t, L.perIpMaxConnections.min, L.perIpMaxConnections.max)]}
      >
        {num()}
      </Form.Item>
      <Form.Item
        name="connectionSpeedLimit"
        label={t('portforward.connectionSpeedLimit')}
        extra={t('portforward.connectionSpeedLimitHelp')}
        rules={[speedRule(t)]}
      >
        <SpeedInput />
      </Form.Item>
      <Form.Item
        name="connectTimeoutMs"
        label={t('portforward.connectTimeout')}
        extra={t('portforward.connectTimeoutHelp')}
        rules={[rangeRule(t, L.connectTimeoutMs.min, L.connectTimeoutMs.max)]}
      >
        {num(t('portforward.unitMs'))}
      </Form.Item>
    </FormDialog>
  );
}
