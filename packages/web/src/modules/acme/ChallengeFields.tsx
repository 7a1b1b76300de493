// How the CA checks the names: HTTP-01 (the port the stand-alone responder listens on when no
// web-service rule holds it) or DNS-01 (the provider that writes the TXT record with the same
// credential fields as a DDNS task, its TTL, CNAME delegation and the propagation check).
import { type DdnsProvider, isHostPort, ACME_LIMITS as L } from '@lucky/shared';
import { Form, Input, InputNumber, Radio, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { DnsCredentialFields } from '../../components/dnsProvider/DnsCredentialFields';
import { numberRangeRule } from '../../components/numberRangeRule';
import { TagListInput } from '../../components/TagListInput';

export interface ChallengeFieldsProps {
  /** Providers that can write TXT records (the list answer's `dnsProviders`). */
  providers: readonly string[];
  /** Editing a saved certificate: the provider secret shows masked and is kept unless replaced. */
  secretKept: boolean;
}

const isNameserver = (s: string) => isHostPort(s, false);

export function ChallengeFields({ providers, secretKept }: ChallengeFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const challenge = Form.useWatch('challenge', form) as string | undefined;
  // `preserve`: the provider has no form item until the DNS-01 block shows; its value is there.
  const provider = Form.useWatch(['dns', 'provider'], { form, preserve: true }) as DdnsProvider | undefined;
  const propagationCheck = Form.useWatch(['dns', 'propagationCheck'], form) as boolean | undefined;

  return (
    <>
      <Form.Item
        name="challenge"
        label={t('acme.cert_challenge')}
        extra={t(`acme.cert_challengeHelp_${challenge ?? 'http-01'}`)}
      >
        <Radio.Group
          optionType="button"
          options={[
            { value: 'http-01', label: 'HTTP-01' },
            { value: 'dns-01', label: 'DNS-01' },
          ]}
          data-testid="acme-cert-challenge"
        />
      </Form.Item>
      {challenge !== 'dns-01' && (
        <Form.Item
          name={['http', 'port']}
          label={t('acme.cert_httpPort')}
          extra={t('acme.cert_httpPortHelp')}
          rules={[numberRangeRule(t, L.httpPort.min, L.httpPort.max)]}
        >
          <InputNumber<number> precision={0} style={{ width: 140 }} data-testid="acme-cert-http-port" />
        </Form.Item>
      )}
      {challenge === 'dns-01' && provider && (
        <div data-testid="acme-cert-dns">
          <Form.Item
            name={['dns', 'provider']}
            label={t('acme.cert_dnsProvider')}
            extra={t(`ddns.providerHelp_${provider}`)}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              style={{ maxWidth: 360 }}
              options={providers.map((p) => ({ value: p, label: t(`ddns.provider_${p}`) }))}
              data-testid="acme-cert-provider"
            />
          </Form.Item>
          <DnsCredentialFields prefix={['dns']} provider={provider} secretKept={secretKept} testIdPrefix="acme" />
          <Form.Item
            name={['dns', 'ttl']}
            label={t('acme.cert_txtTtl')}
            rules={[numberRangeRule(t, L.txtTtl.min, L.txtTtl.max)]}
          >
            <InputNumber<number> precision={0} suffix={t('common.secondsShort')} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name={['dns', 'delegateTo']}
            label={t('acme.cert_delegateTo')}
            extra={t('acme.cert_delegateToHelp')}
          >
            <Input
              autoComplete="off"
              className="mono"
              style={{ maxWidth: 420 }}
              placeholder="_acme-challenge.example.net"
              data-testid="acme-cert-delegate"
            />
          </Form.Item>
          <Form.Item label={t('acme.cert_propagation')} extra={t('acme.cert_propagationHelp')}>
            <Space wrap size={[16, 8]}>
              <Form.Item name={['dns', 'propagationCheck']} valuePropName="checked" noStyle>
                <Switch data-testid="acme-cert-propagation" />
              </Form.Item>
              {propagationCheck && (
                <>
                  <Form.Item
                    name={['dns', 'propagationTimeout']}
                    noStyle
                    rules={[numberRangeRule(t, L.propagationTimeout.min, L.propagationTimeout.max)]}
                  >
                    <InputNumber<number>
                      precision={0}
                      prefix={t('acme.cert_propagationTimeout')}
                      suffix={t('common.secondsShort')}
                      style={{ width: 200 }}
                    />
                  </Form.Item>
                  <Form.Item
                    name={['dns', 'propagationInterval']}
                    noStyle
                    rules={[numberRangeRule(t, L.propagationInterval.min, L.propagationInterval.max)]}
                  >
                    <InputNumber<number>
                      precision={0}
                      prefix={t('acme.cert_propagationInterval')}
                      suffix={t('common.secondsShort')}
                      style={{ width: 200 }}
                    />
                  </Form.Item>
                </>
              )}
            </Space>
          </Form.Item>
          {propagationCheck && (
            <Form.Item
              name={['dns', 'nameservers']}
              label={t('acme.cert_nameservers')}
              extra={t('acme.cert_nameserversHelp')}
            >
              <TagListInput isValid={isNameserver} placeholder="192.0.2.53:53" data-testid="acme-cert-nameservers" />
            </Form.Item>
          )}
        </div>
      )}
    </>
  );
}
