// Limits of the built-in forwarding: connections in all and per client address, and how long a
// quiet UDP session is kept (hidden, but kept in the form, when the rule has no UDP mapping).
import { STUN_LIMITS as L } from '@lucky/shared';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { rangeRule } from './validators';

export function LimitsFields({ udp, tcp = true }: { udp: boolean; tcp?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="maxConnections"
        label={t('stun.maxConnections')}
        extra={t('stun.maxConnectionsHelp')}
        rules={[rangeRule(t, L.maxConnections)]}
      >
        <InputNumber<number> precision={0} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name="perIpMaxConnections"
        label={t('stun.perIpMax')}
        extra={t('stun.perIpMaxHelp')}
        rules={[rangeRule(t, L.perIpMaxConnections)]}
      >
        <InputNumber<number> precision={0} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name="tcpIdleTimeoutMs"
        label={t('stun.tcpIdleTimeout')}
        hidden={!tcp}
        extra={t('stun.tcpIdleTimeoutHelp')}
        rules={[rangeRule(t, L.tcpIdleTimeoutMs)]}
      >
        <InputNumber<number> precision={0} suffix={t('stun.unitMs')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name="udpTimeoutMs"
        label={t('stun.udpTimeout')}
        hidden={!udp}
        extra={t('stun.udpTimeoutHelp')}
        rules={[rangeRule(t, L.udpTimeoutMs)]}
      >
        <InputNumber<number> precision={0} suffix={t('stun.unitMs')} style={{ width: 180 }} />
      </Form.Item>
    </>
  );
}
