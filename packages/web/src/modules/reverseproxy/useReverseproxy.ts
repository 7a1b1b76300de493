// Server state of the screen: the rule list (polled at the chosen interval, for
// live status and the newest log lines) and the actions on it, each refreshing
// what it changed.
import type { ReverseproxyListResponse, ReverseproxyRuleView } from '@lucky/shared';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt, patchListItem } from '../../hooks/listActions';
import { deleteRule, deleteSubRule, enableModule, enableRule, enableSubRule, fetchRules, rpKeys } from './api';
import { errorText } from './errors';

export function useRules(intervalMs: number) {
  return useQuery({
    queryKey: rpKeys.rules,
    queryFn: ({ signal }) => fetchRules(signal),
    refetchInterval: intervalMs,
    // A hidden tab does not need live status.
    refetchIntervalInBackground: false,
  });
}

/** Puts a rule the server just answered into the cached list, so a switch does not flicker back. */
export function patchRule(qc: QueryClient, rule: ReverseproxyRuleView): void {
  patchListItem(qc, rpKeys.rules, rule);
}

export function useReverseproxyActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: rpKeys.all });
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    const patch = (r: { rule: ReverseproxyRuleView }) => patchRule(qc, r.rule);
    return {
      refresh,
      setModuleEnabled: (enabled: boolean) =>
        attempt(
          () => enableModule(enabled),
          () => qc.setQueryData<ReverseproxyListResponse>(rpKeys.rules, (old) => old && { ...old, enabled }),
        ),
      setRuleEnabled: (key: string, enabled: boolean) => attempt(() => enableRule(key, enabled), patch),
      removeRule: (key: string) =>
        attempt(
          () => deleteRule(key),
          () => void message.success(t('reverseproxy.ruleDeleted')),
        ),
      setSubRuleEnabled: (key: string, sub: string, enabled: boolean) =>
        attempt(() => enableSubRule(key, sub, enabled), patch),
      removeSubRule: (key: string, sub: string) =>
        attempt(
          () => deleteSubRule(key, sub),
          (r) => {
            patch(r);
            void message.success(t('reverseproxy.subRuleDeleted'));
          },
        ),
      ruleSaved: (rule: ReverseproxyRuleView) => {
        patchRule(qc, rule);
        void refresh();
      },
    };
  }, [qc, message, t]);
}
