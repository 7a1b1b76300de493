// Server state of the screen: the status (polled at the chosen interval, sessions included), the
// settings, mounts and users (read once, and again after every change), and the actions on them,
// each refreshing what it changed.
import { type FtpserverMountView, type FtpserverUserView, SECRET_MASK } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt } from '../../hooks/listActions';
import {
  clearLogs,
  deleteMount,
  deleteUser,
  fetchMounts,
  fetchSettings,
  fetchStatus,
  fetchUsers,
  ftpKeys,
  kickSession,
  setModuleEnabled,
  updateMount,
  updateUser,
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
      setMountEnabled: (m: FtpserverMountView, enabled: boolean) =>
        attempt(() => updateMount(m.key, { name: m.name, storage: m.storage, enabled })),
      removeMount: (m: FtpserverMountView) =>
        attempt(
          () => deleteMount(m.key),
          () => void message.success(t('ftpserver.mountDeleted')),
        ),
      // The stored password is kept: the view's mask goes back as it came.
      setUserEnabled: (u: FtpserverUserView, enabled: boolean) =>
        attempt(() =>
          updateUser(u.key, { name: u.name, enabled, access: u.access, password: u.password ? SECRET_MASK : '' }),
        ),
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
