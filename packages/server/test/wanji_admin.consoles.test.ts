import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_ROOT } from '../src/core/version.js';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { freePort } from './portforward-helpers.js';
import { waitFor } from './wait.js';
import { adminFingerprint } from './wanji_admin-helpers.js';

// Three real consoles on loopback: A (in-process) manages B — the BUILT program, a child process
// with its own config folder, HTTPS on its admin port, stopped and started again mid-test — and C
// (in-process). Everything goes through A's API with B's and C's API tokens.
const ENTRY = path.join(INSTALL_ROOT, 'packages/server/dist/main.js');
const run = promisify(execFile);

let a: TestServer;
let c: TestServer;
let session: string;
let bDir: string;
let bPort: number;
let bProc: ChildProcess | undefined;
let bKey: string;
let cKey: string;
const bBase = () => `http://127.0.0.1:${bPort}`;

async function startB(): Promise<void> {
  bProc = spawn(process.execPath, [ENTRY, '-p', String(bPort), '-cd', bDir, '--host', '127.0.0.1'], {
    stdio: 'ignore',
  });
  await waitFor(async () => (await fetch(`${bBase()}/api/health`)).ok, {
    timeout: 20_000,
    interval: 100,
    what: 'B up',
  });
}
async function stopB(): Promise<void> {
  const p = bProc;
  if (!p || p.exitCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await exited;
}
async function tokenOf(base: string): Promise<string> {
  const post = async (p: string, body: unknown, auth?: string) =>
    (
      await fetch(base + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify(body),
      })
    ).json();
  const login = await post('/api/login', { Account: '666', Password: '666' });
  return (await post('/api/apitokens', { name: 'manager A', currentPassword: '666' }, login.token)).token;
}
const call = (method: string, p: string, body?: unknown) =>
  a.call(method, `/api/wanji_admin${p}`, { token: session, body });
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
const list = async () => (await call('GET', '/consoles')).body.list as Record<string, any>[];
const refresh = async (key: string) => (await call('POST', `/consoles/${key}/refresh`)).body.console;

beforeAll(async () => {
  bDir = await tempDir('wanji-b-');
  bPort = await freePort();
  [a, c] = await Promise.all([startTestServer(), startTestServer(), startB()]);
  session = await a.login();
  const [bToken, cToken] = await Promise.all([tokenOf(bBase()), tokenOf(c.url)]);
  const pin = async (dir: string) => ({ mode: 'pin', fingerprint: await adminFingerprint(dir), ca: '' });
  await call('PUT', '/settings', { refreshSeconds: 5 });
  bKey = (
    await call('POST', '/consoles', {
      name: 'B',
      url: `https://127.0.0.1:${bPort}`,
      token: bToken,
      tls: await pin(bDir),
    })
  ).body.console.key;
  cKey = (
    await call('POST', '/consoles', {
      name: 'C',
      url: `https://localhost:${c.server.port}/`,
      token: cToken,
      tls: await pin(c.configDir),
    })
  ).body.console.key;
}, 40_000);
afterAll(async () => {
  await stopB();
  await Promise.all([a?.close(), c?.close()]);
  await fs.rm(bDir, { recursive: true, force: true });
});

describe('one console manages two', () => {
  it('reads both; tokens are masked and kept when sent back masked', async () => {
    const both = await waitFor(list, (l) => l.every((x) => x.reachable), { timeout: 15_000, what: 'B and C read' });
    const b = both.find((x) => x.key === bKey);
    expect(b).toMatchObject({ name: 'B', token: '******', failures: 0, summary: { version: expect.any(String) } });
    expect(b?.summary.modules.some((m: { key: string }) => m.key === 'wanji_admin')).toBe(true);
    const cNow = both.find((x) => x.key === cKey);
    expect(cNow?.url).toBe(`https://localhost:${c.server.port}`);
    const {
      key: _k,
      reachable: _r,
      reason: _re,
      lastSeen: _l,
      checkedAt: _c,
      nextCheckAt: _n,
      failures: _f,
      summary: _s,
      seenFingerprint: _p,
      ...input
    } = cNow as Record<string, unknown>;
    const put = await call('PUT', `/consoles/${cKey}`, { ...input, note: 'rack 2' });
    expect(put.body.console).toMatchObject({ note: 'rack 2', token: '******' });
    expect(await refresh(cKey)).toMatchObject({ reachable: true });
    // the stored file holds the real token, never the mask
    expect(a.server.core.modules.configOf<{ consoles: { token: string }[] }>('wanji_admin').consoles[1].token).toMatch(
      /^lkt_/,
    );
  });

  it('refuses bad input per field and saves nothing', async () => {
    const before = (await list()).length;
    const cases: [unknown, string, string][] = [
      [{ name: 'x', url: 'http://127.0.0.1:1', token: 't', tls: { mode: 'ca' } }, 'url', 'httpsRequired'],
      [{ name: 'x', url: 'https://127.0.0.1:1/?a=1', token: 't', tls: { mode: 'ca' } }, 'url', 'urlInvalid'],
      [{ name: 'x', url: 'https://127.0.0.1:1', token: '', tls: { mode: 'ca' } }, 'token', 'tokenRequired'],
      [
        { name: 'x', url: 'https://127.0.0.1:1', token: 't', tls: { mode: 'pin' } },
        'tls.fingerprint',
        'fingerprintRequired',
      ],
      [
        { name: 'x', url: 'https://127.0.0.1:1', token: 't', tls: { mode: 'pin', fingerprint: 'AB:CD' } },
        'tls.fingerprint',
        'fingerprintInvalid',
      ],
      [{ name: 'x', url: 'https://127.0.0.1:1', token: 't', tls: { mode: 'ca', ca: 'hello' } }, 'tls.ca', 'caInvalid'],
      [{ name: 'b', url: 'https://127.0.0.1:1', token: 't', tls: { mode: 'ca' } }, 'name', 'nameTaken'],
      [{ name: 'y', url: 'https://127.0.0.1:1', token: '******', tls: { mode: 'ca' } }, 'token', 'tokenRequired'],
    ];
    for (const [body, field, code] of cases) {
      const r = await call('POST', '/consoles', body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect([r.body.field, r.body.code]).toEqual([field, code]);
    }
    expect((await list()).length).toBe(before);
    // a console switched off: not read, said so, left out of bulk actions with that reason
    const off = await call('PUT', `/consoles/${cKey}/enable`, { enabled: false });
    expect(off.body.console).toMatchObject({ enabled: false, reachable: false, reason: { code: 'consoleDisabled' } });
    const skipped = await call('POST', '/bulk/module', { keys: [cKey], module: 'wol', enabled: false });
    expect(skipped.body.results[0]).toMatchObject({ ok: false, code: 'consoleDisabled' });
    await call('PUT', `/consoles/${cKey}/enable`, { enabled: true });
    const bulk = await call('POST', '/bulk/restart', { keys: ['nosuchkey'] });
    expect([bulk.status, bulk.body.field, bulk.body.code]).toEqual([404, 'keys', 'consoleNotFound']);
    const none = await call('POST', '/bulk/restart', { keys: [] });
    expect([none.body.field, none.body.code]).toEqual(['keys', 'keysRequired']);
  });

  it('a one-time login link into B signs in once', async () => {
    const link = await call('POST', `/consoles/${bKey}/login-link`);
    expect(link.body.url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${bPort}/#/login\\?ticket=`));
    const ticket = decodeURIComponent(new URL(link.body.url).hash.split('ticket=')[1]);
    const use = () =>
      fetch(`${bBase()}/api/login/ticket`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ticket }),
      });
    const first = await use();
    const token = (await first.json()).token;
    expect(token).toBeTruthy();
    expect((await (await fetch(`${bBase()}/api/modules/list`, { headers: { authorization: token } })).json()).ret).toBe(
      0,
    );
    const second = await use();
    expect(second.status).toBe(401);
    expect((await second.json()).code).toBe('ticketInvalid');
  });

  it("bulk module switch really changes C's module", async () => {
    const status = () => c.server.core.modules.status().find((m) => m.key === 'wol')?.state;
    expect(status()).not.toBe('disabled');
    const r = await call('POST', '/bulk/module', { keys: [cKey], module: 'wol', enabled: false });
    expect(r.body.results).toEqual([{ key: cKey, name: 'C', ok: true }]);
    expect(status()).toBe('disabled');
    const unknown = await call('POST', '/bulk/module', { keys: [cKey], module: 'nosuchmodule', enabled: true });
    expect(unknown.body.results[0]).toMatchObject({ ok: false, code: 'remoteRefused', params: { status: 404 } });
  });

  it('bulk restart restarts B (its startedAt changes)', async () => {
    const before = (await refresh(bKey)).summary.startedAt;
    const r = await call('POST', '/bulk/restart', { keys: [bKey] });
    expect(r.body.results).toEqual([{ key: bKey, name: 'B', ok: true }]);
    const after = await waitFor(
      () => refresh(bKey),
      (s) => s.reachable && s.summary.startedAt !== before,
      { timeout: 20_000, interval: 200, what: 'B restarted' },
    );
    expect(Date.parse(after.summary.startedAt)).toBeGreaterThan(Date.parse(before));
  }, 30_000);

  it('B stopped: connectRefused with back-off, the backup zip still comes; B started: read again', async () => {
    const pinBefore = await adminFingerprint(bDir);
    await stopB();
    const one = await refresh(bKey);
    expect(one).toMatchObject({ reachable: false, reason: { code: 'connectRefused', params: { port: bPort } } });
    const two = await refresh(bKey);
    expect(two.failures).toBe(one.failures + 1);
    // the wait doubles per failure from 5 s (5 · 2^n, at most 300 s)
    const wait = (s: { nextCheckAt: string; checkedAt: string }) => Date.parse(s.nextCheckAt) - Date.parse(s.checkedAt);
    expect(Math.round(wait(two) / 1000)).toBe(Math.min(300, 5 * 2 ** two.failures));
    // C still answers meanwhile
    expect(await refresh(cKey)).toMatchObject({ reachable: true });

    const res = await fetch(`${a.url}/api/wanji_admin/bulk/backup`, {
      method: 'POST',
      headers: { authorization: session, 'content-type': 'application/json' },
      body: JSON.stringify({ keys: [bKey, cKey] }),
    });
    expect(res.headers.get('content-type')).toBe('application/zip');
    const dir = await tempDir('wanji-zip-');
    try {
      const zip = path.join(dir, 'b.zip');
      await fs.writeFile(zip, Buffer.from(await res.arrayBuffer()));
      const names = (await run('unzip', ['-Z1', zip])).stdout.trim().split('\n').sort();
      expect(names).toEqual(['C.json', 'results.json']);
      const cBackup = JSON.parse((await run('unzip', ['-p', zip, 'C.json'])).stdout);
      expect(cBackup.auth.apiTokens.length).toBe(1);
      const results = JSON.parse((await run('unzip', ['-p', zip, 'results.json'])).stdout);
      expect(results).toEqual([
        expect.objectContaining({ key: bKey, name: 'B', ok: false, code: 'connectRefused' }),
        { key: cKey, name: 'C', ok: true },
      ]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }

    await startB();
    // same folder, same certificate: the pin holds
    expect(await adminFingerprint(bDir)).toBe(pinBefore);
    expect(await refresh(bKey)).toMatchObject({ reachable: true, failures: 0 });
  }, 40_000);
});
