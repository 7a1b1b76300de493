// The rule's STUN exchange: its own server list (empty = the global one, shown as the
// placeholder), the answer time-out, and heartbeat and retry (empty = the global defaults).
import { STUN_LIMITS as L, type StunSettings } from '@lucky/shared';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinesInput } from '../../components/LinesInput';
import { fieldRule, optionalRangeRule, rangeRule } from './validators';

export type StunGlobals = Pick<StunSettings, 'stunServers' | 'heartbeatSec' | 'retrySec'>;

export function StunFields({ globals }: { globals?: StunGlobals }) {
  const { t } = useTranslation();
  const globalValue = (value: number | undefined) =>
    value === undefined ? t('stun.globalDefaultShort') : t('stun.globalDefault', { value });
  return (
    <>
      <Form.Item
        name="stunServers"
        label={t('stun.stunServers')}
        extra={t('stun.ruleServersHelp')}
        rules={[fieldRule(t, ['stunServers'])]}
      >
        <LinesInput
          rows={3}
          placeholder={globals ? globals.stunServers.join('\n') : t('stun.globalServersPlaceholder')}
          data-testid="stun-rule-servers"
        />
      </Form.Item>
      <Form.Item
        name="timeoutMs"
        label={t('stun.timeout')}
        extra={t('stun.timeoutHelp')}
        rules={[rangeRule(t, L.timeoutMs)]}
      >
        <InputNumber<number> precision={0} suffix={t('stun.unitMs')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name="heartbeatSec"
        label={t('stun.heartbeat')}
        extra={t('stun.heartbeatHelp')}
        rules={[optionalRangeRule(t, L.heartbeatSec)]}
      >
        <InputNumber<number>
          precision={0}
          placeholder={globalValue(globals?.heartbeatSec)}
          suffix={t('common.secondsShort')}
          style={{ width: 220 }}
          data-testid="stun-rule-heartbeat"
        />
      </Form.Item>
      <Form.Item
        name="retrySec"
        label={t('stun.retry')}
        extra={t('stun.retryHelp', { max: L.retryMaxSec })}
        rules={[optionalRangeRule(t, L.retrySec)]}
      >
        <InputNumber<number>
          precision={0}
          placeholder={globalValue(globals?.retrySec)}
          suffix={t('common.secondsShort')}
          style={{ width: 220 }}
          data-testid="stun-rule-retry"
        />
      </Form.Item>
    </>
  );
}
