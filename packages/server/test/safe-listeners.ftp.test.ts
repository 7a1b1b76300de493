// The security lists at the FTP server's control listener, with curl as the client from a network
// namespace (198.18.3.0/24, not LAN) and a raw TCP probe: a block-list entry resets the control
// connection at accept (no 220 greeting) while a loopback client signs in; `exempt` lets the
// outside client in; three wrong FTP passwords (counted through the module's password checks) ban
// it on the FTP server and on the console's own listener until the ban's time has passed.
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FtpTestClient } from './ftp-client.js';
import { runTool } from './ftp-tools.js';
import { passiveRange } from './ftpserver-helpers.js';
import { freePort } from './portforward-helpers.js';
import { type Outside, outsideClient, type SafeConsole, startSafeConsole } from './safe-listeners-helpers.js';
import { waitFor } from './wait.js';

const BAN_MINUTES = 5;

let c: SafeConsole;
let out: Outside;
let box: string;
let ftpPort: number;

/** curl's FTP listing of `/` from the namespace: its exit code, the last reply code and the listing. */
async function outsideList(password = 'alice-pw'): Promise<{ exit: number; reply: string; listing: string }> {
  const r = await runTool(
    'ip',
    [
      'netns',
      'exec',
      out.ns.name,
      'curl',
      '-sS',
      '--max-time',
      '10',
      '--user',
      `alice:${password}`,
      '-w',
      '\n%{response_code}',
      `ftp://${out.ns.gateway}:${ftpPort}/`,
    ],
    { timeoutMs: 15_000 },
  );
  const cut = r.stdout.lastIndexOf('\n');
  return { exit: r.code, reply: r.stdout.slice(cut + 1), listing: r.stdout.slice(0, cut) };
}

/** The greeting a loopback client gets. */
function localGreeting(): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(ftpPort, '127.0.0.1');
    s.setEncoding('utf8');
    s.once('data', (d: string) => {
      s.end('QUIT\r\n');
      resolve(d);
    });
    s.on('error', reject);
  });
}

beforeAll(async () => {
  box = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-safe-ftp-'));
  await fs.writeFile(path.join(box, 'hello.txt'), 'hello');
  out = await outsideClient('lksff', '198.18.3');
  c = await startSafeConsole();
  const ok = async (method: string, p: string, body: unknown) => {
    const r = await c.call(method, p, body);
    expect(r.body.ret, `${method} ${p}: ${JSON.stringify(r.body)}`).toBe(0);
    return r.body;
  };
  const storage = (
    await ok('POST', '/api/storagemanagement/storages', { name: 'box', kind: 'local', local: { path: box } })
  ).storage.key;
  ftpPort = await freePort();
  const passive = passiveRange();
  await ok('PUT', '/api/ftpserver/settings', {
    enabled: true,
    port: ftpPort,
    address: '',
    lanOnly: false,
    tls: { mode: 'off' },
    passive: { portMin: passive.min, portMax: passive.max },
  });
  const mount = (await ok('POST', '/api/ftpserver/mounts', { name: 'files', storage })).mount.key;
  await ok('POST', '/api/ftpserver/users', { name: 'alice', password: 'alice-pw', access: { [mount]: 'rw' } });
  await waitFor(
    async () => (await c.call('GET', '/api/ftpserver/status')).body.status?.listening,
    (listening) => listening === true,
    { what: 'the FTP server running' },
  );
  const first = await outsideList();
  expect(first, JSON.stringify(first)).toMatchObject({ exit: 0, reply: '226' });
  expect(first.listing).toContain('files');
}, 40_000);

afterAll(async () => {
  await c?.close();
  out?.close();
  await fs.rm(box, { recursive: true, force: true });
});

describe('a block-list entry for the outside address', () => {
  it('resets its control connection at accept, before the greeting; a loopback client is greeted', async () => {
    await c.block(out.ns.outside);
    await c.mark();
    expect(await out.agent.tcpQuery({ address: out.ns.gateway, port: ftpPort })).toEqual({ error: 'ECONNRESET' });
    await c.refusalLogged(out.ns.outside, 'ftpserver', 'block');
    const refused = await outsideList();
    expect(refused.exit).not.toBe(0);
    expect(refused.reply).toBe('000');
    expect(await localGreeting()).toMatch(/^220 /);
  });

  it('with the FTP server in `exempt` it signs in and lists', async () => {
    await c.setSafe({ exempt: ['ftpserver'] });
    const r = await outsideList();
    expect(r, JSON.stringify(r)).toMatchObject({ exit: 0, reply: '226' });
    await c.setSafe({ exempt: [], block: [] });
  });
});

describe('auto-ban', () => {
  it('three wrong FTP passwords ban it on the FTP server and the console’s listener; the ban ends after its time', async () => {
    await c.setSafe({
      block: [],
      autoBan: { enabled: true, failures: 3, windowMinutes: 10, banMinutes: BAN_MINUTES, banLan: false },
    });
    // curl: exit 67 is "login denied", the server's 530.
    for (let i = 0; i < 3; i++) expect(await outsideList(`wrong-${i}`)).toMatchObject({ exit: 67, reply: '530' });
    expect(c.s.server.core.safe.decide(out.ns.outside, 'ftpserver').rule).toBe('ban');
    expect(await out.agent.tcpQuery({ address: out.ns.gateway, port: ftpPort })).toEqual({ error: 'ECONNRESET' });
    expect(await out.agent.tcpQuery({ address: out.ns.gateway, port: c.port })).toEqual({ error: 'ECONNRESET' });
    expect(await localGreeting()).toMatch(/^220 /);
    c.advance(BAN_MINUTES * 60_000 + 1000);
    expect(await outsideList()).toMatchObject({ exit: 0, reply: '226' });
  });

  it('the session whose wrong password got its address banned is closed at once', async () => {
    // Loopback is LAN: banned only with banLan. Two failures ban, below the server's own
    // per-connection limit of three, so the close is the ban's.
    await c.setSafe({
      autoBan: { enabled: true, failures: 2, windowMinutes: 10, banMinutes: BAN_MINUTES, banLan: true },
    });
    const ftp = await FtpTestClient.connect(ftpPort, '127.0.0.1', '127.0.0.7');
    try {
      expect((await ftp.read()).code).toBe(220);
      expect((await ftp.login('alice', 'wrong-a')).code).toBe(530);
      expect((await ftp.login('alice', 'wrong-b')).code).toBe(530);
      const closing = await ftp.read();
      expect(closing.code).toBe(421);
      expect(closing.text).toContain('refused');
      await waitFor(() => ftp.closed, { what: 'the session closed' });
    } finally {
      ftp.close();
    }
    expect(c.s.server.core.safe.decide('127.0.0.7', 'ftpserver').rule).toBe('ban');
    c.advance(BAN_MINUTES * 60_000 + 1000);
  });
});
