// Calls of the Wake-on-LAN module (docs/API.md, "Wake-on-LAN"), answered with the views of the
// shared module. Calls that change something are `silent`: their failures carry a field and a code
// the screen translates itself (errors.ts) and puts on the right form item. A scan, a shutdown and
// a webhook test wait on the network, so they get their own time-outs (the client's is 5 s).
import {
  type WebhookSettings,
  WOL_LIMITS,
  type WolDeviceInput,
  type WolDeviceResponse,
  type WolInterfacesResponse,
  type WolListResponse,
  type WolLogsResponse,
  type WolScanResponse,
  type WolSettingsPatch,
  type WolSettingsResponse,
  type WolShutdownResponse,
  type WolWakeResponse,
  type WolWebhookTestResponse,
} from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

export const BASE = 'api/wol';
export const devicePath = (key: string) => `${BASE}/devices/${encodeURIComponent(key)}`;

/** A scan probes one subnet for at most WOL_LIMITS.scanSec seconds; the answer comes after. */
const SCAN_TIMEOUT_MS = (WOL_LIMITS.scanSec.max + 10) * 1000;
/** A shutdown may take the device's SSH / agent time-out (at most 120 s). */
const SHUTDOWN_TIMEOUT_MS = 130_000;
/** How long the screen asks the server to watch a woken device. */
export const WAKE_WAIT_SEC = WOL_LIMITS.waitSec.default;

export const wolKeys = {
  all: ['wol'] as const,
  list: ['wol', 'devices'] as const,
  logs: ['wol', 'logs'] as const,
  interfaces: ['wol', 'interfaces'] as const,
};

export const fetchDevices = (signal?: AbortSignal) => get<WolListResponse>(`${BASE}/devices`, { signal });

export const createDevice = (d: WolDeviceInput) => post<WolDeviceResponse>(`${BASE}/devices`, d, { silent: true });
export const updateDevice = (key: string, d: WolDeviceInput) =>
  put<WolDeviceResponse>(devicePath(key), d, { silent: true });
export const enableDevice = (key: string, enabled: boolean) =>
  put<WolDeviceResponse>(`${devicePath(key)}/enable`, { enabled }, { silent: true });
export const deleteDevice = (key: string) => del(devicePath(key), { silent: true });

/** Sends the magic packets; with `waitSec` the server watches the device come up (its state shows the progress). */
export const wakeDevice = (key: string, waitSec = 0) =>
  post<WolWakeResponse>(`${devicePath(key)}/wake`, {}, { silent: true, query: waitSec > 0 ? { wait: waitSec } : {} });
export const shutdownDevice = (key: string) =>
  post<WolShutdownResponse>(`${devicePath(key)}/shutdown`, {}, { silent: true, timeoutMs: SHUTDOWN_TIMEOUT_MS });

export const fetchInterfaces = (signal?: AbortSignal) =>
  get<WolInterfacesResponse>(`${BASE}/interfaces`, { signal, silent: true });
export const scanLan = (iface: string) =>
  post<WolScanResponse>(`${BASE}/scan`, { interface: iface }, { silent: true, timeoutMs: SCAN_TIMEOUT_MS });

/** The module switch (the core's call for every module). */
export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>('api/modules/wol/enabled', { enabled }, { silent: true });

export const fetchSettings = (signal?: AbortSignal) => get<WolSettingsResponse>(`${BASE}/settings`, { signal });
export const saveSettings = (patch: WolSettingsPatch) =>
  put<WolSettingsResponse>(`${BASE}/settings`, patch, { silent: true });

export const fetchLogs = (q: { page: number; pageSize: number }, signal?: AbortSignal) =>
  get<WolLogsResponse>(`${BASE}/logs`, { query: { ...q, order: 'newest' }, signal });
export const clearLogs = () => del(`${BASE}/logs`, { silent: true });

/** One call with demo data; every attempt may take the webhook's own time-out. */
export const testWebhook = (webhook: WebhookSettings) =>
  post<WolWebhookTestResponse>(
    `${BASE}/webhook/test`,
    { webhook, key: '' },
    { silent: true, timeoutMs: ((webhook.timeout || 20) * (1 + (webhook.retries || 0)) + 10) * 1000 },
  );
