// The webhook block of the task dialog and of the global settings: switch, presets, URL,
// method, headers, body, success strings, proxy, certificate check, time-out, retries, and a
// "test" button that makes one call with demo data.
import { ApiOutlined } from '@ant-design/icons';
import { DDNS_HTTP_METHODS, DDNS_WEBHOOK_PRESETS, DDNS_LIMITS as L, SECRET_MASK } from '@lucky/shared';
import { Button, Checkbox, Dropdown, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberRangeRule } from '../../components/numberRangeRule';
import { rangeRule } from './errors';
import { applyWebhookPreset, type WebhookFormValues } from './taskForm';

export interface WebhookFieldsProps {
  /** Where the webhook sits in the form's values. */
  prefix: string[];
  /** Offer the `dns` proxy type (the task's provider proxy). */
  taskProxy: boolean;
  testing: boolean;
  onTest: () => void;
  testId: string;
}

const WEBHOOK_VARS =
  '#{ipAddr} #{time} #{timestamp} #{taskName} #{recordType} #{successDomains} #{failedDomains} #{successDomainsLine} #{failedDomainsLine}';

export function WebhookFields({ prefix, taskProxy, testing, onTest, testId }: WebhookFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const n = (...rest: string[]) => [...prefix, ...rest];
  const enabled = Form.useWatch(n('enabled'), form) as boolean | undefined;
  const noCheck = Form.useWatch(n('disableSuccessCheck'), form) as boolean | undefined;
  const proxyType = Form.useWatch(n('proxy', 'type'), form) as string | undefined;
  const method = Form.useWatch(n('method'), form) as string | undefined;
  // The server reads stored tokens in the URL, headers and body as the mask and keeps them.
  const url = Form.useWatch(n('url'), form) as string | undefined;
  const masked = typeof url === 'string' && url.includes(SECRET_MASK);
  const proxyTypes = taskProxy ? ['none', 'dns', 'http', 'https', 'socks5'] : ['none', 'http', 'https', 'socks5'];

  const pickPreset = (id: string) => {
    const current = form.getFieldValue(prefix) as WebhookFormValues;
    form.setFieldValue(prefix, applyWebhookPreset(current, id));
  };

  return (
    <>
      <Form.Item label={t('ddns.webhookEnabled')} extra={t('ddns.webhookEnabledHelp')}>
        <Space wrap>
          <Form.Item name={n('enabled')} valuePropName="checked" noStyle>
            <Switch data-testid={`${testId}-enabled`} />
          </Form.Item>
          <Dropdown
            menu={{
              items: DDNS_WEBHOOK_PRESETS.map((p) => ({ key: p.id, label: t(`ddns.webhookPreset_${p.id}`) })),
              onClick: ({ key }) => pickPreset(key),
            }}
          >
            <Button size="small">{t('ddns.webhookPresets')}</Button>
          </Dropdown>
          <Button size="small" icon={<ApiOutlined />} loading={testing} onClick={onTest} data-testid={`${testId}-test`}>
            {t('ddns.testWebhook')}
          </Button>
        </Space>
      </Form.Item>
      {enabled && (
        <>
          <Form.Item
            label={t('ddns.webhookUrl')}
            required
            extra={masked ? t('ddns.secretPartsKeptHelp', { mask: SECRET_MASK }) : undefined}
          >
            <Space.Compact block>
              <Form.Item name={n('method')} noStyle>
                <Select
                  style={{ width: 110 }}
                  options={DDNS_HTTP_METHODS.map((m) => ({ value: m, label: m }))}
                  aria-label={t('ddns.method')}
                />
              </Form.Item>
              <Form.Item name={n('url')} noStyle>
                <Input placeholder="https://example.com/notify?ip=#{ipAddr}" data-testid={`${testId}-url`} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
          <Form.Item name={n('headers')} label={t('ddns.headers')} extra={t('ddns.webhookHeadersHelp')}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder="Content-Type:application/json" />
          </Form.Item>
          {method !== 'GET' && (
            <Form.Item
              name={n('body')}
              label={t('ddns.body')}
              extra={t('ddns.webhookBodyHelp', { vars: WEBHOOK_VARS })}
            >
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} className="mono" />
            </Form.Item>
          )}
          <Form.Item label={t('ddns.successStrings')} extra={t('ddns.successStringsHelp')}>
            <Form.Item name={n('successStrings')} noStyle>
              <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} disabled={noCheck} />
            </Form.Item>
            <Form.Item name={n('disableSuccessCheck')} valuePropName="checked" noStyle>
              <Checkbox className="ddns-inline-check">{t('ddns.disableSuccessCheck')}</Checkbox>
            </Form.Item>
          </Form.Item>
          <Form.Item label={t('ddns.proxy')}>
            <Space wrap>
              <Form.Item name={n('proxy', 'type')} noStyle>
                <Select
                  style={{ width: 170 }}
                  options={proxyTypes.map((x) => ({ value: x, label: t(`ddns.proxy_${x}`) }))}
                />
              </Form.Item>
              {proxyType && !['none', 'dns'].includes(proxyType) && (
                <>
                  <Form.Item name={n('proxy', 'address')} noStyle>
                    <Input placeholder={t('ddns.proxyAddressPlaceholder')} style={{ width: 200 }} />
                  </Form.Item>
                  <Form.Item name={n('proxy', 'user')} noStyle>
                    <Input placeholder={t('ddns.proxyUser')} style={{ width: 140 }} autoComplete="off" />
                  </Form.Item>
                  <Form.Item name={n('proxy', 'password')} noStyle>
                    <Input.Password
                      placeholder={t('ddns.proxyPassword')}
                      style={{ width: 160 }}
                      autoComplete="new-password"
                    />
                  </Form.Item>
                </>
              )}
            </Space>
          </Form.Item>
          <Form.Item label={t('ddns.webhookCall')}>
            <Space wrap size={[16, 8]}>
              <Form.Item name={n('timeout')} noStyle rules={[rangeRule(t, L.httpTimeout, 'err_rangeTimeout')]}>
                <InputNumber<number>
                  precision={0}
                  prefix={t('ddns.clientTimeout')}
                  suffix={t('common.secondsShort')}
                  style={{ width: 200 }}
                />
              </Form.Item>
              <Form.Item
                name={n('retries')}
                noStyle
                rules={[numberRangeRule(t, L.webhookRetries.min, L.webhookRetries.max)]}
              >
                <InputNumber<number> precision={0} prefix={t('ddns.retries')} style={{ width: 150 }} />
              </Form.Item>
              <Form.Item name={n('skipCertCheck')} valuePropName="checked" noStyle>
                <Checkbox>{t('ddns.skipCertCheck')}</Checkbox>
              </Form.Item>
              <Form.Item name={n('callOnIpFail')} valuePropName="checked" noStyle>
                <Checkbox>{t('ddns.callOnIpFail')}</Checkbox>
              </Form.Item>
            </Space>
          </Form.Item>
          <Typography.Paragraph type="secondary" className="ddns-vars">
            {t('ddns.webhookVars', { vars: WEBHOOK_VARS })}
          </Typography.Paragraph>
        </>
      )}
    </>
  );
}
