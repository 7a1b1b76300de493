// Helpers for the DDNS tests: a real server whose ddns module has the test options (provider
// stubs, a faster clock), a fake public-IP echo, and a counting HTTP proxy in front of a provider
// API (webhook receivers: http-recorder.ts).
import http from 'node:http';
import { expect } from 'vitest';
import type { ModuleDefinition } from '../src/core/modules/types.js';
import { createDdnsModule, type DdnsModuleOptions } from '../src/modules/ddns/index.js';
import { modules } from '../src/modules/index.js';
import { startTestServer, type TestServer } from './harness.js';
import { listen } from './http-recorder.js';
import { waitFor } from './wait.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field in the tests
type Json = any;

export interface Ddns {
  s: TestServer;
  token: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  settings(body: Record<string, unknown>): Promise<Json>;
  addTask(task: Record<string, unknown>): Promise<{ key: string; task: Json }>;
  task(key: string): Promise<Json>;
  /** Polls the task until `ok` holds (or fails with the last state after `ms`). */
  waitTask(key: string, ok: (task: Json) => boolean, ms?: number): Promise<Json>;
  close(): Promise<void>;
}

/** `extra`: modules beside THE list (a probe that asks DDNS through its `ctx.actions`). */
export async function startDdns(options: DdnsModuleOptions = {}, extra: ModuleDefinition[] = []): Promise<Ddns> {
  const s = await startTestServer({
    modules: [...modules.map((m) => (m.key === 'ddns' ? createDdnsModule(options) : m)), ...extra],
  });
  const token = await s.login();
  const call: Ddns['call'] = (method, path, body) => s.call(method, path, { token, body });
  const d: Ddns = {
    s,
    token,
    call,
    async settings(body) {
      const r = await call('PUT', '/api/ddns/settings', body);
      expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
      return r.body.settings;
    },
    async addTask(task) {
      const r = await call('POST', '/api/ddns/tasks', task);
      expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
      return { key: r.body.key, task: r.body.task };
    },
    async task(key) {
      const r = await call('GET', `/api/ddns/tasks/${key}`);
      expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
      return r.body.task;
    },
    waitTask: (key, ok, ms = 10_000) =>
      waitFor(() => d.task(key), ok, { timeout: ms, interval: 50, what: `the state of task ${key}` }),
    close: () => s.close(),
  };
  return d;
}

export const statuses = (task: Json): string[] => task.state.domains.map((x: Json) => x.status);

/** A fake "what is my IP" page; `set` changes the answer, `hits` counts the calls. */
export async function ipEcho(initial: string, host = '127.0.0.1') {
  const state = { ip: initial, hits: 0, status: 200 };
  const server = http.createServer((_req, res) => {
    state.hits++;
    res.writeHead(state.status, { 'content-type': 'text/plain' });
    res.end(state.status === 200 ? `your address is ${state.ip}\n` : 'busy');
  });
  const port = await listen(server, host);
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    state,
    set: (ip: string) => {
      state.ip = ip;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Forwards to `target` and counts the requests (provider calls seen from outside the program). */
export async function countingProxy(target: string) {
  const t = new URL(target);
  const counter = { count: 0, paths: [] as string[] };
  const server = http.createServer((req, res) => {
    counter.count++;
    counter.paths.push(`${req.method} ${req.url}`);
    const up = http.request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    counter,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
