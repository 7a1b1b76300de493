import {
  SECRET_MASK,
  type WebdavConfig,
  type WebdavIssueCode,
  type WebdavMountsResponse,
  type WebdavSettingsResponse,
  type WebdavStatusResponse,
  type WebdavUser,
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
import { serialQueue } from '../../core/modules/keyed.js';
import { addKeyedListRoutes } from '../../core/modules/keyedListRoutes.js';
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

  addKeyedListRoutes(r, api, {
    path: '/api/webdav/mounts',
    field: 'mounts',
    body: webdavMountInputSchema,
    serial,
    notFound: () => refuse('key', 'mountNotFound'),
    check: (prev, body, old) => uniqueMount(prev, body.name, old?.key),
    detach: (prev, old) => ({
      ...prev,
      users: prev.users.map((u) => {
        const { [old.key]: _gone, ...access } = u.access;
        return { ...u, access };
      }),
    }),
    view: (m) => m,
    answer: 'mount',
    list: {
      summary: 'WebDAV: the mounts (a storage under a folder name)',
      answer: (_config, list): WebdavMountsResponse => ({ ret: 0, list }),
    },
    summaries: {
      add: 'WebDAV: add a mount (the server assigns its key)',
      edit: 'WebDAV: replace a mount',
      enable: 'WebDAV: switch a mount on or off',
      delete: 'WebDAV: delete a mount (the users lose their access to it)',
    },
  });

  // ---- users ----

  addKeyedListRoutes(r, api, {
    path: '/api/webdav/users',
    field: 'users',
    body: webdavUserInputSchema,
    serial,
    notFound: () => refuse('key', 'userNotFound'),
    check: (prev, { password, name, access }, old) => {
      uniqueUser(prev, name, old?.key);
      accessKnown(prev, access);
      if (!old && (password === '' || password === SECRET_MASK)) throw refuse('password', 'passwordRequired');
    },
    // The password is stored as its scrypt hash; sent masked or empty on an edit, the stored one stays.
    make: async ({ password, ...rest }, key, old): Promise<WebdavUser> => ({
      ...rest,
      key,
      password: old && (password === '' || password === SECRET_MASK) ? old.password : await hashPassword(password),
    }),
    view: userView,
    answer: 'user',
    list: {
      summary: 'WebDAV: the users with their access per mount (passwords masked)',
      answer: (_config, list): WebdavUsersResponse => ({ ret: 0, list }),
    },
    summaries: {
      add: 'WebDAV: add a user (a password is required; it is stored as a scrypt hash)',
      edit: 'WebDAV: replace a user (a password sent masked or empty keeps the stored one)',
      enable: 'WebDAV: switch a user on or off',
      delete: 'WebDAV: delete a user',
    },
  });

  // ---- log ----

  addServiceLogRoutes(r, {
    path: '/api/webdav/logs',
    service: 'WebDAV',
    holds: 'sign-ins, refusals, changes',
    log: () => live()?.log,
  });
}
