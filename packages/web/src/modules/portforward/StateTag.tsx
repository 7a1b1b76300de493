// Run states of a rule (running / error / disabled / stopped) and of one port
// (running / starting / error / stopped).
import type { PortforwardRuleState, PortforwardRunState } from '@lucky/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLOR: Record<PortforwardRuleState | PortforwardRunState, string> = {
  running: 'success',
  starting: 'processing',
  error: 'error',
  disabled: 'default',
  stopped: 'default',
};

export function StateTag({ state, testId }: { state: PortforwardRuleState | PortforwardRunState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOR[state] ?? 'default'} className="pf-state-tag" data-testid={testId} data-state={state}>
      {t(`portforward.state_${state}`)}
    </Tag>
  );
}
