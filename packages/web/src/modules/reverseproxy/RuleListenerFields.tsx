// The listener part of the rule form: name, switch, protocols, network type
// (address family), address and port, the peers that send a PROXY protocol
// header, HTTP/2 without TLS (h2c) for the plain side, and the HTTPS options
// (minimum TLS version, HTTP/2, HTTP/3).
import {
  isCidrOrIp,
  LISTEN_TYPES,
  NETWORK_TYPES,
  type NetworkType,
  REVERSEPROXY_LIMITS,
  TLS_MIN_VERSIONS,
} from '@lucky/shared';
import { Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { TagListInput } from '../../components/TagListInput';
import { checkAddress } from './ruleForm';
import { checkCidrList } from './serviceForm';
import { issueRule, rangeRule } from './validators';

const unbracket = (s: string) => s.replace(/^\[(.*)\]$/, '$1');

export function RuleListenerFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const types = Form.useWatch('listenTypes', form) ?? 'http';
  const tls = types !== 'http';
  const plain = types !== 'https';
  return (
    <>
      <Form.Item
        name="name"
        label={t('reverseproxy.name')}
        rules={[
          {
            max: REVERSEPROXY_LIMITS.name.max,
            message: t('reverseproxy.err_tooLong', { max: REVERSEPROXY_LIMITS.name.max }),
          },
        ]}
      >
        <Input
          placeholder={t('reverseproxy.namePlaceholder')}
          maxLength={REVERSEPROXY_LIMITS.name.max}
          allowClear
          style={{ maxWidth: 360 }}
          data-testid="rp-rule-name"
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('reverseproxy.ruleSwitch')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="listenTypes" label={t('reverseproxy.listenTypes')} extra={t(`reverseproxy.listenHelp_${types}`)}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={LISTEN_TYPES.map((x) => ({ value: x, label: t(`reverseproxy.listen_${x}`) }))}
          data-testid="rp-listen-types"
        />
      </Form.Item>
      <Form.Item name="network" label={t('reverseproxy.network')} extra={t('reverseproxy.networkHelp')}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={NETWORK_TYPES.map((x) => ({ value: x, label: t(`reverseproxy.network_${x}`) }))}
          data-testid="rp-network"
        />
      </Form.Item>
      <Form.Item
        name="address"
        label={t('reverseproxy.address')}
        extra={t('reverseproxy.addressHelp')}
        dependencies={['network']}
        rules={[issueRule(t, (v, get) => checkAddress(v as string, get('network') as NetworkType))]}
        normalize={(v: string) => unbracket(v.trim())}
      >
        <Input
          placeholder={t('reverseproxy.anyAddress')}
          allowClear
          className="mono"
          style={{ maxWidth: 360 }}
          data-testid="rp-address"
        />
      </Form.Item>
      <Form.Item name="port" label={t('reverseproxy.port')} required rules={[rangeRule(t, 1, 65535)]}>
        <InputNumber<number> precision={0} style={{ width: 160 }} data-testid="rp-port" />
      </Form.Item>
      <Form.Item
        name="firewallAutoAllow"
        label={t('reverseproxy.firewallAutoAllow')}
        valuePropName="checked"
        extra={t('reverseproxy.firewallAutoAllowHelp')}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name="proxyProtocolFrom"
        label={t('reverseproxy.proxyProtocolFrom')}
        extra={t('reverseproxy.proxyProtocolFromHelp')}
        rules={[issueRule(t, (v) => checkCidrList(v as string[]))]}
      >
        <TagListInput
          placeholder={t('reverseproxy.proxyProtocolFromPlaceholder')}
          isValid={isCidrOrIp}
          data-testid="rp-proxy-protocol-from"
        />
      </Form.Item>
      <Form.Item name="minTlsVersion" label={t('reverseproxy.minTlsVersion')} hidden={!tls}>
        <Select style={{ width: 160 }} options={TLS_MIN_VERSIONS.map((v) => ({ value: v, label: v }))} />
      </Form.Item>
      <Form.Item
        name="http2"
        label={t('reverseproxy.http2')}
        hidden={!tls}
        valuePropName="checked"
        extra={t('reverseproxy.http2Help')}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name="h2c"
        label={t('reverseproxy.h2c')}
        hidden={!plain}
        valuePropName="checked"
        extra={t('reverseproxy.h2cHelp')}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name="http3"
        label={t('reverseproxy.http3')}
        hidden={!tls}
        valuePropName="checked"
        extra={t('reverseproxy.http3Help')}
      >
        <Switch />
      </Form.Item>
    </>
  );
}
