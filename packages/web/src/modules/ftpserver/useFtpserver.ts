// Server state of the screen: the status (polled at the chosen interval, sessions included), the
// settings, mounts and users (read once, and again after every change), and the actions on them,
// each refreshing what it changed.
import type { FtpserverMountView, FtpserverUserView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt } from '../../hooks/listActions';
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
  ftpKeys,
  kickSession,
  setModuleEnabled,
} from './api';
import { errorText } from './errors';

export function useFtpData(intervalMs: number) {
  const status = useQuery({
    queryKey: ftpKeys.status,
    queryFn: ({ signal }) => fetchStatus(signal),
    refetchInterval: intervalMs,
    // A hidden tab does not need live figures.
    refetchIntervalInBackground: false,
  });
  const settings = useQuery({ queryKey: ftpKeys.settings, queryFn: ({ signal }) => fetchSettings(signal) });
  const mounts = useQuery({ queryKey: ftpKeys.mounts, queryFn: ({ signal }) => fetchMounts(signal) });
  const users = useQuery({ queryKey: ftpKeys.users, queryFn: ({ signal }) => fetchUsers(signal) });
  return { status, settings, mounts, users };
}

export function useFtpActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: ftpKeys.all });
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    return {
      refresh,
      setModuleEnabled: (enabled: boolean) =>
        attempt(
          () => setModuleEnabled(enabled),
          () => void message.success(t(enabled ? 'ftpserver.moduleSwitchedOn' : 'ftpserver.moduleSwitchedOff')),
        ),
      setMountEnabled: (m: FtpserverMountView, enabled: boolean) => attempt(() => enableMount(m.key, enabled)),
      removeMount: (m: FtpserverMountView) =>
        attempt(
          () => deleteMount(m.key),
          () => void message.success(t('ftpserver.mountDeleted')),
        ),
      setUserEnabled: (u: FtpserverUserView, enabled: boolean) => attempt(() => enableUser(u.key, enabled)),
      removeUser: (u: FtpserverUserView) =>
        attempt(
          () => deleteUser(u.key),
          () => void message.success(t('ftpserver.userDeleted')),
        ),
      kick: (id: string) =>
        attempt(
          () => kickSession(id),
          () => void message.success(t('ftpserver.kicked')),
        ),
      clearLogs: () =>
        attempt(
          () => clearLogs(),
          () => void message.success(t('ftpserver.logsCleared')),
        ),
    };
  }, [qc, message, t]);
}
