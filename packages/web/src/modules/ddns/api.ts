// Calls of the dynamic DNS module (docs/API.md, "Dynamic DNS"), answered with the views of the
// shared module. Calls that change something are `silent`: their failures carry a field and a
// code that the screen translates itself (errors.ts) and puts on the right form item.
import type {
  DdnsLogsResponse,
  DdnsSettings,
  DdnsSettingsResponse,
  DdnsTaskAddResponse,
  DdnsTaskInput,
  DdnsTaskListResponse,
  DdnsTaskResponse,
  DdnsWebhook,
  DdnsWebhookTestResponse,
  NetInterfacesResponse,
} from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/ddns';
const taskPath = (key: string) => `${BASE}/tasks/${encodeURIComponent(key)}`;

export const ddnsKeys = {
  all: ['ddns'] as const,
  tasks: ['ddns', 'tasks'] as const,
  settings: ['ddns', 'settings'] as const,
  logs: (key: string) => ['ddns', 'logs', key] as const,
  interfaces: ['ddns', 'netinterfaces'] as const,
};

export const fetchTasks = (signal?: AbortSignal) => get<DdnsTaskListResponse>(`${BASE}/tasks`, { signal });

export const createTask = (task: DdnsTaskInput) => post<DdnsTaskAddResponse>(`${BASE}/tasks`, task, { silent: true });

export const updateTask = (key: string, task: DdnsTaskInput) =>
  put<DdnsTaskResponse>(taskPath(key), task, { silent: true });

export const deleteTask = (key: string) => del(taskPath(key), { silent: true });

export const enableTask = (key: string, enabled: boolean) =>
  put<DdnsTaskResponse>(`${taskPath(key)}/enable`, { enabled }, { silent: true });

export const syncTask = (key: string) => post<DdnsTaskResponse>(`${taskPath(key)}/sync`, {}, { silent: true });

export const fetchTaskLogs = (key: string, page: { page: number; pageSize: number }, signal?: AbortSignal) =>
  get<DdnsLogsResponse>(`${taskPath(key)}/logs`, { signal, query: page });

export const fetchSettings = (signal?: AbortSignal) => get<DdnsSettingsResponse>(`${BASE}/settings`, { signal });

export const saveSettings = (settings: Partial<DdnsSettings>) =>
  put<DdnsSettingsResponse>(`${BASE}/settings`, settings, { silent: true });

/** The module switch (the core's call for every module): off, no task runs. */
export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>('api/modules/ddns/enabled', { enabled }, { silent: true });

/** One call with demo data; waits up to the webhook's own time-out, so the client waits longer. */
export const testWebhook = (webhook: DdnsWebhook, key = '') =>
  post<DdnsWebhookTestResponse>(
    `${BASE}/webhook/test`,
    { webhook, key },
    { silent: true, timeoutMs: ((webhook.timeout || 20) + 10) * 1000 },
  );

export type { NetIf, NetInterfacesResponse } from '@lucky/shared';

export const fetchNetInterfaces = (signal?: AbortSignal) =>
  get<NetInterfacesResponse>('api/netinterfaces', { signal, silent: true });

export const testIpReg = (iptype: 'IPv4' | 'IPv6', netinterface: string, ipreg: string) =>
  get<{ ret: 0; ip: string }>('api/ipregtest', { query: { iptype, netinterface, ipreg }, silent: true });
