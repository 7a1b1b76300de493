import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  type CodedText,
  maskSecrets,
  SECRET_MASK,
  WANJI_ADMIN_SECRETS,
  type WanjiAdminConfig,
  type WanjiAdminIssueCode,
  type WanjiAdminSettingsResponse,
  type WanjiBulkResponse,
  type WanjiConsole,
  type WanjiConsoleListResponse,
  type WanjiConsoleResponse,
  type WanjiConsoleView,
  type WanjiLoginLinkResponse,
  type WanjiProbeResponse,
  wanjiAdminIssues,
  wanjiAdminReason,
  wanjiAdminSettingsPatchSchema,
  wanjiBulkBodySchema,
  wanjiBulkModuleBodySchema,
  wanjiBulkUpdateQuerySchema,
  wanjiConsoleInputSchema,
  wanjiProbeBodySchema,
} from '@lucky/shared';
import { type ZipEntry, zipWriter } from '../../core/archive/zipWriter.js';
import type { Routes } from '../../core/http/registry.js';
import { ApiFailure, fieldFailure } from '../../core/http/reply.js';
import { addServiceLogRoutes } from '../../core/logs/logRoutes.js';
import { serialQueue } from '../../core/modules/keyed.js';
import { addKeyedListRoutes } from '../../core/modules/keyedListRoutes.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { createUpdater, UpdateError } from '../../core/system/release.js';
import { loadTrustedKeys } from '../../core/system/releaseSignature.js';
import { INSTALL_ROOT } from '../../core/version.js';
import { backupOf, eachConsole, restartConsole, switchModule, updateConsole } from './bulk.js';
import { callPeer, jsonAnswer, PeerError, probePeer } from './client.js';
import { readSummary, type WanjiAdminRuntime } from './runtime.js';

const consoleSecrets = WANJI_ADMIN_SECRETS.map((p) => p.replace(/^consoles\.\*\./, ''));
const MAX_PACKAGE_BYTES = 200 * 1024 * 1024;

const refuse = (field: string, code: WanjiAdminIssueCode, params: Record<string, unknown> = {}, status = 400) =>
  fieldFailure({ field, code, params, msg: wanjiAdminIssues.describe(code, params) }, status);

/** A call to a console that failed, as this route's failure: its reason's code (502: the peer's fault). */
const peerFailure = (reason: CodedText) =>
  new ApiFailure(502, 1, reason.text, undefined, { code: reason.code, params: reason.params ?? {} });

/** A file name for a console's backup inside the zip (its name, path characters replaced). */
const safeFileName = (name: string) =>
  [...name]
    .map((ch) => (ch < ' ' || '/\\:*?"<>|'.includes(ch) ? '_' : ch))
    .join('')
    .slice(0, 80) || 'console';

/** REST calls of the wanji_admin module: /api/wanji_admin/… (bodies parsed by the registry). */
export function registerWanjiAdminRoutes(r: Routes, api: ModuleApi<WanjiAdminConfig>): void {
  const serial = serialQueue();
  const live = () => api.runtime() as WanjiAdminRuntime | undefined;
  /** A console (its token masked) with its live state. */
  const stateView = (c: WanjiConsole): WanjiConsoleView => ({
    ...c,
    // A console switched off is not read: its reason says so rather than "not checked yet".
    ...(!c.enabled
      ? { reachable: false, reason: wanjiAdminReason('consoleDisabled', { name: c.name }), failures: 0 }
      : (live()?.stateOf(c.key) ?? { reachable: false, reason: wanjiAdminReason('notChecked'), failures: 0 })),
  });
  const view = (c: WanjiConsole) => stateView(maskSecrets(c, consoleSecrets));
  const notFound = (key: string) => refuse('key', 'consoleNotFound', { key }, 404);
  const find = (config: WanjiAdminConfig, key: string) => {
    const c = config.consoles.find((i) => i.key === key);
    if (!c) throw notFound(key);
    return c;
  };
  const uniqueName = (config: WanjiAdminConfig, name: string, key?: string) => {
    if (config.consoles.some((i) => i.name.toLowerCase() === name.toLowerCase() && i.key !== key))
      throw refuse('name', 'nameTaken', { name });
  };
  const pick = (keys: string[]) => {
    const config = api.config();
    return keys.map((key) => {
      const c = config.consoles.find((i) => i.key === key);
      if (!c) throw refuse('keys', 'consoleNotFound', { key }, 404);
      return c;
    });
  };
  const timeout = () => api.config().timeoutMs;
  const logBulk = (action: string, results: { ok: boolean; name: string; text?: string }[]) => {
    const rt = live();
    if (!rt) return;
    for (const x of results) if (!x.ok) rt.line(3, 'bulkFailed', { action, name: x.name, reason: x.text ?? '' });
    const ok = results.filter((x) => x.ok).length;
    rt.line(4, 'bulkDone', { action, count: results.length, ok, failed: results.length - ok });
  };

  // ---- consoles ---------------------------------------------------------------------------------

  addKeyedListRoutes(r, api, {
    path: '/api/wanji_admin/consoles',
    field: 'consoles',
    body: wanjiConsoleInputSchema,
    serial,
    notFound,
    secrets: consoleSecrets,
    check: (prev, body, old) => {
      // A new console has no stored token for the mask to stand for.
      if (!old && body.token === SECRET_MASK) throw refuse('token', 'tokenRequired');
      uniqueName(prev, body.name, old?.key);
    },
    view: stateView,
    answer: 'console',
    list: {
      summary: 'Wanji admin: the module switch, its settings and every console with its live state (tokens masked)',
      answer: (config, list): WanjiConsoleListResponse => ({
        ret: 0,
        enabled: config.enabled,
        settings: { refreshSeconds: config.refreshSeconds, timeoutMs: config.timeoutMs },
        list,
      }),
    },
    summaries: {
      add: 'Wanji admin: add a console (the server assigns its key)',
      edit: 'Wanji admin: replace a console (a token sent back masked is kept; a new fingerprint re-pins)',
      enable: 'Wanji admin: switch a console on or off (off: not polled, left out of bulk actions)',
      delete: 'Wanji admin: delete a console',
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wanji_admin/consoles/:key/refresh',
    access: 'token',
    summary: "Wanji admin: read a console's summary now; answers its state (a failure is in the state, not an error)",
    handler: async (_req, _reply, input): Promise<WanjiConsoleResponse> => {
      const c = find(api.config(), input.params.key);
      const rt = live();
      if (rt) {
        await rt.refreshNow(c.key);
        return { ret: 0, console: view(find(api.config(), c.key)) };
      }
      // The module is off (no poller): one read, its outcome answered but not kept.
      const at = new Date().toISOString();
      try {
        const summary = await readSummary(c, timeout());
        return {
          ret: 0,
          console: {
            ...view(c),
            reachable: true,
            lastSeen: at,
            checkedAt: at,
            failures: 0,
            summary,
            reason: undefined,
          },
        };
      } catch (err) {
        const reason = err instanceof PeerError ? err.reason : wanjiAdminReason('networkFailed');
        return { ret: 0, console: { ...view(c), reachable: false, reason, checkedAt: at, failures: 1 } };
      }
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wanji_admin/consoles/:key/login-link',
    access: 'token',
    summary: 'Wanji admin: a one-time login link to the console (60 s, used once): the full URL to open',
    handler: async (_req, _reply, input): Promise<WanjiLoginLinkResponse> => {
      const c = find(api.config(), input.params.key);
      if (!c.enabled) throw refuse('key', 'consoleDisabled', { name: c.name }, 409);
      try {
        const a = jsonAnswer<{ path?: unknown; expiresAt?: unknown }>(
          await callPeer(c, { method: 'POST', path: '/api/login/link', json: {}, timeoutMs: timeout() }),
        );
        // The remote names a path on itself, nothing else (never another host).
        if (typeof a.path !== 'string' || !a.path.startsWith('/') || a.path.startsWith('//'))
          throw new PeerError(wanjiAdminReason('notLucky'));
        live()?.line(4, 'loginLink', { name: c.name });
        return { ret: 0, url: new URL(c.url).origin + a.path, expiresAt: String(a.expiresAt ?? '') };
      } catch (err) {
        const reason = err instanceof PeerError ? err.reason : wanjiAdminReason('networkFailed');
        live()?.line(3, 'linkFailed', { name: c.name, reason });
        throw peerFailure(reason);
      }
    },
  });

  // ---- settings, probe, log ---------------------------------------------------------------------

  r.add({
    method: 'GET',
    path: '/api/wanji_admin/settings',
    access: 'token',
    summary: 'Wanji admin: refresh interval and time-out',
    handler: (): WanjiAdminSettingsResponse => {
      const c = api.config();
      return { ret: 0, settings: { refreshSeconds: c.refreshSeconds, timeoutMs: c.timeoutMs } };
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/wanji_admin/settings',
    access: 'token',
    summary: 'Wanji admin: change the refresh interval and / or the time-out',
    body: wanjiAdminSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WanjiAdminSettingsResponse> => {
        const prev = api.config();
        await api.saveConfig({ ...prev, ...input.body });
        const c = api.config();
        return { ret: 0, settings: { refreshSeconds: c.refreshSeconds, timeoutMs: c.timeoutMs } };
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/wanji_admin/probe',
    access: 'token',
    summary:
      "Wanji admin: connect to a console (TLS handshake only, nothing sent) and show its certificate's fingerprint",
    body: wanjiProbeBodySchema,
    handler: async (_req, _reply, input): Promise<WanjiProbeResponse> => {
      try {
        return { ret: 0, ...(await probePeer(input.body.url, input.body.ca, timeout())) };
      } catch (err) {
        throw peerFailure(err instanceof PeerError ? err.reason : wanjiAdminReason('networkFailed'));
      }
    },
  });

  addServiceLogRoutes(r, {
    path: '/api/wanji_admin/logs',
    service: 'Wanji admin',
    holds: 'consoles going up and down, login links, bulk actions',
    log: () => live()?.log,
  });

  // ---- bulk -------------------------------------------------------------------------------------

  r.add({
    method: 'POST',
    path: '/api/wanji_admin/bulk/restart',
    access: 'token',
    summary: 'Wanji admin: restart every console named; one result per console',
    body: wanjiBulkBodySchema,
    handler: async (_req, _reply, input): Promise<WanjiBulkResponse> => {
      const ms = timeout();
      const results = (await eachConsole(pick(input.body.keys), (c) => restartConsole(c, ms))).map((x) => x.result);
      logBulk('restart', results);
      return { ret: 0, results };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wanji_admin/bulk/module',
    access: 'token',
    summary: 'Wanji admin: switch one module on or off on every console named; one result per console',
    body: wanjiBulkModuleBodySchema,
    handler: async (_req, _reply, input): Promise<WanjiBulkResponse> => {
      const { keys, module, enabled } = input.body;
      const ms = timeout();
      const results = (await eachConsole(pick(keys), (c) => switchModule(c, module, enabled, ms))).map((x) => x.result);
      logBulk(`module ${module} ${enabled ? 'on' : 'off'}`, results);
      return { ret: 0, results };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wanji_admin/bulk/backup',
    access: 'token',
    raw: true,
    summary:
      "Wanji admin: one zip of the consoles' config backups (`<name>.json` each, `results.json` with every console's outcome)",
    body: wanjiBulkBodySchema,
    handler: async (_req, reply, input) => {
      const ms = timeout();
      const done = await eachConsole(pick(input.body.keys), (c) => backupOf(c, ms));
      const results = done.map((x) => x.result);
      logBulk('backup', results);
      const mtime = new Date();
      const entries: ZipEntry[] = [];
      for (const x of done)
        if (x.value)
          entries.push({
            kind: 'file',
            name: `${safeFileName(x.result.name)}.json`,
            mtime,
            data: Buffer.from(x.value.text),
          });
      entries.push({
        kind: 'file',
        name: 'results.json',
        mtime,
        data: Buffer.from(`${JSON.stringify(results, null, 2)}\n`),
      });
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
      return reply
        .header('content-disposition', `attachment; filename="wanji-backup-${stamp}.zip"`)
        .header('cache-control', 'no-store')
        .type('application/zip')
        .send(zipWriter(entries));
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wanji_admin/bulk/update',
    access: 'token',
    summary:
      "Wanji admin: upload a release package (multipart `file`) once; checked against this console's trusted keys, then sent to every console named (and installed there unless install=0)",
    query: wanjiBulkUpdateQuerySchema,
    handler: async (req, _reply, input): Promise<WanjiBulkResponse> => {
      const consoles = pick(input.query.keys);
      if (!req.isMultipart()) throw refuse('file', 'packageRequired');
      const part = await req.file({ limits: { fileSize: MAX_PACKAGE_BYTES } });
      if (!part) throw refuse('file', 'packageRequired');
      const tmp = await fs.mkdtemp(path.join(api.configDir, '.wanji-upload-'));
      try {
        const file = path.join(tmp, 'release.tar.gz');
        await pipeline(part.file, createWriteStream(file, { mode: 0o600 }));
        if (part.file.truncated)
          throw refuse('file', 'packageInvalid', { detail: `larger than ${MAX_PACKAGE_BYTES} bytes` });
        await checkPackage(file, tmp, api.configDir, (reason) => live()?.line(3, 'updateRefused', { reason }));
        const ms = timeout();
        const install = input.query.install === '1';
        const done = await eachConsole(consoles, (c) => updateConsole(c, file, install, ms));
        const results = done.map((x) => (x.value ? { ...x.result, version: x.value.version } : x.result));
        logBulk(install ? 'update' : 'upload', results);
        return { ret: 0, results };
      } finally {
        await fs.rm(tmp, { recursive: true, force: true });
      }
    },
  });
}

/**
 * The package verified here first, as this console's own update would (checksums, signature by a
 * key this console trusts): an unsigned, unknown-key, bad or broken package goes to no console.
 */
async function checkPackage(
  file: string,
  tmp: string,
  configDir: string,
  onRefuse: (reason: string) => void,
): Promise<void> {
  const updater = createUpdater({
    installRoot: INSTALL_ROOT,
    stagingDir: path.join(tmp, 'staging'),
    trustedKeys: () => loadTrustedKeys(configDir),
  });
  try {
    await updater.stage(file, { allowUnsigned: false });
    await updater.cancel();
  } catch (err) {
    const e = err as Error;
    onRefuse(e.message);
    if (err instanceof UpdateError && err.code === 'unsigned') throw refuse('file', 'packageUnsigned');
    if (err instanceof UpdateError && err.code === 'bad-signature') throw refuse('file', 'packageBadSignature');
    throw refuse('file', 'packageInvalid', { detail: e.message });
  }
}
