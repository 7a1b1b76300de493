// Advanced: the site's access log — level, how many lines are kept, whether
// they also go to the program log, how many the list shows.
import { REVERSEPROXY_LIMITS as L } from '@lucky/shared';
import { Form, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { levelKey, RULE_LOG_LEVELS } from '../../components/ruleLog/levels';
import type { NamePath } from './serviceForm';
import { rangeRule } from './validators';

export function LogFields({ prefix }: { prefix: NamePath }) {
  const { t } = useTranslation();
  const n = (...p: NamePath): NamePath => [...prefix, 'log', ...p];
  return (
    <>
      <Form.Item name={n('level')} label={t('reverseproxy.logLevel')} extra={t('reverseproxy.logLevelHelp')}>
        <Select<number>
          style={{ width: 180 }}
          options={RULE_LOG_LEVELS.map((x) => ({ value: x, label: `${x} · ${t(levelKey(x))}` }))}
        />
      </Form.Item>
      <Form.Item
        name={n('capacity')}
        label={t('reverseproxy.logCapacity')}
        extra={t('reverseproxy.logCapacityHelp')}
        rules={[rangeRule(t, L.logCapacity.min, L.logCapacity.max)]}
      >
        <InputNumber<number>
          precision={0}
          suffix={t('common.unitLines')}
          style={{ width: 180 }}
          data-testid="rp-log-capacity"
        />
      </Form.Item>
      <Form.Item
        name={n('showLatest')}
        label={t('reverseproxy.logShowLatest')}
        extra={t('reverseproxy.logShowLatestHelp')}
        rules={[rangeRule(t, L.logShowLatest.min, L.logShowLatest.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.unitLines')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item
        name={n('toConsole')}
        label={t('reverseproxy.logToConsole')}
        valuePropName="checked"
        extra={t('reverseproxy.logToConsoleHelp')}
      >
        <Switch />
      </Form.Item>
    </>
  );
}
