// Server state of the screen: the console list with each console's live state (the server polls
// the remotes and backs off; the screen only re-reads the list every few seconds), and the row
// actions, each refreshing the list.
import type { WanjiConsoleView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt, patchListItem } from '../../hooks/listActions';
import {
  clearLogs,
  deleteConsole,
  enableConsole,
  fetchConsoles,
  refreshConsole,
  setModuleEnabled,
  wanjiKeys,
} from './api';
import { errorText } from './errors';

export function useConsoles(intervalMs: number) {
  return useQuery({
    queryKey: wanjiKeys.list,
    queryFn: ({ signal }) => fetchConsoles(signal),
    refetchInterval: intervalMs,
    refetchIntervalInBackground: false,
  });
}

export function useWanjiActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: wanjiKeys.list });
    const patch = (c: WanjiConsoleView) => patchListItem(qc, wanjiKeys.list, c);
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    return {
      refresh,
      patch,
      setModuleEnabled: (on: boolean) =>
        attempt(
          () => setModuleEnabled(on),
          () => void message.success(t(on ? 'wanji_admin.ui_switchedOn' : 'wanji_admin.ui_switchedOff')),
        ),
      setConsoleEnabled: (key: string, on: boolean) =>
        attempt(
          () => enableConsole(key, on),
          (r) => patch(r.console),
        ),
      refreshNow: (c: WanjiConsoleView) =>
        attempt(
          () => refreshConsole(c.key),
          (r) => patch(r.console),
        ),
      remove: (c: WanjiConsoleView) =>
        attempt(
          () => deleteConsole(c.key),
          () => void message.success(t('wanji_admin.ui_deleted', { name: c.name })),
        ),
      clearLogs: () =>
        attempt(
          () => clearLogs(),
          () => void message.success(t('wanji_admin.ui_logsCleared')),
        ),
    };
  }, [qc, message, t]);
}
