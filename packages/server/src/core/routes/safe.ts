// The /safe screen's calls: the lists, their settings, the bans, the test button. Every refusal
// names its field and changes nothing (the checks run inside the config update).
import {
  SAFE_LIMITS,
  SAFE_LISTS,
  type SafeBansResponse,
  type SafeConfig,
  type SafeEntry,
  type SafeList,
  type SafeResponse,
  type SafeTestResponse,
  safeEntryInputSchema,
  safeSettingsPatchSchema,
  safeTestBodySchema,
} from '@lucky/shared';
import { z } from 'zod';
import { hashPassword } from '../auth/password.js';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { notFound } from '../http/reply.js';
import { banKeyOf } from '../safe/bans.js';
import {
  checkEntry,
  guardLockOut,
  pruneExpired,
  randomKnockPath,
  randomToken,
  SAFE_ISSUES,
  safeFailure,
  settingsView,
} from '../safe/edit.js';

const KNOCK_PATH = /^[A-Za-z0-9_-]+$/;

/** The entry body with its value checked by `checkEntry` (a mixed range and a reversed one get their own codes). */
const entryBodySchema = safeEntryInputSchema.extend({ value: z.string().trim().min(1, 'entryInvalid').max(100) });

/** The keys of a patch that were sent (an absent one keeps the saved value). */
function defined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function listOf(name: string | undefined): SafeList {
  if (!SAFE_LISTS.includes(name as SafeList)) throw notFound(`no list ${String(name)}`);
  return name as SafeList;
}

export function registerSafeRoutes(r: RouteRegistry, core: Core): void {
  const now = () => core.safe.now();
  /** Run `change` on a copy of the slice inside the config update; a throw saves nothing. */
  const edit = (change: (safe: SafeConfig) => SafeConfig) =>
    core.store.update((d) => {
      d.safe = change(d.safe);
    });

  r.add({
    method: 'GET',
    path: '/api/safe',
    access: 'token',
    summary: 'The security lists: settings (no password hash), allow and block entries, the caller’s address',
    handler: async (_req, _reply, ctx): Promise<SafeResponse> => {
      await pruneExpired(core.store, now());
      const cfg = core.store.get().safe;
      return { ret: 0, settings: settingsView(cfg), allow: cfg.allow, block: cfg.block, you: ctx.clientIp };
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/safe/settings',
    access: 'token',
    summary: 'Change the allow mode, exempt scopes, knock or auto-ban settings',
    body: safeSettingsPatchSchema,
    issues: SAFE_ISSUES,
    handler: async (_req, _reply, { body, clientIp }) => {
      const k = body.knock;
      if (k?.path !== undefined && k.path !== '') {
        const { min, max } = SAFE_LIMITS.knockPath;
        if (k.path.length < min || k.path.length > max || !KNOCK_PATH.test(k.path))
          throw safeFailure('knockPathInvalid', 'knock.path', { min, max });
      }
      if (k?.password !== undefined && k.password !== '' && k.password.length < SAFE_LIMITS.knockPassword.min)
        throw safeFailure('knockPasswordTooShort', 'knock.password', { min: SAFE_LIMITS.knockPassword.min });
      // Hashed before the update: scrypt takes a while and the update runs in the config's write queue.
      const passwordHash = k?.password ? await hashPassword(k.password) : k?.password === '' ? '' : undefined;
      const saved = await edit((cur) => {
        const next: SafeConfig = {
          ...cur,
          allowMode: body.allowMode ?? cur.allowMode,
          exempt: body.exempt ? [...new Set(body.exempt)] : cur.exempt,
          knock: {
            enabled: k?.enabled ?? cur.knock.enabled,
            path: k?.path ?? cur.knock.path,
            hours: k?.hours ?? cur.knock.hours,
            passwordHash: passwordHash ?? cur.knock.passwordHash,
          },
          autoBan: { ...cur.autoBan, ...defined(body.autoBan ?? {}) },
        };
        // Switched on without a path (or the path cleared while on): a random one.
        if (next.knock.enabled && next.knock.path === '') next.knock.path = randomKnockPath();
        const modeChanged = body.allowMode !== undefined && body.allowMode !== cur.allowMode;
        guardLockOut(core.safe, cur, next, clientIp, modeChanged ? 'allowMode' : 'exempt');
        return next;
      });
      return { ret: 0, settings: settingsView(saved.safe) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/safe/lists/:list',
    access: 'token',
    summary: 'Add an entry (address, CIDR or range; comment; expiry) to the allow or block list',
    body: entryBodySchema,
    issues: SAFE_ISSUES,
    handler: async (_req, _reply, { params, body, clientIp }) => {
      const list = listOf(params.list);
      let added: SafeEntry | undefined;
      await edit((cur) => {
        checkEntry(cur[list], body, now());
        const keys = new Set(cur[list].map((e) => e.key));
        let key = randomToken(12);
        while (keys.has(key)) key = randomToken(12);
        added = { key, ...body, source: 'manual', addedAt: new Date(now()).toISOString() };
        const next = { ...cur, [list]: [...cur[list], added] };
        guardLockOut(core.safe, cur, next, clientIp, 'value');
        return next;
      });
      return { ret: 0, entry: added };
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/safe/lists/:list/:key',
    access: 'token',
    summary: 'Change an entry of the allow or block list',
    body: entryBodySchema,
    issues: SAFE_ISSUES,
    handler: async (_req, _reply, { params, body, clientIp }) => {
      const list = listOf(params.list);
      let changed: SafeEntry | undefined;
      await edit((cur) => {
        const at = cur[list].findIndex((e) => e.key === params.key);
        if (at < 0) throw safeFailure('entryNotFound', 'key', {}, 404);
        checkEntry(cur[list], body, now(), params.key);
        const entries = [...cur[list]];
        changed = { ...entries[at], ...body };
        entries[at] = changed;
        const next = { ...cur, [list]: entries };
        guardLockOut(core.safe, cur, next, clientIp, 'value');
        return next;
      });
      return { ret: 0, entry: changed };
    },
  });

  r.add({
    method: 'DELETE',
    path: '/api/safe/lists/:list/:key',
    access: 'token',
    summary: 'Remove an entry from the allow or block list',
    handler: async (_req, _reply, { params, clientIp }) => {
      const list = listOf(params.list);
      await edit((cur) => {
        if (!cur[list].some((e) => e.key === params.key)) throw safeFailure('entryNotFound', 'key', {}, 404);
        const next = { ...cur, [list]: cur[list].filter((e) => e.key !== params.key) };
        // Removing the allow entry the caller came in by may shut them out.
        guardLockOut(core.safe, cur, next, clientIp, 'key');
        return next;
      });
      return { ret: 0 };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/safe/bans',
    access: 'token',
    summary: 'Addresses banned by auto-ban, newest first',
    handler: (): SafeBansResponse => ({ ret: 0, bans: core.safe.bans.list() }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/safe/bans/:ip',
    access: 'token',
    summary: 'Lift one ban (an address, or an IPv6 /64 as listed)',
    handler: (_req, _reply, { params }) => {
      const ip = decodeURIComponent(params.ip ?? '');
      if (banKeyOf(ip.replace(/\/64$/, '')) === null) throw safeFailure('ipInvalid', 'ip');
      const key = core.safe.bans.unban(ip);
      if (!key) throw safeFailure('banNotFound', 'ip', {}, 404);
      core.safe.line('info', 'unbanned', { ip: key });
      return { ret: 0 };
    },
  });

  r.add({
    method: 'DELETE',
    path: '/api/safe/bans',
    access: 'token',
    summary: 'Lift every ban',
    handler: () => {
      for (const key of core.safe.bans.clear()) core.safe.line('info', 'unbanned', { ip: key });
      return { ret: 0 };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/safe/test',
    access: 'token',
    summary: 'Would this address get in through this scope, and by which rule?',
    body: safeTestBodySchema,
    issues: SAFE_ISSUES,
    handler: (_req, _reply, { body }): SafeTestResponse => {
      const d = core.safe.decide(body.ip, body.scope);
      return {
        ret: 0,
        allowed: d.allowed,
        rule: d.rule,
        ...(d.entry ? { entry: d.entry } : {}),
        ...(d.ban ? { ban: d.ban } : {}),
      };
    },
  });
}
