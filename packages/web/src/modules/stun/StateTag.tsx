// Run states of a rule (running / starting / error / stopped / disabled) and of one mapping
// (starting / open / broken / stopped), as coloured tags.
import type { StunMappingState, StunRuleState } from '@lucky/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const RULE_COLOR: Record<StunRuleState, string> = {
  running: 'success',
  starting: 'processing',
  error: 'error',
  stopped: 'default',
  disabled: 'default',
};

const MAPPING_COLOR: Record<StunMappingState, string> = {
  starting: 'processing',
  open: 'success',
  broken: 'error',
  stopped: 'default',
};

export function RuleStateTag({ state, testId }: { state: StunRuleState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={RULE_COLOR[state] ?? 'default'} data-testid={testId} data-state={state}>
      {t(`stun.state_${state}`)}
    </Tag>
  );
}

export function MappingStateTag({ state, testId }: { state: StunMappingState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={MAPPING_COLOR[state] ?? 'default'} data-testid={testId} data-state={state}>
      {t(`stun.mapping_${state}`)}
    </Tag>
  );
}
