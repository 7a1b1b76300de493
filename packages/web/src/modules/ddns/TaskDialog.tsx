// Add or edit a task, in easy mode (what most users need) or customized mode (every field).
// The form runs the server's own check before sending; a refusal from the server lands on the
// field it names (switching to customized mode when that field lives there) and the dialog stays.
// The save skips the form's own field rules (formChecks off): the server's check covers every
// field and reveals the ones a mode or switch hides.
import {
  DDNS_CALLBACK_PRESETS,
  DDNS_PROVIDER_INFO,
  DDNS_PROVIDERS,
  type DdnsProvider,
  type DdnsTaskView,
  ddnsWebhookTestSchema,
  DDNS_LIMITS as L,
} from '@lucky/shared';
import { Alert, Divider, Form, Input, InputNumber, Radio, Segmented, Select, Space, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DnsCredentialFields } from '../../components/dnsProvider/DnsCredentialFields';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { numberRangeRule } from '../../components/numberRangeRule';
import { ProxyFields } from '../../components/webhook/ProxyFields';
import { TemplateFields } from '../../components/webhook/TemplateFields';
import { useWebhookTest } from '../../components/webhook/useWebhookTest';
import { testProblems } from '../../components/webhook/webhookForm';
import { type Failure, type NamePath, useFormErrors } from '../../hooks/useFormErrors';
import { createTask, testWebhook, updateTask } from './api';
import { DdnsWebhookFields } from './DdnsWebhookFields';
import { isIssueCode, issueText, rangeRule } from './errors';
import { IpSourceFields } from './IpSourceFields';
import {
  applyCallbackPreset,
  checkTaskInput,
  formFieldOf,
  isCustomizedField,
  lineOf,
  newTaskValues,
  type TaskFormValues,
  taskToValues,
  urlsForRecordType,
  valuesToDdnsWebhook,
  valuesToInput,
} from './taskForm';

export interface TaskDialogProps {
  open: boolean;
  /** The task to edit (as listed when the dialog opened); absent = add. */
  task?: DdnsTaskView;
  onClose: () => void;
  onSaved: (task: DdnsTaskView) => void;
}

const CALLBACK_VARS = '#{ip} #{domain} #{sub} #{root} #{recordType} #{ttl} #{id} #{secret}';

export function TaskDialog({ open, task, onClose, onSaved }: TaskDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TaskFormValues>();
  const [initial] = useState<TaskFormValues>(() => (task ? taskToValues(task) : newTaskValues()));
  const mode = Form.useWatch('mode', form) ?? initial.mode;
  const provider = (Form.useWatch(['dns', 'provider'], form) ?? initial.dns.provider) as DdnsProvider;
  const recordType = Form.useWatch('recordType', form) ?? initial.recordType;
  const resolverCheck = Form.useWatch('resolverCheck', form);
  const webhookTest = useWebhookTest('ddns');
  const customized = mode === 'customized';
  const errors = useFormErrors(form, {
    ns: 'ddns',
    // List entries (`domains.2`) belong to the text area of their list; the path must be one of the form's.
    nameOf: (field) => {
      const name = formFieldOf(field);
      return name.length > 0 && Object.hasOwn(initial, name[0]) ? name : undefined;
    },
    describe: (f: Failure) => {
      if (!isIssueCode(f.code)) return undefined;
      const field = f.field ?? '';
      const text = issueText(t, { code: f.code, params: f.params }, field);
      const line = lineOf(field);
      return line ? t('ddns.onLine', { line, text }) : text;
    },
    // The fields of customized mode, the webhook and the resolver list show with their mode or switch.
    reveal: (names: NamePath[]) => {
      if (names.some((n) => isCustomizedField(n))) form.setFieldValue('mode', 'customized');
      if (names.some((n) => n[0] === 'webhook')) form.setFieldValue(['webhook', 'enabled'], true);
      if (names.some((n) => n[0] === 'dnsServers')) form.setFieldValue('resolverCheck', true);
    },
  });

  const currentValues = (): TaskFormValues => ({ ...initial, ...form.getFieldsValue(true) });

  const save: SaveHandler = async (saved) => {
    const input = valuesToInput(currentValues());
    const issues = checkTaskInput(input);
    if (issues.length > 0) return issues;
    const reply = task ? await updateTask(task.key, input) : await createTask(input);
    saved(t(task ? 'ddns.taskSaved' : 'ddns.taskAdded'));
    onSaved(reply.task);
  };

  const runWebhookTest = () => {
    const webhook = valuesToDdnsWebhook(currentValues().webhook);
    const issues = testProblems(ddnsWebhookTestSchema, webhook, 'webhook.');
    if (issues.length > 0) {
      errors.show(issues);
      return;
    }
    void webhookTest.run(() => testWebhook(webhook, task?.key ?? ''));
  };

  const onValuesChange = (changed: Partial<TaskFormValues>) => {
    if (changed.recordType) {
      form.setFieldValue(
        ['ipSource', 'urls'],
        urlsForRecordType(form.getFieldValue(['ipSource', 'urls']), changed.recordType),
      );
      const preset = form.getFieldValue(['dns', 'callback', 'preset']) as string;
      if (preset && preset !== 'other')
        form.setFieldValue(
          ['dns', 'callback'],
          applyCallbackPreset(form.getFieldValue(['dns', 'callback']), preset, changed.recordType),
        );
    }
  };

  const info = DDNS_PROVIDER_INFO[provider];

  return (
    <FormDialog<TaskFormValues>
      open={open}
      title={task ? t('ddns.editTask') : t('ddns.addTask')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      formChecks={false}
      testId="ddns-task"
      width={920}
      labelWidth={160}
      className="ddns-task-dialog"
      name="ddnsTask"
      initialValues={initial}
      formProps={{ onValuesChange }}
      after={webhookTest.resultModal}
    >
      <Form.Item
        name="mode"
        label={t('ddns.mode')}
        extra={t(customized ? 'ddns.modeCustomizedHelp' : 'ddns.modeEasyHelp')}
      >
        <Segmented
          options={[
            { value: 'easy', label: t('ddns.mode_easy') },
            { value: 'customized', label: t('ddns.mode_customized') },
          ]}
          data-testid="ddns-mode"
        />
      </Form.Item>

      <Divider titlePlacement="start" className="ddns-section">
        {t('ddns.sectionBasic')}
      </Divider>
      <Form.Item label={t('ddns.name')}>
        <Space wrap>
          <Form.Item name="name" noStyle>
            <Input
              placeholder={t('ddns.namePlaceholder')}
              maxLength={L.name.max}
              style={{ width: 260 }}
              data-testid="ddns-name"
            />
          </Form.Item>
          <Form.Item name="enabled" valuePropName="checked" noStyle>
            <Switch checkedChildren={t('common.enabled')} unCheckedChildren={t('common.disabled')} />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item name="recordType" label={t('ddns.recordType')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'A', label: t('ddns.recordA') },
            { value: 'AAAA', label: t('ddns.recordAAAA') },
          ]}
          data-testid="ddns-record-type"
        />
      </Form.Item>
      <Form.Item name={['dns', 'provider']} label={t('ddns.provider')} extra={t(`ddns.providerHelp_${provider}`)}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          style={{ maxWidth: 360 }}
          options={DDNS_PROVIDERS.map((p) => ({ value: p, label: t(`ddns.provider_${p}`) }))}
          data-testid="ddns-provider"
        />
      </Form.Item>
      <DnsCredentialFields prefix={['dns']} provider={provider} secretKept={!!task} testIdPrefix="ddns" />
      {provider === 'callback' && (
        <div className="ddns-callback" data-testid="ddns-callback">
          <Form.Item name={['dns', 'callback', 'preset']} label={t('ddns.callbackPreset')}>
            <Select
              style={{ maxWidth: 360 }}
              placeholder={t('ddns.callbackPresetPlaceholder')}
              onChange={(id: string) =>
                form.setFieldValue(
                  ['dns', 'callback'],
                  applyCallbackPreset(form.getFieldValue(['dns', 'callback']), id, recordType),
                )
              }
              options={[
                ...DDNS_CALLBACK_PRESETS.map((p) => ({ value: p.id, label: t(`ddns.callbackPreset_${p.id}`) })),
                { value: 'other', label: t('ddns.callbackPreset_other') },
              ]}
            />
          </Form.Item>
          <TemplateFields
            prefix={['dns', 'callback']}
            urlLabel={t('ddns.callbackUrl')}
            urlPlaceholder="https://example.com/update?host=#{domain}&ip=#{ip}"
            urlHelp={t('ddns.callbackVars', { vars: CALLBACK_VARS })}
            headersHelp={t('ddns.callbackHeadersHelp')}
          />
        </div>
      )}
      <Form.Item name="domains" label={t('ddns.domains')} required extra={<DomainsHelp />}>
        <Input.TextArea
          autoSize={{ minRows: 3, maxRows: 10 }}
          className="mono"
          placeholder={'nas.example.com\nwww:example.com\n@:example.com?proxied=true'}
          data-testid="ddns-domains"
        />
      </Form.Item>

      <Divider titlePlacement="start" className="ddns-section">
        {t('ddns.sectionIp')}
      </Divider>
      <IpSourceFields recordType={recordType} />

      <Form.Item
        name="ttl"
        label={t('ddns.ttl')}
        extra={t('ddns.ttlHelp', { min: info.minTtl, def: info.defaultTtl })}
        rules={[numberRangeRule(t, L.ttl.min, L.ttl.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.secondsShort')} style={{ width: 180 }} />
      </Form.Item>

      {customized && (
        <>
          <Divider titlePlacement="start" className="ddns-section">
            {t('ddns.sectionSync')}
          </Divider>
          <Form.Item
            name="forceInterval"
            label={t('ddns.forceInterval')}
            extra={t('ddns.forceIntervalHelp')}
            rules={[rangeRule(t, L.forceInterval, 'err_rangeForceInterval')]}
          >
            <InputNumber<number>
              precision={0}
              suffix={t('common.secondsShort')}
              style={{ width: 180 }}
              data-testid="ddns-force-interval"
            />
          </Form.Item>
          <Form.Item
            name="httpTimeout"
            label={t('ddns.httpTimeout')}
            extra={t('ddns.httpTimeoutHelp')}
            rules={[rangeRule(t, L.httpTimeout, 'err_rangeTimeout')]}
          >
            <InputNumber<number> precision={0} suffix={t('common.secondsShort')} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item
            name="resolverCheck"
            label={t('ddns.resolverCheck')}
            valuePropName="checked"
            extra={t('ddns.resolverCheckHelp')}
          >
            <Switch />
          </Form.Item>
          {resolverCheck && (
            <Form.Item name="dnsServers" label={t('ddns.dnsServers')} extra={t('ddns.dnsServersHelp')}>
              <Input.TextArea
                autoSize={{ minRows: 2, maxRows: 6 }}
                className="mono"
                placeholder={'1.1.1.1\n223.5.5.5:53'}
              />
            </Form.Item>
          )}
          <Form.Item name="apiNetwork" label={t('ddns.apiNetwork')} extra={t('ddns.apiNetworkHelp')}>
            <Radio.Group
              optionType="button"
              options={(['auto', 'ipv4', 'ipv6'] as const).map((x) => ({ value: x, label: t(`ddns.network_${x}`) }))}
            />
          </Form.Item>
          <ProxyFields prefix={['proxy']} extra={t('ddns.proxyHelp')} />

          <Divider titlePlacement="start" className="ddns-section">
            {t('webhook.title')}
          </Divider>
          <DdnsWebhookFields
            taskProxy
            testing={webhookTest.testing}
            onTest={runWebhookTest}
            testId="ddns-task-webhook"
          />
        </>
      )}
      {!customized && <Alert type="info" showIcon className="ddns-easy-note" title={t('ddns.easyNote')} />}
    </FormDialog>
  );
}

function DomainsHelp() {
  const { t } = useTranslation();
  return (
    <div className="ddns-help">
      <div>{t('ddns.domainsHelp1')}</div>
      <div>{t('ddns.domainsHelp2')}</div>
      <div>{t('ddns.domainsHelp3')}</div>
    </div>
  );
}
