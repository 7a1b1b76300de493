// Helpers for the file manager's tests: a real console (the file manager is on by default), signed
// in, with local folders added as storages through storage management's API, JSON calls with the
// token, and raw HTTP requests for the byte routes (file, zip, thumb, uploads, share pages) whose
// answers are streams, ranges and headers rather than JSON.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { CoreOptions } from '../src/core/core.js';
import { startTestServer, type TestServer } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field in the tests
type Json = any;

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the console's token as Authorization (default true). */
  auth?: boolean;
}

export interface FbConsole {
  s: TestServer;
  /** The session token (the Authorization header's value). */
  token: string;
  /** The console's port on 127.0.0.1. */
  port: number;
  /** A temp folder for this console's storages (removed by close). */
  box: string;
  /** A JSON call with the token (`token: false` sends none). */
  call(
    method: string,
    path: string,
    body?: unknown,
    opts?: { token?: boolean },
  ): Promise<{ status: number; body: Json }>;
  /** A JSON call that must answer ret 0; the body. */
  ok(method: string, path: string, body?: unknown): Promise<Json>;
  /** One request on a new connection; the whole answer as bytes. */
  raw(path: string, o?: RawRequest): Promise<RawAnswer>;
  /** Adds a local folder in storage management (made when missing); its key. */
  addStorage(name: string, dir: string, readOnly?: boolean): Promise<string>;
  /** `?storage=…&path=…` style query string of these values (arrays repeat the key). */
  query(values: Record<string, string | number | string[] | undefined>): string;
  close(): Promise<void>;
}

/** `a=1&b=2&name=x&name=y`, every value percent-encoded. */
export function queryString(values: Record<string, string | number | string[] | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) q.append(k, x);
    else q.append(k, String(v));
  }
  return q.toString();
}

/** One HTTP request to 127.0.0.1:`port` on its own connection; the whole answer. */
export function rawRequest(port: number, p: string, o: RawRequest & { token?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = o.token;
    if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
    const req = http.request(
      { host: '127.0.0.1', port, path: p, method: o.method ?? 'GET', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${o.method ?? 'GET'} ${p}`)));
    req.end(o.body);
  });
}

/** A console signed in as the admin, with the file manager on and no storage yet. */
export async function startFbConsole(opts: Partial<CoreOptions> = {}): Promise<FbConsole> {
  const s = await startTestServer(opts);
  const token = await s.login();
  const box = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-filebrowser-'));
  const port = s.server.port;
  const call: FbConsole['call'] = async (method, p, body, o = {}) => {
    const r = await s.call(method, p, { token: o.token === false ? undefined : token, body });
    return { status: r.status, body: r.body };
  };
  const ok: FbConsole['ok'] = async (method, p, body) => {
    const r = await call(method, p, body);
    if (r.body?.ret !== 0) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  return {
    s,
    token,
    port,
    box,
    call,
    ok,
    raw: (p, o = {}) => rawRequest(port, p, { ...o, token: o.auth === false ? undefined : token }),
    addStorage: async (name, dir, readOnly = false) => {
      await fs.mkdir(dir, { recursive: true });
      const r = await ok('POST', '/api/storagemanagement/storages', {
        name,
        kind: 'local',
        readOnly,
        local: { path: dir },
      });
      return r.storage.key as string;
    },
    query: queryString,
    close: async () => {
      await s.close();
      await fs.rm(box, { recursive: true, force: true });
    },
  };
}
