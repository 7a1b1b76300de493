// Server state of the screen: the task list (polled at the chosen interval) and the actions
// on it, each refreshing what it changed.
import type { DdnsTaskView } from '@lucky/shared';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt, patchListItem } from '../../hooks/listActions';
import { ddnsKeys, deleteTask, enableTask, fetchTasks, setModuleEnabled, syncTask } from './api';
import { errorText } from './errors';

export function useTasks(intervalMs: number) {
  return useQuery({
    queryKey: ddnsKeys.tasks,
    queryFn: ({ signal }) => fetchTasks(signal),
    refetchInterval: intervalMs,
    refetchIntervalInBackground: false,
  });
}

/** Puts a task the server just answered into the cached list, so a switch does not flicker back. */
export function patchTask(qc: QueryClient, task: DdnsTaskView): void {
  patchListItem(qc, ddnsKeys.tasks, task);
}

export function useDdnsActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: ddnsKeys.tasks });
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    return {
      refresh,
      setTaskEnabled: (key: string, enabled: boolean) =>
        attempt(
          () => enableTask(key, enabled),
          (r) => patchTask(qc, r.task),
        ),
      removeTask: (key: string) =>
        attempt(
          () => deleteTask(key),
          () => void message.success(t('ddns.taskDeleted')),
        ),
      syncNow: (key: string) =>
        attempt(
          () => syncTask(key),
          (r) => {
            patchTask(qc, r.task);
            void message.success(t('ddns.syncStarted'));
          },
        ),
      setServiceEnabled: (enabled: boolean) =>
        attempt(
          () => setModuleEnabled(enabled),
          () => {
            void message.success(t(enabled ? 'ddns.serviceSwitchedOn' : 'ddns.serviceSwitchedOff'));
            void qc.invalidateQueries({ queryKey: ddnsKeys.settings });
          },
        ),
      taskSaved: (task: DdnsTaskView) => {
        patchTask(qc, task);
        void refresh();
      },
    };
  }, [qc, message, t]);
}
