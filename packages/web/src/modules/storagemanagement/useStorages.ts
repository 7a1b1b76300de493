// Server state of the screen: the storage list (polled while the screen is open, so space and
// reachability stay current) and the actions on it, each refreshing what it changed.
import type { StorageEntryView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt, patchListItem } from '../../hooks/listActions';
import { deleteStorage, enableStorage, fetchStorages, probeStorage, setModuleEnabled, storageKeys } from './api';
import { errorText } from './errors';

/** The server probes every minute; the list follows a little more often. */
const POLL_MS = 15_000;

export function useStorageList() {
  return useQuery({
    queryKey: storageKeys.list,
    queryFn: ({ signal }) => fetchStorages(signal),
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function useStorageActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: storageKeys.all });
    const patch = (s: StorageEntryView) => patchListItem(qc, storageKeys.list, s);
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    return {
      refresh,
      setEnabled: (key: string, enabled: boolean) =>
        attempt(
          () => enableStorage(key, enabled),
          (r) => patch(r.storage),
        ),
      probe: (key: string) =>
        attempt(
          () => probeStorage(key),
          (r) => patch(r.storage),
        ),
      remove: (key: string) =>
        attempt(
          () => deleteStorage(key),
          () => void message.success(t('storagemanagement.deleted')),
        ),
      setModuleEnabled: (enabled: boolean) =>
        attempt(
          () => setModuleEnabled(enabled),
          () => void message.success(t(enabled ? 'storagemanagement.moduleOn' : 'storagemanagement.moduleOff')),
        ),
      saved: (s: StorageEntryView) => {
        patch(s);
        void refresh();
      },
    };
  }, [qc, message, t]);
}
