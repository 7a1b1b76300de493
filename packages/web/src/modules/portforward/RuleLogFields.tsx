// Advanced: the rule's log — level, how many lines are kept, how many the list shows.
import { PORTFORWARD_LIMITS as L } from '@lucky/shared';
import { Form, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { levelKey, RULE_LOG_LEVELS } from '../../components/ruleLog/levels';
import { rangeRule } from './validators';

export function RuleLogFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="logLevel" label={t('portforward.logLevel')} extra={t('portforward.logLevelHelp')}>
        <Select<number>
          style={{ width: 180 }}
          options={RULE_LOG_LEVELS.map((n) => ({ value: n, label: `${n} · ${t(levelKey(n))}` }))}
        />
      </Form.Item>
      <Form.Item
        name="logCapacity"
        label={t('portforward.logCapacity')}
        extra={t('portforward.logCapacityHelp')}
        rules={[rangeRule(t, L.logCapacity.min, L.logCapacity.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.unitLines')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name="logShowLatest"
        label={t('portforward.logShowLatest')}
        extra={t('portforward.logShowLatestHelp')}
        rules={[rangeRule(t, L.logShowLatest.min, L.logShowLatest.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.unitLines')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name="logToConsole"
        label={t('portforward.logToConsole')}
        valuePropName="checked"
        extra={t('portforward.logToConsoleHelp')}
      >
        <Switch />
      </Form.Item>
    </>
  );
}
