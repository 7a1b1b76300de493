import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CoreOptions } from '../src/core/core.js';
import { type RunningServer, startServer } from '../src/core/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
type Json = any;

export interface TestServer {
  server: RunningServer;
  url: string;
  configDir: string;
  restarts: number;
  /** fetch against the server, JSON in/out, with an optional token. */
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: Json; headers: Headers }>;
  login(account?: string, password?: string, code?: string): Promise<string>;
  close(): Promise<void>;
}

export async function tempDir(prefix = 'lucky-test-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** A real server on 127.0.0.1 and a free port, with its own temp config dir. */
export async function startTestServer(opts: Partial<CoreOptions> = {}): Promise<TestServer> {
  // Web service helper processes start under load (helperPool.ts): the tests that do not test them
  // keep every connection in this process, so timing never decides where a request is served.
  process.env.LUCKY_WEB_HELPERS ??= '0';
  const configDir = opts.configDir ?? (await tempDir());
  const t: Partial<TestServer> = { restarts: 0, configDir };
  const server = await startServer({
    configDir,
    port: 0,
    host: '127.0.0.1',
    stdoutLogs: false,
    onRestart: () => {
      t.restarts = (t.restarts ?? 0) + 1;
    },
    ...opts,
  });
  const url = `http://127.0.0.1:${server.port}`;
  const call: TestServer['call'] = async (method, p, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = o.token;
    let body: string | undefined;
    if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    const res = await fetch(url + p, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (static files, downloads)
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const login: TestServer['login'] = async (account = '666', password = '666', code) => {
    const r = await call('POST', '/api/login', { body: { Account: account, Password: password, TwoFACode: code } });
    if (r.body.ret !== 0) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
    return r.body.token as string;
  };
  Object.assign(t, {
    server,
    url,
    call,
    login,
    close: async () => {
      await server.close();
      if (!opts.configDir) await fs.rm(configDir, { recursive: true, force: true });
    },
  });
  return t as TestServer;
}
