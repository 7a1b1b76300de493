// Advanced: connection and session limits, speed limits, UDP session settings.
// Fields of a protocol the rule does not forward stay in the form (hidden), so
// their values are kept and sent.
import { type ForwardType, PORTFORWARD_LIMITS as L } from '@lucky/shared';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasTcp, hasUdp } from './ruleForm';
import { SpeedInput } from './SpeedInput';
import { rangeRule, speedRule } from './validators';

export function RuleLimitsFields({ types }: { types: ForwardType[] }) {
  const { t } = useTranslation();
  const tcp = hasTcp(types);
  const udp = hasUdp(types);
  // No min / max on the input (it would move an entry to the bound unseen): the rules refuse it.
  const num = (suffix?: string) => <InputNumber<number> precision={0} suffix={suffix} style={{ width: 180 }} />;
  return (
    <>
      <Form.Item
        name="maxTcpConnections"
        label={t('portforward.maxTcpConnections')}
        hidden={!tcp}
        extra={t('portforward.maxTcpConnectionsHelp')}
        rules={[rangeRule(t, L.ruleMaxTcpConnections.min, L.ruleMaxTcpConnections.max)]}
      >
        {num()}
      </Form.Item>
      <Form.Item
        name="maxUdpSessions"
        label={t('portforward.maxUdpSessions')}
        hidden={!udp}
        extra={t('portforward.maxUdpSessionsHelp')}
        rules={[rangeRule(t, L.ruleMaxUdpSessions.min, L.ruleMaxUdpSessions.max)]}
      >
        {num()}
      </Form.Item>
      <Form.Item
        name="perIpMaxConnections"
        label={t('portforward.perIpMax')}
        extra={t('portforward.perIpMaxRuleHelp')}
        rules={[rangeRule(t, L.rulePerIpMaxConnections.min, L.rulePerIpMaxConnections.max)]}
      >
        {num()}
      </Form.Item>
      <Form.Item
        name="tcpIdleTimeoutMs"
        label={t('portforward.tcpIdleTimeout')}
        hidden={!tcp}
        extra={t('portforward.tcpIdleTimeoutHelp')}
        rules={[rangeRule(t, L.tcpIdleTimeoutMs.min, L.tcpIdleTimeoutMs.max)]}
      >
        {num(t('portforward.unitMs'))}
      </Form.Item>
      <Form.Item
        name="speedLimitIn"
        label={t('portforward.speedLimitIn')}
        extra={t('portforward.speedLimitInHelp')}
        rules={[speedRule(t)]}
      >
        <SpeedInput data-testid="pf-speed-in" />
      </Form.Item>
      <Form.Item
        name="speedLimitOut"
        label={t('portforward.speedLimitOut')}
        extra={t('portforward.speedLimitOutHelp')}
        rules={[speedRule(t)]}
      >
        <SpeedInput data-testid="pf-speed-out" />
      </Form.Item>
      <Form.Item
        name="udpTimeoutMs"
        label={t('portforward.udpTimeout')}
        hidden={!udp}
        extra={t('portforward.udpTimeoutHelp')}
        rules={[rangeRule(t, L.udpTimeoutMs.min, L.udpTimeoutMs.max)]}
      >
        {num(t('portforward.unitMs'))}
      </Form.Item>
      <Form.Item
        name="udpPacketSize"
        label={t('portforward.udpPacketSize')}
        hidden={!udp}
        extra={t('portforward.udpPacketSizeHelp')}
        rules={[rangeRule(t, L.udpPacketSize.min, L.udpPacketSize.max)]}
      >
        {num(t('portforward.unitBytes'))}
      </Form.Item>
    </>
  );
}
