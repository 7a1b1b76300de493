// The SSH shutdown against a real OpenSSH server on loopback: sshd on a free port of 127.0.0.1
// with a throw-away host key and a throw-away client key (authorised for this sshd only, from a
// file in the test's temp folder). The console runs the device's command with the stored key
// (BatchMode, the host key pinned on first use in the module's own known_hosts) and reports a
// failing command's exit code.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { waitFor } from './wait.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

let dir: string;
let sshd: ChildProcess;
let port: number;
let s: TestServer;
let token: string;

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const p = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return p;
}

const accepts = (p: number) =>
  new Promise<boolean>((resolve) => {
    const c = net.connect(p, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

beforeAll(async () => {
  dir = await tempDir('lucky-wol-sshd-');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'client')]);
  await fs.copyFile(path.join(dir, 'client.pub'), path.join(dir, 'authorized_keys'));
  await fs.mkdir('/run/sshd', { recursive: true });
  port = await freePort();
  const config = [
    `ListenAddress 127.0.0.1:${port}`,
    `HostKey ${path.join(dir, 'host')}`,
    `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
    'StrictModes no',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'UsePAM no',
    'PidFile none',
  ].join('\n');
  await fs.writeFile(path.join(dir, 'sshd_config'), `${config}\n`);
  sshd = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: 'ignore' });
  await waitFor(() => accepts(port), { timeout: 10_000, what: 'sshd listening' });
  s = await startTestServer();
  token = await s.login();
}, 30_000);

afterAll(async () => {
  await s?.close();
  if (sshd && sshd.exitCode === null) {
    const exited = new Promise((r) => sshd.once('exit', r));
    sshd.kill();
    await exited;
  }
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('Wake-on-LAN shutdown over SSH', () => {
  it('runs the command with the stored key, pins the host key, and reports a failing exit code', async () => {
    const marker = path.join(dir, 'powered-off');
    const key = await fs.readFile(path.join(dir, 'client'), 'utf8');
    const device = (command: string) => ({
      name: 'ssh-box',
      macs: ['02:00:00:00:00:ee'],
      broadcast: '192.0.2.255',
      shutdown: { method: 'ssh', ssh: { host: '127.0.0.1', port, user: 'root', privateKey: key, command } },
    });
    const added = await s.call('POST', '/api/wol/devices', { token, body: device(`echo off > '${marker}'`) });
    expect(added.body.ret, JSON.stringify(added.body)).toBe(0);
    const dev: Json = added.body.device;
    expect(dev.shutdown.ssh.privateKey).toBe('******');
    const r = await s.call('POST', `/api/wol/devices/${dev.key}/shutdown`, { token });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ ret: 0, ok: true });
    expect(await fs.readFile(marker, 'utf8')).toBe('off\n');
    const knownHosts = await fs.readFile(path.join(s.configDir, 'wol', 'known_hosts'), 'utf8');
    const hostPub = (await fs.readFile(path.join(dir, 'host.pub'), 'utf8')).split(' ')[1];
    expect(knownHosts).toContain(hostPub);
    // No key file is left behind.
    expect((await fs.readdir('/tmp')).filter((f) => f.startsWith('lucky-wol-ssh-'))).toEqual([]);

    // The key sent back masked is kept; the command now fails with exit 3.
    const put = await s.call('PUT', `/api/wol/devices/${dev.key}`, {
      token,
      body: {
        ...device('echo nope >&2; exit 3'),
        shutdown: { ...dev.shutdown, ssh: { ...dev.shutdown.ssh, command: 'echo nope >&2; exit 3' } },
      },
    });
    expect(put.body.ret, JSON.stringify(put.body)).toBe(0);
    const failed = await s.call('POST', `/api/wol/devices/${dev.key}/shutdown`, { token });
    expect(failed.body).toMatchObject({
      ret: 0,
      ok: false,
      reason: { code: 'sshFailed', params: { code: 3, detail: 'nope' } },
    });
    expect(existsSync(marker)).toBe(true);
  });
});
