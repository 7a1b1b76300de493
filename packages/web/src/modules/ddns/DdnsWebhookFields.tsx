// DDNS's webhook block (a task's and the global one): the core's webhook form with DDNS's
// variables and presets, the proxy type `dns` (the task's provider proxy, tasks only) and the
// option to call it when getting the IP failed.
import { DDNS_WEBHOOK_PRESETS } from '@lucky/shared';
import { Checkbox, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { WebhookFields } from '../../components/webhook/WebhookFields';

const WEBHOOK_VARS =
  '#{ipAddr} #{time} #{timestamp} #{taskName} #{recordType} #{successDomains} #{failedDomains} #{successDomainsLine} #{failedDomainsLine}';

export interface DdnsWebhookFieldsProps {
  /** Offer the `dns` proxy type (the task's provider proxy). */
  taskProxy: boolean;
  testing: boolean;
  onTest: () => void;
  testId: string;
}

export function DdnsWebhookFields({ taskProxy, testing, onTest, testId }: DdnsWebhookFieldsProps) {
  const { t } = useTranslation();
  return (
    <WebhookFields
      prefix={['webhook']}
      vars={WEBHOOK_VARS}
      enabledHelp={t('ddns.webhookEnabledHelp')}
      presets={DDNS_WEBHOOK_PRESETS}
      presetLabel={(id) => t(`ddns.webhookPreset_${id}`)}
      moduleProxyTypes={taskProxy ? [{ value: 'dns', label: t('ddns.proxy_dns') }] : []}
      options={
        <Form.Item name={['webhook', 'callOnIpFail']} valuePropName="checked" noStyle>
          <Checkbox>{t('ddns.callOnIpFail')}</Checkbox>
        </Form.Item>
      }
      testing={testing}
      onTest={onTest}
      testId={testId}
    />
  );
}
