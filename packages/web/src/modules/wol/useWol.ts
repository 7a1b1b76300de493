// Server state of the screen: the device list with every device's live state, polled at the
// chosen interval (every second while a woken device is awaited, so the progress moves), and the
// actions on it, each refreshing the list.
import type { WolDeviceView, WolListResponse } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt } from '../../hooks/listActions';
import {
  clearLogs,
  deleteDevice,
  enableDevice,
  fetchDevices,
  setModuleEnabled,
  shutdownDevice,
  WAKE_WAIT_SEC,
  wakeDevice,
  wolKeys,
} from './api';
import { errorText, reasonText } from './errors';

/** While a woken device is awaited. */
export const WAKE_POLL_MS = 1000;

export function pollInterval(data: WolListResponse | undefined, intervalMs: number): number {
  return data?.devices.some((d) => d.state.wake?.phase === 'waiting') ? Math.min(WAKE_POLL_MS, intervalMs) : intervalMs;
}

export function useDevices(intervalMs: number) {
  return useQuery({
    queryKey: wolKeys.list,
    queryFn: ({ signal }) => fetchDevices(signal),
    refetchInterval: (q) => pollInterval(q.state.data, intervalMs),
    // A hidden tab does not need live states.
    refetchIntervalInBackground: false,
  });
}

/** Puts a device the server just answered into the cached list, so a switch does not flicker back. */
function patchDevice(qc: ReturnType<typeof useQueryClient>, device: WolDeviceView | undefined) {
  if (!device) return;
  qc.setQueryData<WolListResponse>(wolKeys.list, (old) => {
    if (!old) return old;
    const found = old.devices.some((d) => d.key === device.key);
    return {
      ...old,
      devices: found ? old.devices.map((d) => (d.key === device.key ? device : d)) : [...old.devices, device],
    };
  });
}

export function useWolActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: wolKeys.list });
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    return {
      refresh,
      patch: (d: WolDeviceView | undefined) => patchDevice(qc, d),
      setModuleEnabled: (enabled: boolean) =>
        attempt(
          () => setModuleEnabled(enabled),
          () => void message.success(t(enabled ? 'wol.ui_switchedOn' : 'wol.ui_switchedOff')),
        ),
      setDeviceEnabled: (key: string, enabled: boolean) =>
        attempt(
          () => enableDevice(key, enabled),
          (r) => patchDevice(qc, r.device),
        ),
      /** Sends the packets and has the server watch the device come up; the card shows the rest. */
      wake: (d: WolDeviceView) =>
        attempt(
          () => wakeDevice(d.key, WAKE_WAIT_SEC),
          (r) => void message.success(t('wol.ui_wakeSent', { name: d.name, count: r.sent, target: r.target })),
        ),
      shutdown: (d: WolDeviceView) =>
        attempt(
          () => shutdownDevice(d.key),
          (r) => {
            if (r.ok) void message.success(t('wol.ui_shutdownSent', { name: d.name }));
            else void message.error(t('wol.ui_shutdownFailed', { name: d.name, reason: reasonText(r.reason) }));
          },
        ),
      remove: (d: WolDeviceView) =>
        attempt(
          () => deleteDevice(d.key),
          () => void message.success(t('wol.ui_deleted', { name: d.name })),
        ),
      clearLogs: () =>
        attempt(
          () => clearLogs(),
          () => void message.success(t('wol.ui_logsCleared')),
        ),
    };
  }, [qc, message, t]);
}
