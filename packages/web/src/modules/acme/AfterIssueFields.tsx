// What happens after each issue and renewal: export to a folder (file modes), a command, and the
// webhook (the core's form with ACME's variables; also called on failure and coming expiry).
import { ACME_LIMITS as L } from '@lucky/shared';
import { Form, Input, InputNumber, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberRangeRule } from '../../components/numberRangeRule';
import { WebhookFields } from '../../components/webhook/WebhookFields';

/** The variables the module fills in a webhook (docs/ARCHITECTURE.md, "ACME"). */
export const ACME_WEBHOOK_VARS = '#{event} #{name} #{names} #{notAfter} #{reason}';

export interface AcmeWebhookFieldsProps {
  testing: boolean;
  onTestWebhook: () => void;
}

export function ExportFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const on = Form.useWatch(['export', 'enabled'], form) as boolean | undefined;
  return (
    <>
      <Form.Item
        name={['export', 'enabled']}
        label={t('acme.cert_export')}
        valuePropName="checked"
        extra={t('acme.cert_exportHelp')}
      >
        <Switch data-testid="acme-cert-export" />
      </Form.Item>
      {on && (
        <>
          <Form.Item name={['export', 'dir']} label={t('acme.cert_exportDir')} required>
            <Input
              className="mono"
              style={{ maxWidth: 420 }}
              placeholder="/etc/ssl/lucky/home"
              data-testid="acme-cert-export-dir"
            />
          </Form.Item>
          <Form.Item label={t('acme.cert_fileModes')} extra={t('acme.cert_fileModesHelp')}>
            <Space wrap>
              <Form.Item name={['export', 'certMode']} noStyle>
                <Input prefix={t('acme.cert_certMode')} className="mono" maxLength={3} style={{ width: 170 }} />
              </Form.Item>
              <Form.Item name={['export', 'keyMode']} noStyle>
                <Input prefix={t('acme.cert_keyMode')} className="mono" maxLength={3} style={{ width: 170 }} />
              </Form.Item>
            </Space>
          </Form.Item>
        </>
      )}
    </>
  );
}

export function CommandFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="command" label={t('acme.cert_command')} extra={t('acme.cert_commandHelp')}>
        <Input.TextArea
          autoSize={{ minRows: 1, maxRows: 6 }}
          className="mono"
          placeholder="systemctl reload nginx"
          data-testid="acme-cert-command"
        />
      </Form.Item>
      <Form.Item
        name="commandTimeout"
        label={t('acme.cert_commandTimeout')}
        rules={[numberRangeRule(t, L.commandTimeout.min, L.commandTimeout.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.secondsShort')} style={{ width: 160 }} />
      </Form.Item>
    </>
  );
}

export function AcmeWebhookFields({ testing, onTestWebhook }: AcmeWebhookFieldsProps) {
  const { t } = useTranslation();
  return (
    <WebhookFields
      prefix={['webhook']}
      vars={ACME_WEBHOOK_VARS}
      enabledHelp={t('acme.cert_webhookHelp')}
      testing={testing}
      onTest={onTestWebhook}
      testId="acme-cert-webhook"
    />
  );
}
