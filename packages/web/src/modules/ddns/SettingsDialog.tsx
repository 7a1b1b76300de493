// Global settings of the module: service switch, first-check delay, detection interval, the
// user's multi-level suffixes and the global webhook. A refused value lands on its field.
import { DDNS_BUILTIN_SUFFIXES, type DdnsSettings, ddnsWebhookTestSchema, DDNS_LIMITS as L } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Divider, Form, Input, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, queryLoad, type SaveHandler } from '../../components/form/FormDialog';
import { joinLines, splitLines } from '../../components/LinesInput';
import { useWebhookTest } from '../../components/webhook/useWebhookTest';
import { testProblems } from '../../components/webhook/webhookForm';
import { useFormErrors } from '../../hooks/useFormErrors';
import { ddnsKeys, fetchSettings, saveSettings, testWebhook } from './api';
import { DdnsWebhookFields } from './DdnsWebhookFields';
import { errorText, isIssueCode, issueText, rangeRule } from './errors';
import { type DdnsWebhookValues, ddnsWebhookToValues, formFieldOf, valuesToDdnsWebhook } from './taskForm';

export interface SettingsDialogProps {
  open: boolean;
  onClose: () => void;
}

interface SettingsFormValues {
  enabled: boolean;
  firstCheckDelay: number;
  interval: number;
  multiLevelSuffixes: string;
  webhook: DdnsWebhookValues;
}

const SETTINGS_FIELDS = ['enabled', 'firstCheckDelay', 'interval', 'multiLevelSuffixes', 'webhook'];

const toValues = (s: DdnsSettings): SettingsFormValues => ({
  enabled: s.enabled,
  firstCheckDelay: s.firstCheckDelay,
  interval: s.interval,
  multiLevelSuffixes: joinLines(s.multiLevelSuffixes),
  webhook: ddnsWebhookToValues(s.webhook),
});

export function SettingsDialog({ open, onClose }: SettingsDialogProps) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<SettingsFormValues>();
  const webhookTest = useWebhookTest('ddns');
  const query = useQuery({
    queryKey: ddnsKeys.settings,
    queryFn: ({ signal }) => fetchSettings(signal),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
  });
  const loaded = query.data?.settings;

  const errors = useFormErrors(form, {
    ns: 'ddns',
    nameOf: (field) => {
      const name = formFieldOf(field);
      return name.length > 0 && SETTINGS_FIELDS.includes(String(name[0])) ? name : undefined;
    },
    describe: ({ code, params, field = '' }) => (isIssueCode(code) ? issueText(t, { code, params }, field) : undefined),
    // The webhook's fields show once it is switched on.
    reveal: (names) => {
      if (names.some((n) => n[0] === 'webhook')) form.setFieldValue(['webhook', 'enabled'], true);
    },
  });

  const current = (): SettingsFormValues => ({ ...(loaded && toValues(loaded)), ...form.getFieldsValue(true) });

  const save: SaveHandler = async (saved) => {
    if (!loaded) return;
    const v = current();
    const body: Partial<DdnsSettings> = {
      enabled: v.enabled,
      firstCheckDelay: v.firstCheckDelay,
      interval: v.interval,
      multiLevelSuffixes: splitLines(v.multiLevelSuffixes),
      webhook: valuesToDdnsWebhook(v.webhook),
    };
    await saveSettings(body);
    saved(t('ddns.settingsSaved'));
    await qc.invalidateQueries({ queryKey: ddnsKeys.all });
    onClose();
  };

  const runWebhookTest = () => {
    const webhook = valuesToDdnsWebhook(current().webhook);
    const issues = testProblems(ddnsWebhookTestSchema, webhook, 'webhook.');
    if (issues.length > 0) {
      errors.show(issues);
      return;
    }
    void webhookTest.run(() => testWebhook(webhook, ''));
  };

  return (
    <FormDialog<SettingsFormValues>
      open={open}
      title={t('ddns.settingsTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="ddns-settings"
      width={860}
      labelWidth={180}
      className="ddns-settings-dialog"
      load={queryLoad(query, (err) => ({ title: t('ddns.loadError'), description: errorText(err, t) }))}
      name="ddnsSettings"
      initialValues={loaded && toValues(loaded)}
      after={webhookTest.resultModal}
    >
      <Form.Item
        name="enabled"
        label={t('ddns.serviceSwitch')}
        valuePropName="checked"
        extra={t('ddns.serviceSwitchHelp')}
      >
        <Switch data-testid="ddns-settings-enabled" />
      </Form.Item>
      <Form.Item
        name="firstCheckDelay"
        label={t('ddns.firstCheckDelay')}
        extra={t('ddns.firstCheckDelayHelp')}
        rules={[rangeRule(t, L.firstCheckDelay, 'err_rangeFirstCheckDelay')]}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.secondsShort')}
          style={{ width: 180 }}
          data-testid="ddns-settings-delay"
        />
      </Form.Item>
      <Form.Item
        name="interval"
        label={t('ddns.interval')}
        extra={t('ddns.intervalHelp')}
        rules={[rangeRule(t, L.interval, 'err_rangeInterval')]}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.secondsShort')}
          style={{ width: 180 }}
          data-testid="ddns-settings-interval"
        />
      </Form.Item>
      <Form.Item
        name="multiLevelSuffixes"
        label={t('ddns.suffixes')}
        extra={t('ddns.suffixesHelp', { list: DDNS_BUILTIN_SUFFIXES.slice(0, 8).join(', ') })}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} className="mono" placeholder={'dynv6.net\nddns.net'} />
      </Form.Item>
      <Divider titlePlacement="start" className="ddns-section">
        {t('ddns.globalWebhook')}
      </Divider>
      <DdnsWebhookFields
        taskProxy={false}
        testing={webhookTest.testing}
        onTest={runWebhookTest}
        testId="ddns-settings-webhook"
      />
    </FormDialog>
  );
}
