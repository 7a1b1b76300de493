// The everyday part of the rule form: name, switch, penetration type, local port, where the
// traffic is forwarded to (or that the box only keeps the mapping), and the firewall opening.
import { STUN_LIMITS as L, STUN_PROTOCOLS } from '@lucky/shared';
import { Alert, Checkbox, Form, Input, InputNumber, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldRule, rangeRule } from './validators';

export function BasicFields({ otherNames }: { otherNames: readonly string[] }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const noForwarding = Form.useWatch('disableForwarding', form) as boolean | undefined;
  return (
    <>
      <Form.Item name="name" label={t('stun.name')} required rules={[fieldRule(t, ['name'], otherNames)]}>
        <Input
          placeholder={t('stun.namePlaceholder')}
          maxLength={L.name.max}
          allowClear
          style={{ maxWidth: 360 }}
          data-testid="stun-rule-name"
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('stun.ruleSwitch')} valuePropName="checked">
        <Switch data-testid="stun-rule-enabled" />
      </Form.Item>
      <Form.Item
        name="protocols"
        label={t('stun.protocols')}
        required
        extra={t('stun.protocolsHelp')}
        rules={[fieldRule(t, ['protocols'])]}
      >
        <Checkbox.Group
          options={STUN_PROTOCOLS.map((p) => ({ value: p, label: p.toUpperCase() }))}
          data-testid="stun-protocols"
        />
      </Form.Item>
      <Form.Item
        name="localPort"
        label={t('stun.localPort')}
        extra={t('stun.localPortHelp')}
        rules={[rangeRule(t, { min: 0, max: 65535 })]}
      >
        <InputNumber<number> precision={0} style={{ width: 180 }} data-testid="stun-local-port" />
      </Form.Item>
      <Form.Item label={t('stun.target')} required extra={t('stun.targetHelp')}>
        <Space.Compact>
          <Form.Item name="targetAddress" noStyle rules={[fieldRule(t, ['targetAddress'])]}>
            <Input
              placeholder={t('stun.targetAddressPlaceholder')}
              className="mono"
              style={{ width: 240 }}
              aria-label={t('stun.targetAddress')}
              data-testid="stun-target-address"
            />
          </Form.Item>
          <Form.Item name="targetPort" noStyle rules={[rangeRule(t, { min: 1, max: 65535 })]}>
            <InputNumber<number>
              precision={0}
              placeholder={t('stun.targetPort')}
              style={{ width: 120 }}
              aria-label={t('stun.targetPort')}
              data-testid="stun-target-port"
            />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item
        name="disableForwarding"
        label={t('stun.disableForwarding')}
        valuePropName="checked"
        extra={noForwarding ? undefined : t('stun.disableForwardingHelp')}
      >
        <Switch data-testid="stun-disable-forwarding" />
      </Form.Item>
      {noForwarding && (
        <Alert
          type="info"
          showIcon
          className="stun-form-note"
          title={t('stun.forwardingOffNote')}
          data-testid="stun-forwarding-off-note"
        />
      )}
      <Form.Item
        name="autoWhitelist"
        label={t('stun.autoWhitelist')}
        valuePropName="checked"
        extra={t('stun.autoWhitelistHelp')}
      >
        <Switch data-testid="stun-auto-whitelist" />
      </Form.Item>
    </>
  );
}
