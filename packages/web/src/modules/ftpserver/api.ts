// Calls of the FTP server module (packages/server/src/modules/ftpserver/routes.ts), answered with
// the views of the shared module. Calls that change something are `silent`: their failures carry
// a field and a code that the dialog translates itself and puts beside the right form item.
import type {
  FtpserverLogsResponse,
  FtpserverMountInput,
  FtpserverMountResponse,
  FtpserverMountsResponse,
  FtpserverSettingsPatch,
  FtpserverSettingsResponse,
  FtpserverStatusResponse,
  FtpserverUserInput,
  FtpserverUserResponse,
  FtpserverUsersResponse,
} from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/ftpserver';
const mountPath = (key: string) => `${BASE}/mounts/${encodeURIComponent(key)}`;
const userPath = (key: string) => `${BASE}/users/${encodeURIComponent(key)}`;

export const ftpKeys = {
  all: ['ftpserver'] as const,
  status: ['ftpserver', 'status'] as const,
  settings: ['ftpserver', 'settings'] as const,
  mounts: ['ftpserver', 'mounts'] as const,
  users: ['ftpserver', 'users'] as const,
  logs: ['ftpserver', 'logs'] as const,
  storages: ['ftpserver', 'storages'] as const,
  certs: ['ftpserver', 'certs'] as const,
  interfaces: ['ftpserver', 'netinterfaces'] as const,
};

export const fetchStatus = (signal?: AbortSignal) => get<FtpserverStatusResponse>(`${BASE}/status`, { signal });

export const fetchSettings = (signal?: AbortSignal) => get<FtpserverSettingsResponse>(`${BASE}/settings`, { signal });

/** Only the fields that changed; a nested section (passive, tls, anonymous) may be partial. */
export const saveSettings = (patch: FtpserverSettingsPatch) =>
  put<FtpserverSettingsResponse>(`${BASE}/settings`, patch, { silent: true });

/** The module switch (the core's call for every module): off, nothing listens. */
export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>('api/modules/ftpserver/enabled', { enabled }, { silent: true });

export const fetchMounts = (signal?: AbortSignal) => get<FtpserverMountsResponse>(`${BASE}/mounts`, { signal });
export const createMount = (m: FtpserverMountInput) =>
  post<FtpserverMountResponse>(`${BASE}/mounts`, m, { silent: true });
export const updateMount = (key: string, m: FtpserverMountInput) =>
  put<FtpserverMountResponse>(mountPath(key), m, { silent: true });
export const enableMount = (key: string, enabled: boolean) =>
  put<FtpserverMountResponse>(`${mountPath(key)}/enable`, { enabled }, { silent: true });
export const deleteMount = (key: string) => del(mountPath(key), { silent: true });

export const fetchUsers = (signal?: AbortSignal) => get<FtpserverUsersResponse>(`${BASE}/users`, { signal });
/** `password`: a new one in plain text (the server hashes it), or SECRET_MASK to keep the stored one. */
export const createUser = (u: FtpserverUserInput) => post<FtpserverUserResponse>(`${BASE}/users`, u, { silent: true });
export const updateUser = (key: string, u: FtpserverUserInput) =>
  put<FtpserverUserResponse>(userPath(key), u, { silent: true });
/** Off closes the user's sessions. */
export const enableUser = (key: string, enabled: boolean) =>
  put<FtpserverUserResponse>(`${userPath(key)}/enable`, { enabled }, { silent: true });
export const deleteUser = (key: string) => del(userPath(key), { silent: true });

/** Closes a live session (its transfer stops). */
export const kickSession = (id: string) => del(`${BASE}/sessions/${encodeURIComponent(id)}`, { silent: true });

export interface LogsQuery {
  page: number;
  pageSize: number;
}
export const fetchLogs = (q: LogsQuery, signal?: AbortSignal) =>
  get<FtpserverLogsResponse>(`${BASE}/logs`, { query: { ...q, order: 'newest' }, signal });
export const clearLogs = () => del(`${BASE}/logs`, { silent: true });
