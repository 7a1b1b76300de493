// Server state of the screen: the rule list (polled at the chosen interval)
// and the actions on it, each refreshing what it changed.
import type { PortforwardRuleView } from '@lucky/shared';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt, patchListItem } from '../../hooks/listActions';
import { clearLogs, deleteRule, enableRule, fetchRules, pfKeys, setModuleEnabled } from './api';
import { errorText } from './errors';

export function useRules(intervalMs: number) {
  return useQuery({
    queryKey: pfKeys.rules,
    queryFn: ({ signal }) => fetchRules(signal),
    refetchInterval: intervalMs,
    // A hidden tab does not need live figures.
    refetchIntervalInBackground: false,
  });
}

/** Puts a rule the server just answered into the cached list, so the switch does not flicker back. */
export function patchRule(qc: QueryClient, rule: PortforwardRuleView): void {
  patchListItem(qc, pfKeys.rules, rule);
}

export function usePortforwardActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: pfKeys.all });
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    return {
      refresh,
      setRuleEnabled: (key: string, enabled: boolean) =>
        attempt(
          () => enableRule(key, enabled),
          (r) => patchRule(qc, r.rule),
        ),
      removeRule: (key: string) =>
        attempt(
          () => deleteRule(key),
          () => void message.success(t('portforward.ruleDeleted')),
        ),
      setModuleEnabled: (enabled: boolean) =>
        attempt(
          () => setModuleEnabled(enabled),
          () => void message.success(t(enabled ? 'portforward.moduleSwitchedOn' : 'portforward.moduleSwitchedOff')),
        ),
      clearLogs: (key: string) =>
        attempt(
          () => clearLogs(key),
          () => void message.success(t('portforward.logsCleared')),
        ),
      ruleSaved: (rule: PortforwardRuleView) => {
        patchRule(qc, rule);
        void refresh();
      },
    };
  }, [qc, message, t]);
}
