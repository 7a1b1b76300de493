import {
  enabledBodySchema,
  SECRET_MASK,
  type WebdavConfig,
  type WebdavIssueCode,
  type WebdavMount,
  type WebdavMountResponse,
  type WebdavMountsResponse,
  type WebdavSettingsResponse,
  type WebdavStatusResponse,
  type WebdavUser,
  type WebdavUserResponse,
  type WebdavUsersResponse,
  webdavIssues,
  webdavMountInputSchema,
  webdavSettingsPatchSchema,
  webdavUserInputSchema,
} from '@lucky/shared';
import { hashPassword } from '../../core/auth/password.js';
import type { Routes } from '../../core/http/registry.js';
import { fieldFailure } from '../../core/http/reply.js';
import { addServiceLogRoutes } from '../../core/logs/logRoutes.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { foldName } from './front.js';
import { WebdavRuntime } from './runtime.js';
import { settingsView, statusView, userView } from './views.js';

const STATUS: Partial<Record<WebdavIssueCode, number>> = { mountNotFound: 404, userNotFound: 404 };

function refuse(field: string, code: WebdavIssueCode, params: Record<string, unknown> = {}) {
  return fieldFailure({ field, code, params, msg: webdavIssues.describe(code, params) }, STATUS[code] ?? 400);
}

/**
 * REST calls of the WebDAV module (docs/API.md, "WebDAV"): settings, mounts and users (keyed
 * lists, one change at a time), status and log. A user's password is hashed here when a new one
 * arrives and is never read back (masked).
 */
export function registerWebdavRoutes(r: Routes, api: ModuleApi<WebdavConfig>): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof WebdavRuntime ? rt : undefined;
  };
  const findMount = (c: WebdavConfig, key: string) => {
    const m = c.mounts.find((x) => x.key === key);
    if (!m) throw refuse('key', 'mountNotFound');
    return m;
  };
  const findUser = (c: WebdavConfig, key: string) => {
    const u = c.users.find((x) => x.key === key);
    if (!u) throw refuse('key', 'userNotFound');
    return u;
  };
  const uniqueMount = (c: WebdavConfig, name: string, key?: string) => {
    const n = foldName(name);
    if (c.mounts.some((m) => m.key !== key && foldName(m.name) === n)) throw refuse('name', 'mountNameTaken', { name });
  };
  const uniqueUser = (c: WebdavConfig, name: string, key?: string) => {
    const n = foldName(name);
    if (c.users.some((u) => u.key !== key && foldName(u.name) === n)) throw refuse('name', 'userNameTaken', { name });
  };
  const accessKnown = (c: WebdavConfig, access: Record<string, string>) => {
    const mount = Object.keys(access).find((k) => !c.mounts.some((m) => m.key === k));
    if (mount !== undefined) throw refuse(`access.${mount}`, 'accessMountUnknown', { mount });
  };
  const settings = (): WebdavSettingsResponse => {
    const c = api.config();
    return { ret: 0, settings: settingsView(c), status: statusView(c, live()) };
  };

  r.add({
    method: 'GET',
    path: '/api/webdav/settings',
    access: 'token',
    summary: 'WebDAV: the settings (module switch, listener, TLS, prefix, address rules, caps) and the live status',
    handler: settings,
  });

  r.add({
    method: 'PUT',
    path: '/api/webdav/settings',
    access: 'token',
    summary: 'WebDAV: change settings (any subset; `enabled` is the module switch)',
    body: webdavSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const patch = Object.fromEntries(Object.entries(input.body).filter(([, v]) => v !== undefined));
        const tls = {
          ...prev.tls,
          ...Object.fromEntries(Object.entries(input.body.tls ?? {}).filter(([, v]) => v !== undefined)),
        };
        await api.saveConfig({ ...prev, ...patch, tls });
        return settings();
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/webdav/status',
    access: 'token',
    summary: 'WebDAV: the live status (address, connections, requests, traffic, notes) and the newest log lines',
    handler: (): WebdavStatusResponse => {
      const c = api.config();
      const rt = live();
      return { ret: 0, enabled: c.enabled, status: statusView(c, rt), lastLogs: rt?.log.newest(10) ?? [] };
    },
  });

  // ---- mounts ----

  r.add({
    method: 'GET',
    path: '/api/webdav/mounts',
    access: 'token',
    summary: 'WebDAV: the mounts (a storage under a folder name)',
    handler: (): WebdavMountsResponse => ({ ret: 0, list: api.config().mounts }),
  });

  r.add({
    method: 'POST',
    path: '/api/webdav/mounts',
    access: 'token',
    summary: 'WebDAV: add a mount (the server assigns its key)',
    body: webdavMountInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WebdavMountResponse> => {
        const prev = api.config();
        uniqueMount(prev, input.body.name);
        const mount: WebdavMount = { ...input.body, key: newKey(prev.mounts) };
        await api.saveConfig({ ...prev, mounts: [...prev.mounts, mount] });
        return { ret: 0, mount: findMount(api.config(), mount.key) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/webdav/mounts/:key',
    access: 'token',
    summary: 'WebDAV: replace a mount',
    body: webdavMountInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WebdavMountResponse> => {
        const prev = api.config();
        const old = findMount(prev, input.params.key);
        uniqueMount(prev, input.body.name, old.key);
        const mount = { ...input.body, key: old.key };
        await api.saveConfig({ ...prev, mounts: prev.mounts.map((m) => (m.key === old.key ? mount : m)) });
        return { ret: 0, mount: findMount(api.config(), old.key) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/webdav/mounts/:key/enable',
    access: 'token',
    summary: 'WebDAV: switch a mount on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WebdavMountResponse> => {
        const prev = api.config();
        const old = findMount(prev, input.params.key);
        const mounts = prev.mounts.map((m) => (m.key === old.key ? { ...m, enabled: input.body.enabled } : m));
        await api.saveConfig({ ...prev, mounts });
        return { ret: 0, mount: findMount(api.config(), old.key) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/webdav/mounts/:key',
    access: 'token',
    summary: 'WebDAV: delete a mount (the users lose their access to it)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = findMount(prev, input.params.key);
        const users = prev.users.map((u) => {
          const { [old.key]: _gone, ...access } = u.access;
          return { ...u, access };
        });
        await api.saveConfig({ ...prev, mounts: prev.mounts.filter((m) => m.key !== old.key), users });
        return { ret: 0 };
      }),
  });

  // ---- users ----

  r.add({
    method: 'GET',
    path: '/api/webdav/users',
    access: 'token',
    summary: 'WebDAV: the users with their access per mount (passwords masked)',
    handler: (): WebdavUsersResponse => ({ ret: 0, list: api.config().users.map(userView) }),
  });

  r.add({
    method: 'POST',
    path: '/api/webdav/users',
    access: 'token',
    summary: 'WebDAV: add a user (a password is required; it is stored as a scrypt hash)',
    body: webdavUserInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WebdavUserResponse> => {
        const prev = api.config();
        const { password, ...rest } = input.body;
        uniqueUser(prev, rest.name);
        accessKnown(prev, rest.access);
        if (password === '' || password === SECRET_MASK) throw refuse('password', 'passwordRequired');
        const user: WebdavUser = { ...rest, key: newKey(prev.users), password: await hashPassword(password) };
        await api.saveConfig({ ...prev, users: [...prev.users, user] });
        return { ret: 0, user: userView(findUser(api.config(), user.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/webdav/users/:key',
    access: 'token',
    summary: 'WebDAV: replace a user (a password sent masked or empty keeps the stored one)',
    body: webdavUserInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WebdavUserResponse> => {
        const prev = api.config();
        const old = findUser(prev, input.params.key);
        const { password, ...rest } = input.body;
        uniqueUser(prev, rest.name, old.key);
        accessKnown(prev, rest.access);
        const keep = password === '' || password === SECRET_MASK;
        const user: WebdavUser = {
          ...rest,
          key: old.key,
          password: keep ? old.password : await hashPassword(password),
        };
        await api.saveConfig({ ...prev, users: prev.users.map((u) => (u.key === old.key ? user : u)) });
        return { ret: 0, user: userView(findUser(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/webdav/users/:key/enable',
    access: 'token',
    summary: 'WebDAV: switch a user on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WebdavUserResponse> => {
        const prev = api.config();
        const old = findUser(prev, input.params.key);
        const users = prev.users.map((u) => (u.key === old.key ? { ...u, enabled: input.body.enabled } : u));
        await api.saveConfig({ ...prev, users });
        return { ret: 0, user: userView(findUser(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/webdav/users/:key',
    access: 'token',
    summary: 'WebDAV: delete a user',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = findUser(prev, input.params.key);
        await api.saveConfig({ ...prev, users: prev.users.filter((u) => u.key !== old.key) });
        return { ret: 0 };
      }),
  });

  // ---- log ----

  addServiceLogRoutes(r, {
    path: '/api/webdav/logs',
    service: 'WebDAV',
    holds: 'sign-ins, refusals, changes',
    log: () => live()?.log,
  });
}
