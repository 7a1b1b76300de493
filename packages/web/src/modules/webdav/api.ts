// Calls of the WebDAV module (docs/API.md, "WebDAV"), answered with the views of the shared module.
// Calls that change something are `silent`: their failures carry a field and a code that the
// screen translates itself and puts on the right form item.
import type {
  WebdavLogsResponse,
  WebdavMountInput,
  WebdavMountResponse,
  WebdavMountsResponse,
  WebdavSettingsPatch,
  WebdavSettingsResponse,
  WebdavStatusResponse,
  WebdavUserInput,
  WebdavUserResponse,
  WebdavUsersResponse,
} from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/webdav';
const at = (list: 'mounts' | 'users', key: string) => `${BASE}/${list}/${encodeURIComponent(key)}`;

export const webdavKeys = {
  all: ['webdav'] as const,
  status: ['webdav', 'status'] as const,
  settings: ['webdav', 'settings'] as const,
  mounts: ['webdav', 'mounts'] as const,
  users: ['webdav', 'users'] as const,
  logs: ['webdav', 'logs'] as const,
  storages: ['webdav', 'storages'] as const,
  certs: ['webdav', 'certs'] as const,
};

export const fetchStatus = (signal?: AbortSignal) => get<WebdavStatusResponse>(`${BASE}/status`, { signal });
export const fetchSettings = (signal?: AbortSignal) => get<WebdavSettingsResponse>(`${BASE}/settings`, { signal });
export const saveSettings = (patch: WebdavSettingsPatch) =>
  put<WebdavSettingsResponse>(`${BASE}/settings`, patch, { silent: true });

/** The module switch (the core's call for every module): off, nothing listens. */
export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>('api/modules/webdav/enabled', { enabled }, { silent: true });

export const fetchMounts = (signal?: AbortSignal) => get<WebdavMountsResponse>(`${BASE}/mounts`, { signal });
export const addMount = (m: WebdavMountInput) => post<WebdavMountResponse>(`${BASE}/mounts`, m, { silent: true });
export const updateMount = (key: string, m: WebdavMountInput) =>
  put<WebdavMountResponse>(at('mounts', key), m, { silent: true });
export const enableMount = (key: string, enabled: boolean) =>
  put<WebdavMountResponse>(`${at('mounts', key)}/enable`, { enabled }, { silent: true });
export const deleteMount = (key: string) => del(at('mounts', key), { silent: true });

export const fetchUsers = (signal?: AbortSignal) => get<WebdavUsersResponse>(`${BASE}/users`, { signal });
export const addUser = (u: WebdavUserInput) => post<WebdavUserResponse>(`${BASE}/users`, u, { silent: true });
export const updateUser = (key: string, u: WebdavUserInput) =>
  put<WebdavUserResponse>(at('users', key), u, { silent: true });
export const enableUser = (key: string, enabled: boolean) =>
  put<WebdavUserResponse>(`${at('users', key)}/enable`, { enabled }, { silent: true });
export const deleteUser = (key: string) => del(at('users', key), { silent: true });

export const fetchLogs = (q: { page: number; pageSize: number }, signal?: AbortSignal) =>
  get<WebdavLogsResponse>(`${BASE}/logs`, { query: { ...q, order: 'newest' }, signal });
export const clearLogs = () => del(`${BASE}/logs`, { silent: true });
