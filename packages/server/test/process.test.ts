import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTALL_ROOT } from '../src/core/version.js';
import { tempDir } from './harness.js';
import { waitFor } from './wait.js';

// These tests run the BUILT program (`npm test` builds first), as a user would.
const ENTRY = path.join(INSTALL_ROOT, 'packages/server/dist/main.js');
const run = promisify(execFile);
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function startProgram(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [ENTRY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

describe('the built program', () => {
  it('--help lists the flags; a bad flag exits 2 with a message', async () => {
    const { stdout } = await run(process.execPath, [ENTRY, '--help']);
    for (const flag of ['-p', '-cd', '--host', 'reset-login']) expect(stdout).toContain(flag);
    const bad = await run(process.execPath, [ENTRY, '-p', 'abc']).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a port/);
  });

  it('starts on -p/-cd, restarts on /api/reboot_program under the same parent, and keeps the session', async () => {
    const dir = await tempDir('lucky-proc-');
    const port = await freePort();
    const parent = startProgram(['-p', String(port), '-cd', dir, '--host', '127.0.0.1']);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${base}/version`)).ok, {
      timeout: 15_000,
      interval: 100,
      what: 'the server',
    });
    const login = await (
      await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"Account":"666","Password":"666"}',
      })
    ).json();
    const auth = { authorization: login.token };
    const before = (await (await fetch(`${base}/api/info`, { headers: auth })).json()).info;
    expect(before.ConfigDir).toBe(dir);
    expect((await (await fetch(`${base}/api/reboot_program`, { headers: auth })).json()).ret).toBe(0);
    const after = await waitFor(
      async () => {
        const info = (await (await fetch(`${base}/api/info`, { headers: auth })).json()).info;
        return info && info.PID !== before.PID ? info : undefined;
      },
      { timeout: 15_000, interval: 100, what: 'a new worker' },
    );
    expect(after.StartTime > before.StartTime).toBe(true);
    expect(parent.exitCode).toBeNull();
    // The log dialog sees a new starttime after the restart.
    parent.kill('SIGTERM');
    const code = await new Promise((r) => parent.once('exit', r));
    expect(code).toBe(0);
    await fs.rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('a taken port is a clear fatal error, not a restart loop', async () => {
    const dir = await tempDir('lucky-proc-');
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const port = (blocker.address() as net.AddressInfo).port;
    const child = startProgram(['-p', String(port), '-cd', dir, '--host', '127.0.0.1']);
    let stderr = '';
    child.stderr?.on('data', (b) => {
      stderr += b;
    });
    const code = await new Promise((r) => child.once('exit', r));
    blocker.close();
    expect(code).toBe(3);
    expect(stderr).toMatch(/already in use/);
    await fs.rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('reset-login restores 666/666 and turns 2FA off', async () => {
    const dir = await tempDir('lucky-proc-');
    const { startTestServer } = await import('./harness.js');
    const s = await startTestServer({ configDir: dir });
    const token = await s.login();
    await s.call('PUT', '/api/baseconfigure', {
      token,
      body: { adminAccount: 'boss', currentPassword: '666', newPassword: 'long-password' },
    });
    await s.server.close();
    await run(process.execPath, [ENTRY, 'reset-login', '-cd', dir]);
    const again = await startTestServer({ configDir: dir });
    try {
      expect((await again.call('GET', '/api/info', { token })).body.ret).toBe(-1);
      const t = await again.login('666', '666');
      const list = await again.call('GET', '/api/modules/list', { token: t });
      expect(list.body.u).toMatchObject({ account: '666', passwordIsDefault: true, twoFAEnable: false });
    } finally {
      await again.close();
    }
  }, 30_000);
});
