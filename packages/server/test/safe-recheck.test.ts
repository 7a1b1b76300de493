// The security lists reach connections that are already open (core/safe/recheck.ts): a real server,
// clients on loopback from 127.0.0.2 (the one the lists will refuse) and 127.0.0.3 (stays allowed),
// each holding its connection or session open at the web service (HTTP/1.1 keep-alive and an h2c
// session, some of them served in a helper process), the WebDAV server, port forwarding (TCP and
// UDP) and the FTP server. A block-list entry saved through the config store closes 127.0.0.2's
// while 127.0.0.3 is served on its same connections; lifting it lets new connections in; wrong
// WebDAV passwords from 127.0.0.4 ban it and its other open connections close. Module start / stop
// cycles leave no subscription behind.
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { promises as fs } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FtpTestClient } from './ftp-client.js';
import { passiveRange } from './ftpserver-helpers.js';
import { echoServer, freePort, type Peer, tcpRule } from './portforward-helpers.js';
import { type SafeConsole, startSafeConsole } from './safe-listeners-helpers.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
const REFUSED = '127.0.0.2';
const KEPT = '127.0.0.3';
const BANNED = '127.0.0.4';
const DAV_AUTH = `Basic ${Buffer.from('alice:alice-password').toString('base64')}`;
const saved = { n: process.env.LUCKY_WEB_HELPERS, start: process.env.LUCKY_WEB_HELPERS_START };

let c: SafeConsole;
let box: string;
let webPort: number;
let davPort: number;
let pfPort: number;
let pfUdpPort: number;
let ftpPort: number;
let echo: Peer;
let udpEcho: dgram.Socket;

/** A kept-alive HTTP/1.1 connection from `from` that has had one answer. */
interface Held {
  socket: net.Socket;
  closed: boolean;
  /** Another request on the same connection: the answer's status (0: the connection is gone). */
  again(): Promise<number>;
}

function holdHttp(port: number, from: string, p = '/', auth?: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    const held: Held = { socket, closed: false, again: () => ask() };
    let text = '';
    let answered: ((status: number) => void) | undefined;
    const ask = () =>
      new Promise<number>((r) => {
        if (held.closed) return r(0);
        answered = r;
        text = '';
        socket.write(
          `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth ? `Authorization: ${auth}\r\n` : ''}Connection: keep-alive\r\n\r\n`,
        );
      });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      held.closed = true;
      answered?.(0);
      answered = undefined;
    });
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const len = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (end >= 0 && len >= 0 && text.length >= end + 4 + len) {
        const status = Number(text.slice(9, 12));
        answered?.(status);
        answered = undefined;
      }
    });
    socket.once('connect', () => {
      ask().then((status) => (status === 200 ? resolve(held) : reject(new Error(`first answer ${status}`))), reject);
    });
  });
}

/** An h2c session from `from` that has had one answer. */
async function holdH2(port: number, from: string) {
  const session = http2.connect(`http://127.0.0.1:${port}`, {
    createConnection: () => net.connect({ port, host: '127.0.0.1', localAddress: from }),
  });
  session.on('error', () => undefined);
  const state = { closed: false };
  session.on('close', () => {
    state.closed = true;
  });
  const get = () =>
    new Promise<number>((resolve) => {
      if (state.closed) return resolve(0);
      const req = session.request({ ':path': '/' });
      req.on('response', (h) => {
        req.resume();
        req.on('end', () => resolve(Number(h[':status'])));
      });
      req.on('error', () => resolve(0));
    });
  expect(await get()).toBe(200);
  return { state, get, close: () => session.destroy() };
}

/** A forwarded TCP connection from `from` to the echo server; `echo(text)` answers '' once it is gone. */
function holdTcp(port: number, from: string) {
  return new Promise<{ socket: net.Socket; closed: () => boolean; echo(t: string): Promise<string> }>(
    (resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
      let closed = false;
      let error = '';
      socket.on('error', (err: NodeJS.ErrnoException) => {
        error = err.code ?? err.message;
      });
      socket.on('close', () => {
        closed = true;
        reject(new Error(`closed before the first echo (${error})`));
      });
      const echoText = (t: string) =>
        new Promise<string>((r) => {
          if (closed) return r('');
          socket.once('data', (d) => r(d.toString()));
          socket.once('close', () => r(''));
          socket.write(t);
        });
      socket.once('connect', async () => {
        const first = await echoText('hello');
        if (first === 'hello') resolve({ socket, closed: () => closed, echo: echoText });
        else reject(new Error(`no echo (${error})`));
      });
    },
  );
}

/** A UDP client on `from`: `ask` answers the echo or '' when no reply comes within a second. */
async function udpFrom(from: string) {
  const sock = dgram.createSocket('udp4');
  await new Promise<void>((r) => sock.bind(0, from, r));
  const ask = (text: string) =>
    new Promise<string>((resolve) => {
      const timer = setTimeout(() => {
        sock.off('message', onMessage);
        resolve('');
      }, 1000);
      const onMessage = (m: Buffer) => {
        clearTimeout(timer);
        resolve(m.toString());
      };
      sock.once('message', onMessage);
      sock.send(text, pfUdpPort, '127.0.0.1');
    });
  return { ask, close: () => sock.close() };
}

/** UDP sessions of the port forwarding module now. */
function udpSessions(): number {
  const rt = c.s.server.core.modules.runtimeOf('portforward') as unknown as { summary(): { udpSessions: number } };
  return rt.summary().udpSessions;
}

/** PIDs of the processes holding the server side of established connections to `port` from `from`. */
async function owners(port: number, from: string): Promise<number[]> {
  const { stdout } = await run('ss', ['-tnpH', 'state', 'established', `( sport = :${port} and dst ${from} )`]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(/pid=(\d+)/.exec(line)?.[1] ?? 0));
}

const ok = async (method: string, p: string, body: unknown) => {
  const r = await c.call(method, p, body);
  expect(r.body.ret, `${method} ${p}: ${JSON.stringify(r.body)}`).toBe(0);
  return r.body;
};

beforeAll(async () => {
  // One helper process, started with the first rule: two of every three connections go there.
  process.env.LUCKY_WEB_HELPERS = '1';
  process.env.LUCKY_WEB_HELPERS_START = 'eager';
  box = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-safe-recheck-'));
  await fs.writeFile(path.join(box, 'hello.txt'), 'hello from the box');
  c = await startSafeConsole();
  webPort = await freePort();
  await ok('POST', '/api/reverseproxy/rules', {
    name: 'site',
    address: '',
    port: webPort,
    h2c: true,
    defaultRule: { serviceType: 'text', text: 'web ok' },
  });
  const storage = (
    await ok('POST', '/api/storagemanagement/storages', { name: 'box', kind: 'local', local: { path: box } })
  ).storage.key;
  davPort = await freePort();
  await ok('PUT', '/api/webdav/settings', { enabled: true, port: davPort, address: '', lanOnly: false });
  const mount = (await ok('POST', '/api/webdav/mounts', { name: 'files', storage })).mount.key;
  await ok('POST', '/api/webdav/users', { name: 'alice', password: 'alice-password', access: { [mount]: 'rw' } });
  echo = await echoServer();
  udpEcho = dgram.createSocket('udp4');
  udpEcho.on('message', (m, r) => udpEcho.send(m, r.port, r.address));
  await new Promise<void>((r) => udpEcho.bind(0, '127.0.0.1', r));
  await ok('PUT', '/api/portforward/settings', { enabled: true });
  pfPort = await freePort();
  pfUdpPort = await freePort();
  await ok('POST', '/api/portforward/rules', { name: 'tcp', ...tcpRule(pfPort, echo.port) });
  await ok('POST', '/api/portforward/rules', {
    name: 'udp',
    ...tcpRule(pfUdpPort, udpEcho.address().port),
    forwardTypes: ['udp4'],
  });
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
  await ok('POST', '/api/ftpserver/mounts', { name: 'files', storage });
  await waitFor(
    () => JSON.stringify(c.s.server.core.modules.status()),
    (s) => s.includes('"helperProcesses":1'),
    { timeout: 20_000, what: 'the web service helper process ready' },
  );
  await waitFor(
    async () => (await c.call('GET', '/api/webdav/status')).body.status?.state,
    (s) => s === 'running',
    { what: 'the WebDAV server running' },
  );
}, 60_000);

afterAll(async () => {
  await c?.close();
  await echo?.close();
  udpEcho?.close();
  await fs.rm(box, { recursive: true, force: true });
  process.env.LUCKY_WEB_HELPERS = saved.n;
  process.env.LUCKY_WEB_HELPERS_START = saved.start;
  if (saved.n === undefined) delete process.env.LUCKY_WEB_HELPERS;
  if (saved.start === undefined) delete process.env.LUCKY_WEB_HELPERS_START;
});

describe('a block-list entry saved while connections are open', () => {
  it('closes the blocked address’s connections and sessions on every listener; the other address is served on its own', async () => {
    // Three connections each to the web service: with one helper, two of them are the helper's.
    const webRefused = await Promise.all([0, 1, 2].map(() => holdHttp(webPort, REFUSED)));
    const webKept = await Promise.all([0, 1, 2].map(() => holdHttp(webPort, KEPT)));
    const pids = await waitFor(
      () => owners(webPort, REFUSED),
      (o) => o.length === 3 && o.every((p) => p > 0),
      { what: 'the three connections with their owners' },
    );
    expect(
      pids.some((p) => p !== process.pid),
      `owners ${pids}`,
    ).toBe(true);
    expect(pids).toContain(process.pid);
    const h2Refused = await holdH2(webPort, REFUSED);
    const h2Kept = await holdH2(webPort, KEPT);
    const davRefused = await holdHttp(davPort, REFUSED, '/files/hello.txt', DAV_AUTH);
    const davKept = await holdHttp(davPort, KEPT, '/files/hello.txt', DAV_AUTH);
    const tcpRefused = await holdTcp(pfPort, REFUSED);
    const tcpKept = await holdTcp(pfPort, KEPT);
    const udpRefused = await udpFrom(REFUSED);
    const udpKept = await udpFrom(KEPT);
    expect(await udpRefused.ask('u1')).toBe('u1');
    expect(await udpKept.ask('u2')).toBe('u2');
    expect(udpSessions()).toBe(2);
    const ftpRefused = await FtpTestClient.connect(ftpPort, '127.0.0.1', REFUSED);
    const ftpKept = await FtpTestClient.connect(ftpPort, '127.0.0.1', KEPT);
    expect((await ftpRefused.read())?.code).toBe(220);
    expect((await ftpKept.read())?.code).toBe(220);
    try {
      await c.block(REFUSED);

      await waitFor(() => webRefused.every((h) => h.closed), { what: 'the web service connections closed' });
      await waitFor(() => h2Refused.state.closed, { what: 'the h2c session closed' });
      await waitFor(() => davRefused.closed, { what: 'the WebDAV connection closed' });
      await waitFor(() => tcpRefused.closed(), { what: 'the forwarded TCP connection closed' });
      await waitFor(() => udpSessions() === 1, { what: 'the UDP session dropped' });
      const bye = await ftpRefused.read();
      expect(bye?.code).toBe(421);
      await waitFor(() => ftpRefused.closed, { what: 'the FTP session closed' });

      // The other address keeps its very connections.
      for (const h of webKept) expect(await h.again()).toBe(200);
      expect(await h2Kept.get()).toBe(200);
      expect(await davKept.again()).toBe(200);
      expect(await tcpKept.echo('still')).toBe('still');
      expect(await udpKept.ask('u3')).toBe('u3');
      expect((await ftpKept.cmd('NOOP')).code).toBe(200);
      // The refused one's next datagram opens no session.
      expect(await udpRefused.ask('u4')).toBe('');

      // Lifted: new connections get in again.
      await c.setSafe({ block: [] });
      const back = await holdHttp(webPort, REFUSED);
      expect(await back.again()).toBe(200);
      back.socket.destroy();
      expect(await (await holdTcp(pfPort, REFUSED)).echo('back')).toBe('back');
      expect(await udpRefused.ask('u5')).toBe('u5');
    } finally {
      for (const h of [...webRefused, ...webKept, davRefused, davKept]) h.socket.destroy();
      h2Refused.close();
      h2Kept.close();
      tcpRefused.socket.destroy();
      tcpKept.socket.destroy();
      udpRefused.close();
      udpKept.close();
      ftpRefused.close();
      ftpKept.close();
    }
  }, 30_000);
});

describe('an auto-ban', () => {
  it('wrong WebDAV passwords from one address close its other open connections', async () => {
    await c.setSafe({
      block: [],
      autoBan: { enabled: true, failures: 3, windowMinutes: 10, banMinutes: 5, banLan: true },
    });
    const web = await holdHttp(webPort, BANNED);
    const tcp = await holdTcp(pfPort, BANNED);
    const kept = await holdHttp(webPort, KEPT);
    const wrong = `Basic ${Buffer.from('alice:wrong').toString('base64')}`;
    for (let i = 0; i < 3; i++) {
      const guess = await new Promise<number>((resolve) => {
        const s = net.connect({ port: davPort, host: '127.0.0.1', localAddress: BANNED });
        s.on('error', () => resolve(0));
        s.on('data', (d) => {
          resolve(Number(d.toString('latin1').slice(9, 12)));
          s.destroy();
        });
        s.write(`GET /files/hello.txt HTTP/1.1\r\nHost: x\r\nAuthorization: ${wrong}\r\n\r\n`);
      });
      expect(guess).toBe(401);
    }
    try {
      expect(c.s.server.core.safe.decide(BANNED, 'webdav').rule).toBe('ban');
      await waitFor(() => web.closed, { what: 'the banned address’s web service connection closed' });
      await waitFor(() => tcp.closed(), { what: 'the banned address’s forwarded connection closed' });
      expect(await kept.again()).toBe(200);
    } finally {
      web.socket.destroy();
      tcp.socket.destroy();
      kept.socket.destroy();
      c.advance(5 * 60_000 + 1000);
    }
  }, 20_000);
});

describe('subscriptions', () => {
  it('are removed when a module stops: 100 start / stop cycles leave none behind', async () => {
    const gate = c.s.server.core.safe;
    const modules = c.s.server.core.modules;
    const before = gate.subscriberCount;
    await modules.stop('portforward');
    const without = gate.subscriberCount;
    expect(without).toBeLessThan(before);
    for (let i = 0; i < 100; i++) {
      await modules.start('portforward');
      await modules.stop('portforward');
    }
    expect(gate.subscriberCount).toBe(without);
    await modules.start('portforward');
    expect(gate.subscriberCount).toBe(before);
  }, 60_000);
});
