// Calls of the wanji_admin module (docs/API.md, "Wanji admin"), answered with the views of the
// shared module. Calls that change something are `silent`: the screen words their failures itself
// (errors.ts) and puts a refusal beside its field. Calls that wait on remote consoles get the
// module's own time-out plus a margin (the client's is 5 s); bulk actions wait on several.
import {
  WANJI_ADMIN_LIMITS as L,
  type LogPageResponse,
  type WanjiAdminSettingsPatch,
  type WanjiAdminSettingsResponse,
  type WanjiBulkResponse,
  type WanjiConsoleInput,
  type WanjiConsoleListResponse,
  type WanjiConsoleResponse,
  type WanjiLoginLinkResponse,
  type WanjiProbeBody,
  type WanjiProbeResponse,
} from '@lucky/shared';
import { del, download, get, post, put, upload } from '../../api/client';

export const BASE = 'api/wanji_admin';
const consolePath = (key: string) => `${BASE}/consoles/${encodeURIComponent(key)}`;

/** One remote call: the longest time-out the settings allow, plus a margin. */
const REMOTE_MS = L.timeoutMs.max + 5000;
/** A bulk action: the consoles go a few at a time (bulkParallel), each with its own time-out. */
const bulkMs = (count: number) => Math.ceil(count / L.bulkParallel) * REMOTE_MS * 2 + 10_000;

export const wanjiKeys = {
  all: ['wanji_admin'] as const,
  list: ['wanji_admin', 'consoles'] as const,
  logs: ['wanji_admin', 'logs'] as const,
};

export const fetchConsoles = (signal?: AbortSignal) => get<WanjiConsoleListResponse>(`${BASE}/consoles`, { signal });

export const createConsole = (c: WanjiConsoleInput) =>
  post<WanjiConsoleResponse>(`${BASE}/consoles`, c, { silent: true, timeoutMs: REMOTE_MS });
export const updateConsole = (key: string, c: WanjiConsoleInput) =>
  put<WanjiConsoleResponse>(consolePath(key), c, { silent: true, timeoutMs: REMOTE_MS });
export const enableConsole = (key: string, enabled: boolean) =>
  put<WanjiConsoleResponse>(`${consolePath(key)}/enable`, { enabled }, { silent: true });
export const deleteConsole = (key: string) => del(consolePath(key), { silent: true });
export const refreshConsole = (key: string) =>
  post<WanjiConsoleResponse>(`${consolePath(key)}/refresh`, {}, { silent: true, timeoutMs: REMOTE_MS });
export const loginLink = (key: string) =>
  post<WanjiLoginLinkResponse>(`${consolePath(key)}/login-link`, {}, { silent: true, timeoutMs: REMOTE_MS });

/** Connects over TLS (nothing sent) and answers the certificate the console shows. */
export const probe = (b: WanjiProbeBody) =>
  post<WanjiProbeResponse>(`${BASE}/probe`, b, { silent: true, timeoutMs: REMOTE_MS });

export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>('api/modules/wanji_admin/enabled', { enabled }, { silent: true });

export const saveSettings = (patch: WanjiAdminSettingsPatch) =>
  put<WanjiAdminSettingsResponse>(`${BASE}/settings`, patch, { silent: true });

export const fetchLogs = (q: { page: number; pageSize: number }, signal?: AbortSignal) =>
  get<LogPageResponse>(`${BASE}/logs`, { query: { ...q, order: 'newest' }, signal });
export const clearLogs = () => del(`${BASE}/logs`, { silent: true });

export const bulkRestart = (keys: string[]) =>
  post<WanjiBulkResponse>(`${BASE}/bulk/restart`, { keys }, { silent: true, timeoutMs: bulkMs(keys.length) });
export const bulkModule = (keys: string[], module: string, enabled: boolean) =>
  post<WanjiBulkResponse>(
    `${BASE}/bulk/module`,
    { keys, module, enabled },
    { silent: true, timeoutMs: bulkMs(keys.length) },
  );
/** One zip: `<name>.json` per console that answered, `results.json` with every outcome. */
export const bulkBackup = (keys: string[]) =>
  download(`${BASE}/bulk/backup`, { method: 'POST', body: { keys }, silent: true, timeoutMs: bulkMs(keys.length) });
/** The package goes up once; the manager checks its signature, then sends it to each console. */
export const bulkUpdate = (keys: string[], file: File, onProgress?: (percent: number) => void) =>
  upload<WanjiBulkResponse>(`${BASE}/bulk/update`, file, { query: { keys: keys.join(',') }, silent: true, onProgress });
