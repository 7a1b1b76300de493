// Server state of the screen: status (polled), settings, mounts, users, the storages and
// certificates the pickers offer, and the actions that change them, each refreshing what it changed.
import type { StoragemanagementListResponse } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';
import { makeAttempt } from '../../hooks/listActions';
import { fetchCerts } from '../../screens/safe/certs';
import {
  clearLogs,
  deleteMount,
  deleteUser,
  enableMount,
  enableUser,
  fetchMounts,
  fetchSettings,
  fetchStatus,
  fetchUsers,
  setModuleEnabled,
  webdavKeys,
} from './api';
import { errorText } from './errors';

export const STATUS_INTERVAL_MS = 5000;

export const useStatus = () =>
  useQuery({
    queryKey: webdavKeys.status,
    queryFn: ({ signal }) => fetchStatus(signal),
    refetchInterval: STATUS_INTERVAL_MS,
    refetchIntervalInBackground: false,
  });
export const useSettings = () =>
  useQuery({ queryKey: webdavKeys.settings, queryFn: ({ signal }) => fetchSettings(signal) });
export const useMounts = () => useQuery({ queryKey: webdavKeys.mounts, queryFn: ({ signal }) => fetchMounts(signal) });
export const useUsers = () => useQuery({ queryKey: webdavKeys.users, queryFn: ({ signal }) => fetchUsers(signal) });

/** A storage a mount may name: storage management's entries (its own list call). */
export interface StorageChoice {
  key: string;
  name: string;
}
export const useStorages = () =>
  useQuery({
    queryKey: webdavKeys.storages,
    queryFn: async ({ signal }): Promise<StorageChoice[]> => {
      const r = await get<StoragemanagementListResponse>('api/storagemanagement/storages', { signal, silent: true });
      return r.list.map(({ key, name }) => ({ key, name }));
    },
  });

/** The names the certificate store has certificates for (the leaf's names of the enabled ones). */
export const useCertNames = () =>
  useQuery({
    queryKey: webdavKeys.certs,
    queryFn: async ({ signal }) => {
      const certs = await fetchCerts(signal);
      const names = certs.filter((c) => c.Enable).flatMap((c) => c.CertsInfo[0]?.Domains ?? []);
      return [...new Set(names)].sort();
    },
  });

export function useWebdavActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();
  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: webdavKeys.all });
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    return {
      refresh,
      setModuleEnabled: (on: boolean) =>
        attempt(
          () => setModuleEnabled(on),
          () => void message.success(t(on ? 'webdav.moduleSwitchedOn' : 'webdav.moduleSwitchedOff')),
        ),
      setMountEnabled: (key: string, on: boolean) => attempt(() => enableMount(key, on)),
      removeMount: (key: string) =>
        attempt(
          () => deleteMount(key),
          () => void message.success(t('webdav.deleted')),
        ),
      setUserEnabled: (key: string, on: boolean) => attempt(() => enableUser(key, on)),
      removeUser: (key: string) =>
        attempt(
          () => deleteUser(key),
          () => void message.success(t('webdav.deleted')),
        ),
      clearLogs: () =>
        attempt(
          () => clearLogs(),
          () => void message.success(t('webdav.logsCleared')),
        ),
    };
  }, [qc, message, t]);
}
