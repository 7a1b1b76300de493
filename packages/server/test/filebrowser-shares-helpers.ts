// Helpers for the share-link tests: a signed-in console with local storages added in storage
// management, and raw HTTP requests (bytes kept, chosen loopback source address, any header).
import http from 'node:http';
import { startTestServer, type TestServer } from './harness.js';

export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Source address (127.0.0.x: another client). */
  from?: string;
}

/** One request on its own connection, the path sent exactly as given (no client-side normalising). */
export function raw(port: number, path: string, o: RawOptions = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...o.headers };
    if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
    const req = http.request(
      { host: '127.0.0.1', port, path, method: o.method ?? 'GET', headers, localAddress: o.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${path}`)));
    req.end(o.body);
  });
}

/** The password form's post. */
export const postPassword = (port: number, id: string, password: string, o: RawOptions = {}) =>
  raw(port, `/s/${id}`, {
    ...o,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...o.headers },
    body: new URLSearchParams({ password }).toString(),
  });

/** `name=value` of a Set-Cookie answer, for the next request's Cookie header. */
export const cookieOf = (r: Raw): string => String(r.headers['set-cookie']?.[0] ?? '').split(';')[0];

export interface ShareConsole {
  s: TestServer;
  port: number;
  token: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  addStorage(name: string, dir: string, readOnly?: boolean): Promise<string>;
  /** A share made through the API; its view. */
  // biome-ignore lint/suspicious/noExplicitAny: the view as JSON
  share(body: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

export async function startShareConsole(opts: Parameters<typeof startTestServer>[0] = {}): Promise<ShareConsole> {
  const s = await startTestServer(opts);
  const token = await s.login();
  const call: ShareConsole['call'] = (method, p, body) => s.call(method, p, { token, body });
  const ok = async (method: string, p: string, body?: unknown) => {
    const r = await call(method, p, body);
    if (r.body?.ret !== 0) throw new Error(`${method} ${p}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  return {
    s,
    port: s.server.port,
    token,
    call,
    addStorage: async (name, dir, readOnly = false) =>
      (await ok('POST', '/api/storagemanagement/storages', { name, kind: 'local', readOnly, local: { path: dir } }))
        .storage.key,
    share: async (body) => (await ok('POST', '/api/filebrowser/shares', body)).share,
    close: () => s.close(),
  };
}
