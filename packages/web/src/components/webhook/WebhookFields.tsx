// The webhook block of a module's form (a DDNS task and DDNS's global settings now, STUN rules
// next): the switch, ready presets, a "test" button that makes one call with the module's demo
// data, and once switched on the request (TemplateFields), the proxy, the call options and the
// module's variables. The module owns its variables, presets, extra proxy types and options.
import { ApiOutlined } from '@ant-design/icons';
import { WEBHOOK_LIMITS as L, type WebhookPreset } from '@lucky/shared';
import { Button, Checkbox, Dropdown, Form, InputNumber, Space, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { NamePath } from '../../hooks/useFormErrors';
import { numberRangeRule } from '../numberRangeRule';
import { ProxyFields, type ProxyFieldsProps } from './ProxyFields';
import { TemplateFields } from './TemplateFields';
import { applyWebhookPreset, type WebhookFormValues } from './webhookForm';
import './webhook.css';

export interface WebhookFieldsProps {
  /** Where the webhook sits in the form's values. */
  prefix: NamePath;
  /** The module's variables (`#{ipAddr} #{time} …`), shown with the body and under the fields. */
  vars: string;
  /** When the module calls it (under the switch). */
  enabledHelp?: string;
  presets?: readonly WebhookPreset[];
  presetLabel?: (id: string) => string;
  /** The module's own proxy types (no address of their own). */
  moduleProxyTypes?: ProxyFieldsProps['moduleTypes'];
  /** The module's own call options, after the standard ones. */
  options?: ReactNode;
  testing: boolean;
  onTest: () => void;
  /** `<testId>-enabled`, `<testId>-test`, `<testId>-url` name the switch, the button and the URL. */
  testId: string;
}

export function WebhookFields(props: WebhookFieldsProps) {
  const { prefix, vars, enabledHelp, presets = [], presetLabel, moduleProxyTypes, options, testId } = props;
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const n = (...rest: string[]) => [...prefix, ...rest];
  const enabled = Form.useWatch(n('enabled'), form) as boolean | undefined;

  const pickPreset = (id: string) => {
    const current = form.getFieldValue(prefix) as WebhookFormValues;
    form.setFieldValue(
      prefix,
      applyWebhookPreset(
        current,
        presets.find((p) => p.id === id),
      ),
    );
  };

  return (
    <>
      <Form.Item label={t('webhook.enabled')} extra={enabledHelp}>
        <Space wrap>
          <Form.Item name={n('enabled')} valuePropName="checked" noStyle>
            <Switch data-testid={`${testId}-enabled`} />
          </Form.Item>
          {presets.length > 0 && (
            <Dropdown
              menu={{
                items: presets.map((p) => ({ key: p.id, label: presetLabel?.(p.id) ?? p.id })),
                onClick: ({ key }) => pickPreset(key),
              }}
            >
              <Button size="small">{t('webhook.presets')}</Button>
            </Dropdown>
          )}
          <Button
            size="small"
            icon={<ApiOutlined />}
            loading={props.testing}
            onClick={props.onTest}
            data-testid={`${testId}-test`}
          >
            {t('webhook.test')}
          </Button>
        </Space>
      </Form.Item>
      {enabled && (
        <>
          <TemplateFields
            prefix={prefix}
            urlLabel={t('webhook.url')}
            urlPlaceholder="https://example.com/notify?msg=#{time}"
            headersHelp={t('webhook.headersHelp')}
            bodyHelp={t('webhook.bodyHelp')}
            testId={testId}
          />
          <ProxyFields prefix={n('proxy')} moduleTypes={moduleProxyTypes} />
          <Form.Item label={t('webhook.callOptions')}>
            <Space wrap size={[16, 8]}>
              <Form.Item name={n('timeout')} noStyle rules={[numberRangeRule(t, L.timeout.min, L.timeout.max)]}>
                <InputNumber<number>
                  precision={0}
                  prefix={t('webhook.timeout')}
                  suffix={t('common.secondsShort')}
                  style={{ width: 200 }}
                />
              </Form.Item>
              <Form.Item name={n('retries')} noStyle rules={[numberRangeRule(t, L.retries.min, L.retries.max)]}>
                <InputNumber<number> precision={0} prefix={t('webhook.retries')} style={{ width: 150 }} />
              </Form.Item>
              <Form.Item name={n('skipCertCheck')} valuePropName="checked" noStyle>
                <Checkbox>{t('webhook.skipCertCheck')}</Checkbox>
              </Form.Item>
              {options}
            </Space>
          </Form.Item>
          <Typography.Paragraph type="secondary" className="webhook-vars">
            {t('webhook.vars', { vars })}
          </Typography.Paragraph>
        </>
      )}
    </>
  );
}
