// Helpers for the web service tests: a real server with THE module list, rule calls through the
// API, loopback back ends.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { b64, makeCert, type TestCert } from './certs-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

export { freePort } from './portforward-helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field in the tests
type Json = any;

export interface Rp {
  s: TestServer;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  addRule(rule: Record<string, unknown>): Promise<{ key: string; rule: Json }>;
  /** A new certificate for `names`, stored through the API (SNI picks it). */
  addCert(names: string[]): Promise<TestCert>;
  close(): Promise<void>;
}

export async function startRp(): Promise<Rp> {
  const s = await startTestServer();
  const token = await s.login();
  const call: Rp['call'] = (method, path, body) => s.call(method, path, { token, body });
  return {
    s,
    call,
    async addRule(rule) {
      const res = await call('POST', '/api/reverseproxy/rules', { address: '127.0.0.1', ...rule });
      expect(res.body.ret, JSON.stringify(res.body)).toBe(0);
      expect(res.body.rule.status.state, JSON.stringify(res.body.rule.status)).toBe('running');
      return { key: res.body.key, rule: res.body.rule };
    },
    async addCert(names) {
      const c = await makeCert(names);
      const res = await call('POST', '/api/ssl', { CertBase64: b64(c.cert), KeyBase64: b64(c.key) });
      expect(res.body.ret, JSON.stringify(res.body)).toBe(0);
      return c;
    },
    close: () => s.close(),
  };
}

export interface Backend {
  port: number;
  url: string;
  server: http.Server;
  hits: number;
  close(): Promise<void>;
}

/** An HTTP back end answering JSON {name, method, url, headers}; `handler` overrides. */
export async function backend(
  name: string,
  handler?: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Backend> {
  const sockets = new Set<net.Socket>();
  const b: Partial<Backend> = { hits: 0 };
  const server = http.createServer((req, res) => {
    b.hits = (b.hits ?? 0) + 1;
    if (handler) return handler(req, res);
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name, method: req.method, url: req.url, headers: req.headers }));
    });
  });
  server.on('connection', (c) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return Object.assign(b, {
    port,
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((r) => {
        for (const c of sockets) c.destroy();
        server.close(() => r());
      }),
  }) as Backend;
}

const run = promisify(execFile);

/** curl with `args`; answers status, headers text and body. */
export async function curl(args: string[]): Promise<{ status: number; headers: string; body: string }> {
  const { stdout } = await run('curl', ['-s', '-S', '-i', '--max-time', '10', ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
  // Skip interim 100 Continue blocks.
  let text = stdout;
  while (/^HTTP\/[\d.]+ 100/.test(text)) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const split = text.indexOf('\r\n\r\n');
  const headers = text.slice(0, split);
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(headers)?.[1] ?? 0);
  return { status, headers, body: text.slice(split + 4) };
}

/** curl with the body kept as bytes (written to a file by curl, then read back). */
export async function curlBytes(args: string[]): Promise<{ status: number; raw: Buffer }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-curl-'));
  try {
    const out = path.join(dir, 'body');
    const { stdout } = await run('curl', ['-s', '-S', '--max-time', '10', '-o', out, '-w', '%{http_code}', ...args]);
    return { status: Number(stdout), raw: await readFile(out) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A plain HTTP request with an explicit Host header (no DNS needed). */
export async function get(
  port: number,
  path: string,
  host: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method, headers: { host, ...headers }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
