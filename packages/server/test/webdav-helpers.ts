// Helpers for the WebDAV module's tests: a WebdavRuntime as the supervisor starts it (its own
// listener, address rules, sign-in and the real engine over local storages), requests with Basic
// auth from a chosen loopback address, and the users' hashes made once per file.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type WebdavConfig, webdavConfigSchema } from '@lucky/shared';
import { FairGate } from '../src/core/auth/fairGate.js';
import { hashPassword } from '../src/core/auth/password.js';
import { ServiceAuth } from '../src/core/auth/serviceAuth.js';
import { silentLogger } from '../src/core/logs/logger.js';
import type { ModuleContext } from '../src/core/modules/types.js';
import { createLocalStorage } from '../src/core/storage/local.js';
import { StorageRegistry } from '../src/core/storage/registry.js';
import type { Storage, StorageInfo } from '../src/core/storage/types.js';
import { WebdavRuntime, type WebdavRuntimeOptions } from '../src/modules/webdav/runtime.js';
import { startTestServer, type TestServer } from './harness.js';
import { testModuleContext } from './module-context.js';
import { freePort } from './portforward-helpers.js';

export { freePort };

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface DavRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** `user:password` for Basic auth. */
  auth?: string;
  /** Source address (127.0.0.x: another client). */
  from?: string;
  host?: string;
}

/** One request on a new connection; the whole answer. Rejects when the connection is reset. */
export function request(port: number, p: string, o: DavRequest = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.auth) headers.authorization = `Basic ${Buffer.from(o.auth).toString('base64')}`;
    if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
    const req = http.request(
      {
        host: o.host ?? '127.0.0.1',
        port,
        path: p,
        method: o.method ?? 'GET',
        headers,
        localAddress: o.from,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${o.method ?? 'GET'} ${p}`)));
    req.end(o.body);
  });
}

/** A local folder as a published storage (what storage management would publish). */
export function localStorageEntry(
  key: string,
  root: string,
  readOnly = false,
): { info: StorageInfo; storage: Storage } {
  return {
    info: { key, name: key, kind: 'local', readOnly },
    storage: createLocalStorage({ key, root, readOnly }),
  };
}

const hashes = new Map<string, Promise<string>>();
/** The scrypt hash of `password` (made once per test file: each costs ~120 ms). */
export const hashOf = (password: string): Promise<string> => {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(password);
    hashes.set(password, h);
  }
  return h;
};

export interface UserSpec {
  name: string;
  password: string;
  access: Record<string, 'rw' | 'ro'>;
  enabled?: boolean;
}

export interface DavRuntime {
  rt: WebdavRuntime;
  port: number;
  config: WebdavConfig;
  configDir: string;
  storages: StorageRegistry;
  ctx: ModuleContext;
  /** Apply a changed config as the supervisor does (reload). */
  reload(patch: Partial<Record<string, unknown>>): Promise<void>;
  stop(): Promise<void>;
}

/** Config input with users given by plain password (hashed here) and the storages to publish. */
export interface DavRuntimeOptions {
  settings?: Record<string, unknown>;
  mounts: { key: string; name: string; storage: string; enabled?: boolean; public?: boolean }[];
  users: (UserSpec & { key: string })[];
  storages: Record<string, { info: StorageInfo; storage: Storage }>;
  /** The sign-in throttle's limits (the base settings' defaults otherwise: 10 failures, 60 s). */
  throttle?: { maxFailures: number; lockMs: number };
  ctx?: Partial<ModuleContext>;
  runtime?: WebdavRuntimeOptions;
}

export async function userEntries(users: DavRuntimeOptions['users']) {
  return Promise.all(
    users.map(async (u) => ({
      key: u.key,
      name: u.name,
      enabled: u.enabled ?? true,
      access: u.access,
      password: await hashOf(u.password),
    })),
  );
}

/** A running WebdavRuntime on a free loopback port (module switched on). */
export async function startDavRuntime(o: DavRuntimeOptions): Promise<DavRuntime> {
  const configDir = await mkdtemp(path.join(os.tmpdir(), 'lucky-webdav-'));
  const storages = new StorageRegistry(() => []);
  storages.publish(new Map(Object.entries(o.storages)));
  const ctx = testModuleContext('webdav', silentLogger, configDir, {
    storages,
    auth: new ServiceAuth(new FairGate(2), () => o.throttle ?? { maxFailures: 10, lockMs: 60_000 }),
    ...o.ctx,
  });
  const rt = new WebdavRuntime(ctx, o.runtime);
  const port = await freePort();
  let config = webdavConfigSchema.parse({
    enabled: true,
    address: '127.0.0.1',
    port,
    ...o.settings,
    mounts: o.mounts,
    users: await userEntries(o.users),
  });
  await rt.start(config);
  const handle: DavRuntime = {
    rt,
    port,
    config,
    configDir,
    storages,
    ctx,
    async reload(patch) {
      const next = webdavConfigSchema.parse({ ...config, ...patch });
      await rt.reload(next, config);
      config = next;
      handle.config = next;
    },
    async stop() {
      await rt.stop();
      await rm(configDir, { recursive: true, force: true });
    },
  };
  return handle;
}

// ---- a real console: storage management's storages, the module configured through its API ----

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field in the tests
type Json = any;

export interface DavConsole {
  s: TestServer;
  /** The WebDAV port (the module listens on 127.0.0.1 there). */
  port: number;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  /** Adds a local folder in storage management; its key. */
  addStorage(name: string, dir: string, readOnly?: boolean): Promise<string>;
  addMount(mount: Record<string, unknown>): Promise<string>;
  addUser(user: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** A console with the WebDAV module switched on at a free loopback port and nothing else set. */
export async function startDavConsole(settings: Record<string, unknown> = {}): Promise<DavConsole> {
  const s = await startTestServer();
  const token = await s.login();
  const call: DavConsole['call'] = (method, p, body) => s.call(method, p, { token, body });
  const ok = async (method: string, p: string, body?: unknown) => {
    const r = await call(method, p, body);
    if (r.body?.ret !== 0) throw new Error(`${method} ${p}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const port = await freePort();
  await ok('PUT', '/api/webdav/settings', { enabled: true, port, address: '127.0.0.1', ...settings });
  return {
    s,
    port,
    call,
    addStorage: async (name, dir, readOnly = false) =>
      (await ok('POST', '/api/storagemanagement/storages', { name, kind: 'local', readOnly, local: { path: dir } }))
        .storage.key,
    addMount: async (mount) => (await ok('POST', '/api/webdav/mounts', mount)).mount.key,
    addUser: async (user) => (await ok('POST', '/api/webdav/users', user)).user.key,
    close: () => s.close(),
  };
}
