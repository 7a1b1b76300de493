// REST calls of the FTP server: /api/ftpserver/settings, users, mounts, status, sessions, logs.
// Bodies are parsed by the registry; the whole slice is checked again by the supervisor (schema,
// then `validate`: storages known to storage management), applied, then saved. A user's password
// arrives in plain text and is stored as its scrypt hash; it is read back masked.

import {
  FTPSERVER_SECRETS,
  type FtpserverConfig,
  type FtpserverIssueCode,
  type FtpserverMount,
  type FtpserverMountsResponse,
  type FtpserverMountView,
  type FtpserverSettingsResponse,
  type FtpserverStatusResponse,
  type FtpserverUsersResponse,
  ftpserverIssues,
  ftpserverMountInputSchema,
  ftpserverSettingsPatchSchema,
  ftpserverSettingsSchema,
  ftpserverUserInputSchema,
  SECRET_MASK,
} from '@lucky/shared';
import { hashPassword } from '../../core/auth/password.js';
import type { Routes } from '../../core/http/registry.js';
import { fieldFailure } from '../../core/http/reply.js';
import { addServiceLogRoutes } from '../../core/logs/logRoutes.js';
import { serialQueue } from '../../core/modules/keyed.js';
import { addKeyedListRoutes } from '../../core/modules/keyedListRoutes.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { FtpserverRuntime } from './runtime.js';

const userSecrets = FTPSERVER_SECRETS.map((p) => p.replace(/^users\.\*\./, ''));

const refuse = (field: string, code: FtpserverIssueCode, params: Record<string, unknown> = {}, status = 400) =>
  fieldFailure({ field, code, params, msg: ftpserverIssues.describe(code, params) }, status);

export function registerFtpserverRoutes(r: Routes, api: ModuleApi<FtpserverConfig>): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof FtpserverRuntime ? rt : undefined;
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

  addKeyedListRoutes(r, api, {
    path: '/api/ftpserver/users',
    field: 'users',
    body: ftpserverUserInputSchema,
    serial,
    notFound: () => refuse('key', 'userNotFound', {}, 404),
    make: async (body, key, old) => ({ ...body, key, password: await passwordOf(body.password, old?.password) }),
    view: (u) => u,
    secrets: userSecrets,
    answer: 'user',
    list: {
      summary: 'FTP server: the users (passwords masked)',
      answer: (_config, list): FtpserverUsersResponse => ({ ret: 0, list }),
    },
    summaries: {
      add: 'FTP server: add a user (password in plain text, stored hashed)',
      edit: 'FTP server: replace a user (the password sent back masked is kept)',
      enable: 'FTP server: switch a user on or off (off closes the user’s sessions)',
      delete: 'FTP server: delete a user (its sessions are closed)',
    },
  });

  // ---- mounts ----

  addKeyedListRoutes(r, api, {
    path: '/api/ftpserver/mounts',
    field: 'mounts',
    body: ftpserverMountInputSchema,
    serial,
    notFound: (key) => refuse('key', 'mountNotFound', { mount: key }, 404),
    // Every user's access to the mount goes with it, the anonymous user's too.
    detach: (prev, old) => {
      const without = <T extends Record<string, unknown>>(access: T): T => {
        const { [old.key]: _gone, ...rest } = access;
        return rest as T;
      };
      return {
        ...prev,
        users: prev.users.map((u) => ({ ...u, access: without(u.access) })),
        anonymous: { ...prev.anonymous, access: without(prev.anonymous.access) },
      };
    },
    view: mountView,
    answer: 'mount',
    list: {
      summary: 'FTP server: the mounts, with their storages’ names and state',
      answer: (_config, list): FtpserverMountsResponse => ({ ret: 0, list }),
    },
    summaries: {
      add: 'FTP server: add a mount (a storage under a folder name at the root)',
      edit: 'FTP server: replace a mount',
      enable: 'FTP server: switch a mount on or off (off hides it from every user)',
      delete: 'FTP server: delete a mount (and every user’s access to it)',
    },
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
