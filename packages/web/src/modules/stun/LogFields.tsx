// The rule's log: level, how many lines are kept, how many the list shows (spec §5: 1-64).
import { STUN_LIMITS as L } from '@lucky/shared';
import { Form, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { levelKey, RULE_LOG_LEVELS } from '../../components/ruleLog/levels';
import { rangeRule } from './validators';

export function LogFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="logLevel" label={t('stun.logLevel')} extra={t('stun.logLevelHelp')}>
        <Select<number>
          style={{ width: 180 }}
          options={RULE_LOG_LEVELS.map((n) => ({ value: n, label: `${n} · ${t(levelKey(n))}` }))}
        />
      </Form.Item>
      <Form.Item
        name="logCapacity"
        label={t('stun.logCapacity')}
        extra={t('stun.logCapacityHelp')}
        rules={[rangeRule(t, L.logCapacity)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.unitLines')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name="logShowLatest"
        label={t('stun.logShowLatest')}
        extra={t('stun.logShowLatestHelp')}
        rules={[rangeRule(t, L.logShowLatest)]}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.unitLines')}
          style={{ width: 180 }}
          data-testid="stun-log-show-latest"
        />
      </Form.Item>
    </>
  );
}
