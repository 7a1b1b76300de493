// Server state of the screen: the rule list (polled at the chosen interval) and the actions on
// it, each refreshing what it changed.
import type { StunRuleView } from '@lucky/shared';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt, patchListItem } from '../../hooks/listActions';
import { clearLogs, deleteRule, enableRule, fetchRules, reopenRule, setModuleEnabled, stunKeys } from './api';
import { errorText } from './errors';

export function useRules(intervalMs: number) {
  return useQuery({
    queryKey: stunKeys.rules,
    queryFn: ({ signal }) => fetchRules(signal),
    refetchInterval: intervalMs,
    // A hidden tab does not need live figures.
    refetchIntervalInBackground: false,
  });
}

/** Puts a rule the server just answered into the cached list, so a switch does not flicker back. */
export function patchRule(qc: QueryClient, rule: StunRuleView): void {
  patchListItem(qc, stunKeys.rules, rule);
}

export function useStunActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: stunKeys.all });
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    return {
      refresh,
      setRuleEnabled: (key: string, enabled: boolean) =>
        attempt(
          () => enableRule(key, enabled),
          (r) => patchRule(qc, r.rule),
        ),
      reopen: (key: string) =>
        attempt(
          () => reopenRule(key),
          (r) => {
            patchRule(qc, r.rule);
            void message.success(t('stun.reopened'));
          },
        ),
      removeRule: (key: string) =>
        attempt(
          () => deleteRule(key),
          () => void message.success(t('stun.ruleDeleted')),
        ),
      setModuleEnabled: (enabled: boolean) =>
        attempt(
          () => setModuleEnabled(enabled),
          () => void message.success(t(enabled ? 'stun.moduleSwitchedOn' : 'stun.moduleSwitchedOff')),
        ),
      clearLogs: (key: string) =>
        attempt(
          () => clearLogs(key),
          () => void message.success(t('stun.logsCleared')),
        ),
      ruleSaved: (rule: StunRuleView) => {
        patchRule(qc, rule);
        void refresh();
      },
    };
  }, [qc, message, t]);
}
