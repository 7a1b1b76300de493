// REST calls of the FTP server: /api/ftpserver/settings, users, mounts, status, sessions, logs.
// Bodies are parsed by the registry; the whole slice is checked again by the supervisor (schema,
// then `validate`: storages known to storage management), applied, then saved. A user's password
// arrives in plain text and is stored as its scrypt hash; it is read back masked.

import {
  enabledBodySchema,
  FTPSERVER_SECRETS,
  type FtpserverConfig,
  type FtpserverIssueCode,
  type FtpserverMount,
  type FtpserverMountResponse,
  type FtpserverMountsResponse,
  type FtpserverMountView,
  type FtpserverSettingsResponse,
  type FtpserverStatusResponse,
  type FtpserverUser,
  type FtpserverUserResponse,
  type FtpserverUsersResponse,
  type FtpserverUserView,
  ftpserverIssues,
  ftpserverMountInputSchema,
  ftpserverSettingsPatchSchema,
  ftpserverSettingsSchema,
  ftpserverUserInputSchema,
  maskSecrets,
  SECRET_MASK,
} from '@lucky/shared';
import { hashPassword } from '../../core/auth/password.js';
import type { Routes } from '../../core/http/registry.js';
import { fieldFailure } from '../../core/http/reply.js';
import { addServiceLogRoutes } from '../../core/logs/logRoutes.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { FtpserverRuntime } from './runtime.js';

const userSecrets = FTPSERVER_SECRETS.map((p) => p.replace(/^users\.\*\./, ''));
const userView = (u: FtpserverUser): FtpserverUserView => maskSecrets(u, userSecrets);

const refuse = (field: string, code: FtpserverIssueCode, params: Record<string, unknown> = {}, status = 400) =>
  fieldFailure({ field, code, params, msg: ftpserverIssues.describe(code, params) }, status);

export function registerFtpserverRoutes(r: Routes, api: ModuleApi<FtpserverConfig>): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof FtpserverRuntime ? rt : undefined;
  };
  const findUser = (c: FtpserverConfig, key: string) => {
    const u = c.users.find((x) => x.key === key);
    if (!u) throw refuse('key', 'userNotFound', {}, 404);
    return u;
  };
  const findMount = (c: FtpserverConfig, key: string) => {
    const m = c.mounts.find((x) => x.key === key);
    if (!m) throw refuse('key', 'mountNotFound', { mount: key }, 404);
    return m;
  };
  /** The stored hash for a password field: the mask keeps `old`, anything else is a new password. */
  const passwordOf = async (given: string, old: string | undefined): Promise<string> => {
    if (given === SECRET_MASK && old) return old;
    if (given === '' || given === SECRET_MASK) throw refuse('password', 'passwordRequired');
    return hashPassword(given);
  };
  /** A mount as read, with what storage management says of its storage (only known while the server runs). */
  const mountView = (m: FtpserverMount): FtpserverMountView => {
    const storage = live()?.storageInfo(m.storage);
    return {
      ...m,
      storageName: storage?.name ?? '',
      available: storage !== undefined,
      storageReadOnly: storage?.readOnly ?? false,
    };
  };
  const settingsOf = (c: FtpserverConfig) => ftpserverSettingsSchema.parse(c);

  r.add({
    method: 'GET',
    path: '/api/ftpserver/settings',
    access: 'token',
    summary: 'FTP server: the settings (mounts and users have their own calls)',
    handler: (): FtpserverSettingsResponse => ({ ret: 0, settings: settingsOf(api.config()) }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ftpserver/settings',
    access: 'token',
    summary: 'FTP server: change some settings (passive, tls and anonymous may be partial)',
    body: ftpserverSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FtpserverSettingsResponse> => {
        const prev = api.config();
        const p = input.body;
        const next: FtpserverConfig = {
          ...prev,
          ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)),
          passive: { ...prev.passive, ...p.passive },
          tls: { ...prev.tls, ...p.tls },
          anonymous: { ...prev.anonymous, ...p.anonymous },
        };
        await api.saveConfig(next);
        return { ret: 0, settings: settingsOf(api.config()) };
      }),
  });

  // ---- users ----

  r.add({
    method: 'GET',
    path: '/api/ftpserver/users',
    access: 'token',
    summary: 'FTP server: the users (passwords masked)',
    handler: (): FtpserverUsersResponse => ({ ret: 0, list: api.config().users.map(userView) }),
  });

  r.add({
    method: 'POST',
    path: '/api/ftpserver/users',
    access: 'token',
    summary: 'FTP server: add a user (password in plain text, stored hashed)',
    body: ftpserverUserInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FtpserverUserResponse> => {
        const prev = api.config();
        const user = {
          ...input.body,
          key: newKey(prev.users),
          password: await passwordOf(input.body.password, undefined),
        };
        await api.saveConfig({ ...prev, users: [...prev.users, user] });
        return { ret: 0, user: userView(findUser(api.config(), user.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ftpserver/users/:key',
    access: 'token',
    summary: 'FTP server: replace a user (the password sent back masked is kept)',
    body: ftpserverUserInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FtpserverUserResponse> => {
        const prev = api.config();
        const old = findUser(prev, input.params.key);
        const user = { ...input.body, key: old.key, password: await passwordOf(input.body.password, old.password) };
        await api.saveConfig({ ...prev, users: prev.users.map((u) => (u.key === old.key ? user : u)) });
        return { ret: 0, user: userView(findUser(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ftpserver/users/:key/enable',
    access: 'token',
    summary: 'FTP server: switch a user on or off (off closes the user’s sessions)',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FtpserverUserResponse> => {
        const prev = api.config();
        const old = findUser(prev, input.params.key);
        const users = prev.users.map((u) => (u.key === old.key ? { ...u, enabled: input.body.enabled } : u));
        await api.saveConfig({ ...prev, users });
        return { ret: 0, user: userView(findUser(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/ftpserver/users/:key',
    access: 'token',
    summary: 'FTP server: delete a user (its sessions are closed)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = findUser(prev, input.params.key);
        await api.saveConfig({ ...prev, users: prev.users.filter((u) => u.key !== old.key) });
        return { ret: 0 };
      }),
  });

  // ---- mounts ----

  r.add({
    method: 'GET',
    path: '/api/ftpserver/mounts',
    access: 'token',
    summary: 'FTP server: the mounts, with their storages’ names and state',
    handler: (): FtpserverMountsResponse => ({ ret: 0, list: api.config().mounts.map(mountView) }),
  });

  r.add({
    method: 'POST',
    path: '/api/ftpserver/mounts',
    access: 'token',
    summary: 'FTP server: add a mount (a storage under a folder name at the root)',
    body: ftpserverMountInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FtpserverMountResponse> => {
        const prev = api.config();
        const mount = { ...input.body, key: newKey(prev.mounts) };
        await api.saveConfig({ ...prev, mounts: [...prev.mounts, mount] });
        return { ret: 0, mount: mountView(findMount(api.config(), mount.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ftpserver/mounts/:key',
    access: 'token',
    summary: 'FTP server: replace a mount',
    body: ftpserverMountInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FtpserverMountResponse> => {
        const prev = api.config();
        const old = findMount(prev, input.params.key);
        const mount = { ...input.body, key: old.key };
        await api.saveConfig({ ...prev, mounts: prev.mounts.map((m) => (m.key === old.key ? mount : m)) });
        return { ret: 0, mount: mountView(findMount(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ftpserver/mounts/:key/enable',
    access: 'token',
    summary: 'FTP server: switch a mount on or off (off hides it from every user)',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FtpserverMountResponse> => {
        const prev = api.config();
        const old = findMount(prev, input.params.key);
        const mounts = prev.mounts.map((m) => (m.key === old.key ? { ...m, enabled: input.body.enabled } : m));
        await api.saveConfig({ ...prev, mounts });
        return { ret: 0, mount: mountView(findMount(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/ftpserver/mounts/:key',
    access: 'token',
    summary: 'FTP server: delete a mount (and every user’s access to it)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = findMount(prev, input.params.key);
        const without = <T extends Record<string, unknown>>(access: T): T => {
          const { [old.key]: _gone, ...rest } = access;
          return rest as T;
        };
        await api.saveConfig({
          ...prev,
          mounts: prev.mounts.filter((m) => m.key !== old.key),
          users: prev.users.map((u) => ({ ...u, access: without(u.access) })),
          anonymous: { ...prev.anonymous, access: without(prev.anonymous.access) },
        });
        return { ret: 0 };
      }),
  });

  // ---- live state ----

  r.add({
    method: 'GET',
    path: '/api/ftpserver/status',
    access: 'token',
    summary: 'FTP server: listening, problems, sessions with their transfers, totals',
    handler: (): FtpserverStatusResponse => {
      const rt = live();
      if (rt) return { ret: 0, status: rt.statusView() };
      const c = api.config();
      return {
        ret: 0,
        status: {
          enabled: c.enabled,
          listening: false,
          reasons: [{ code: 'moduleDisabled' }],
          port: c.port,
          address: c.address,
          tlsReady: false,
          sessions: [],
          bytesIn: 0,
          bytesOut: 0,
          logins: 0,
          failedLogins: 0,
        },
      };
    },
  });

  r.add({
    method: 'DELETE',
    path: '/api/ftpserver/sessions/:id',
    access: 'token',
    summary: 'FTP server: close a session (its transfer stops)',
    handler: (_req, _reply, input) => {
      if (!live()?.kick(input.params.id)) throw refuse('id', 'sessionNotFound', {}, 404);
      return { ret: 0 };
    },
  });

  addServiceLogRoutes(r, {
    path: '/api/ftpserver/logs',
    service: 'FTP server',
    holds: 'logins, transfers, refusals',
    log: () => live()?.log,
  });
}
