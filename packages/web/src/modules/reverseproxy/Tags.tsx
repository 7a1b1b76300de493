// Small tags of the screen: a rule's run state, a service type.
import type { ReverseproxyRuleState } from '@lucky/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ServiceType } from './serviceForm';

const STATE_COLOR: Record<ReverseproxyRuleState, string> = {
  running: 'success',
  error: 'error',
  stopped: 'default',
  disabled: 'default',
};

export function StateTag({ state, testId }: { state: ReverseproxyRuleState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLOR[state] ?? 'default'} className="rp-state-tag" data-testid={testId} data-state={state}>
      {t(`reverseproxy.state_${state}`)}
    </Tag>
  );
}

const TYPE_COLOR: Record<ServiceType, string> = {
  proxy: 'blue',
  redirect: 'purple',
  jump: 'purple',
  files: 'green',
  text: 'gold',
  close: 'default',
};

export function ServiceTypeTag({ type }: { type: ServiceType }) {
  const { t } = useTranslation();
  return (
    <Tag color={TYPE_COLOR[type]} className="rp-type-tag">
      {t(`reverseproxy.type_${type}`)}
    </Tag>
  );
}
