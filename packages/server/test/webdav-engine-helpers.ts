// The WebDAV engine on the serving toolkit's listener, as the module runs it but without users:
// one HttpListener on 127.0.0.1, local storages in temp folders, a fixed user and access per
// mount. Real clients (litmus, curl, rclone) talk to it over loopback.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ConnectionGuard, defaultLimits } from '../src/core/net/connGuard.js';
import { isLanAddress } from '../src/core/net/lan.js';
import { HttpListener } from '../src/core/serve/listener.js';
import type { ServeRequest } from '../src/core/serve/request.js';
import { createLocalStorage } from '../src/core/storage/local.js';
import type { Storage } from '../src/core/storage/types.js';
import { createDavHandler } from '../src/modules/webdav/dav/handler.js';
import { LockManager } from '../src/modules/webdav/dav/locks.js';
import type { DavEvent } from '../src/modules/webdav/dav/types.js';
import { tempDir } from './harness.js';

export interface MountSpec {
  name: string;
  /** Storage key (two mounts may share one). */
  storage: string;
  /** Default 'rw'; 'none': the user cannot see it. */
  access?: 'rw' | 'ro' | 'none';
  /** The storage refuses writes itself. */
  readOnly?: boolean;
}

export interface DavServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The folder of each storage key. */
  roots: Map<string, string>;
  storages: Map<string, Storage>;
  locks: LockManager;
  events: DavEvent[];
  close(): Promise<void>;
}

export async function startDav(
  opts: {
    prefix?: string;
    mounts?: MountSpec[];
    user?: string;
    /** Folders to use as storage roots (else fresh temp folders). */
    roots?: Record<string, string>;
    locks?: LockManager;
    /** Replace a storage (a test's stand-in that fails on purpose). */
    wrap?: (s: Storage) => Storage;
    /** Take HTTP/2 by prior knowledge (h2c) too. */
    h2c?: boolean;
    /** Sees every request before the engine (a test that watches the server's side of a connection). */
    onRequest?: (req: ServeRequest) => void;
  } = {},
): Promise<DavServer> {
  const prefix = opts.prefix ?? '/dav';
  const mounts = opts.mounts ?? [{ name: 'files', storage: 'main' }];
  const roots = new Map<string, string>();
  const storages = new Map<string, Storage>();
  const made: string[] = [];
  for (const m of mounts) {
    if (storages.has(m.storage)) continue;
    let root = opts.roots?.[m.storage];
    if (!root) {
      root = await tempDir('lucky-dav-');
      made.push(root);
    }
    roots.set(m.storage, root);
    const local = createLocalStorage({ key: m.storage, root, readOnly: !!m.readOnly });
    storages.set(m.storage, opts.wrap ? opts.wrap(local) : local);
  }
  const locks = opts.locks ?? new LockManager();
  const events: DavEvent[] = [];
  const handler = createDavHandler({
    prefix,
    mounts: () => mounts.map((m) => ({ name: m.name, storageKey: m.storage })),
    storage: (key) => storages.get(key),
    locks,
    log: (e) => events.push(e),
  });
  const access = new Map(mounts.map((m) => [m.name, m.access ?? 'rw'] as const));
  const who = {
    user: opts.user ?? 'tester',
    access: (name: string) => {
      const a = access.get(name);
      return a === 'none' ? undefined : a;
    },
  };
  const guard = new ConnectionGuard('webdav test', defaultLimits, isLanAddress, () => undefined);
  const listener = new HttpListener(
    {
      onRequest: (req, res) => {
        opts.onRequest?.(req);
        handler(req, res, who);
      },
      onUpgrade: (_req, socket) => socket.destroy(),
    },
    undefined,
    { listenTypes: 'http', minTlsVersion: 'TLSv1.2', http2: false, h2c: !!opts.h2c, proxyProtocolFrom: [] },
    undefined,
    guard,
  );
  const port = await listener.listen(0, '127.0.0.1');
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    roots,
    storages,
    locks,
    events,
    async close() {
      await listener.close();
      for (const d of made) await fs.rm(d, { recursive: true, force: true });
    },
  };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a client program (never through a shell); its exit code is part of the answer, not an error. */
export function run(
  cmd: string,
  args: string[],
  opts: { timeoutMs?: number; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024, cwd: opts.cwd, env: opts.env ?? process.env },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as NodeJS.ErrnoException).code === 'number'
            ? Number((err as NodeJS.ErrnoException).code)
            : null
          : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** A file's bytes under a storage root. */
export const readUnder = (root: string, rel: string) => fs.readFile(path.join(root, rel));

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** One request with any method (fetch takes WebDAV's methods as they are). */
export async function dav(
  server: DavServer,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> } = {},
): Promise<Answer> {
  const res = await fetch(server.origin + path, { method, headers: opts.headers, body: opts.body });
  return { status: res.status, headers: res.headers, body: await res.text() };
}
