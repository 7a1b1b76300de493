// Router port mapping: ask the upstream router to map the local port too, by UPnP IGD (gateway
// found by SSDP, or picked from a discovery) and / or NAT-PMP / PCP, with one lease for both.
import { SearchOutlined } from '@ant-design/icons';
import { STUN_LIMITS as L, NATPMP_METHODS, type StunGatewaysResponse } from '@lucky/shared';
import { AutoComplete, Button, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchGateways } from './api';
import { errorText } from './errors';
import { fieldRule, rangeRule } from './validators';

type Gateway = StunGatewaysResponse['gateways'][number];

export function PortMapFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const upnp = Form.useWatch('upnp', form) as boolean | undefined;
  const natpmp = Form.useWatch('natpmp', form) as boolean | undefined;
  const [gateways, setGateways] = useState<Gateway[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [searchError, setSearchError] = useState<string>();

  /** SSDP from the rule's channel address when it has one, so the gateway of that network answers. */
  const discover = async () => {
    setSearching(true);
    setSearchError(undefined);
    try {
      const ip = form.getFieldValue('channelMode') === 'ip' ? String(form.getFieldValue('channelIp') ?? '') : '';
      const r = await fetchGateways(ip.trim());
      setGateways(r.gateways);
    } catch (err) {
      setGateways(null);
      setSearchError(errorText(err, t));
    } finally {
      setSearching(false);
    }
  };

  return (
    <>
      <Form.Item name="upnp" label={t('stun.upnp')} valuePropName="checked" extra={t('stun.upnpHelp')}>
        <Switch data-testid="stun-upnp" />
      </Form.Item>
      <Form.Item
        label={t('stun.upnpGateway')}
        hidden={!upnp}
        extra={
          searchError ? (
            <Typography.Text type="danger">{searchError}</Typography.Text>
          ) : gateways ? (
            t('stun.gatewaysFound', { count: gateways.length })
          ) : (
            t('stun.upnpGatewayHelp')
          )
        }
      >
        <Space.Compact style={{ width: '100%', maxWidth: 560 }}>
          <Form.Item name="upnpGateway" noStyle rules={[fieldRule(t, ['upnpGateway'])]}>
            <AutoComplete
              allowClear
              placeholder={t('stun.gatewayAuto')}
              className="mono"
              options={(gateways ?? []).map((g) => ({
                value: g.location,
                label: (
                  <span className="stun-option">
                    <span>{g.name || g.location}</span>
                    <Typography.Text type="secondary" className="mono">
                      {g.externalAddress ? `${g.externalAddress} · ${g.location}` : g.location}
                    </Typography.Text>
                  </span>
                ),
              }))}
              aria-label={t('stun.upnpGateway')}
              data-testid="stun-upnp-gateway"
            />
          </Form.Item>
          <Button
            icon={<SearchOutlined />}
            loading={searching}
            onClick={() => void discover()}
            data-testid="stun-discover"
          >
            {t('stun.discover')}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Form.Item name="natpmp" label={t('stun.natpmp')} valuePropName="checked" extra={t('stun.natpmpHelp')}>
        <Switch data-testid="stun-natpmp" />
      </Form.Item>
      <Form.Item name="natpmpMethod" label={t('stun.natpmpMethod')} hidden={!natpmp}>
        <Select
          style={{ width: 220 }}
          options={NATPMP_METHODS.map((m) => ({ value: m, label: t(`stun.natpmpMethod_${m}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="natpmpGateway"
        label={t('stun.natpmpGateway')}
        hidden={!natpmp}
        extra={t('stun.natpmpGatewayHelp')}
        rules={[fieldRule(t, ['natpmpGateway'])]}
      >
        <Input placeholder={t('stun.gatewayDefaultRoute')} className="mono" style={{ maxWidth: 360 }} allowClear />
      </Form.Item>
      <Form.Item
        name="leaseSec"
        label={t('stun.lease')}
        hidden={!upnp && !natpmp}
        extra={t('stun.leaseHelp')}
        rules={[rangeRule(t, L.leaseSec)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.secondsShort')} style={{ width: 180 }} />
      </Form.Item>
    </>
  );
}
