// The security lists at the HTTP listeners: a web service rule (basic auth on its site), the WebDAV
// server and the file manager's share links on the console's own listener. One console on every
// address, one outside client in a network namespace (198.18.2.0/24, not LAN) using curl and a raw
// TCP probe. A block-list entry refuses the outside client at accept (reset, no HTTP byte) while a
// loopback client is served; the modules in `exempt` let it in; auto-ban: three wrong basic-auth,
// WebDAV or share-link passwords ban the address on every listener until the ban's time has passed
// on the console's clock (moved by the test).
import { promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './portforward-helpers.js';
import { type Outside, outsideClient, type SafeConsole, startSafeConsole } from './safe-listeners-helpers.js';
import { waitFor } from './wait.js';

const WEB_AUTH = 'u:web-secret';
const DAV_AUTH = 'alice:alice-password';
const BAN_MINUTES = 5;

let c: SafeConsole;
let out: Outside;
let box: string;
let webPort: number;
let davPort: number;
/** A share without a password and one with. */
let openShare: string;
let lockedShare: string;

/** One request from loopback on its own connection; status 0 when the connection was cut. */
function local(port: number, p: string, auth?: string): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (auth) headers.authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
    const req = http.get({ host: '127.0.0.1', port, path: p, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

const web = (auth = WEB_AUTH) => out.ns.curl(`http://${out.ns.gateway}:${webPort}/`, ['-u', auth]);
const dav = (auth = DAV_AUTH) => out.ns.curl(`http://${out.ns.gateway}:${davPort}/files/hello.txt`, ['-u', auth]);
const share = (id = openShare) => out.ns.curl(`http://${out.ns.gateway}:${c.port}/s/${id}`);
const sharePassword = (password: string) =>
  out.ns.curl(`http://${out.ns.gateway}:${c.port}/s/${lockedShare}`, ['-d', `password=${password}`]);

beforeAll(async () => {
  box = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-safe-http-'));
  await fs.writeFile(path.join(box, 'hello.txt'), 'hello from the box');
  out = await outsideClient('lksfh', '198.18.2');
  c = await startSafeConsole();
  const ok = async (method: string, p: string, body: unknown) => {
    const r = await c.call(method, p, body);
    expect(r.body.ret, `${method} ${p}: ${JSON.stringify(r.body)}`).toBe(0);
    return r.body;
  };
  webPort = await freePort();
  await ok('POST', '/api/reverseproxy/rules', {
    name: 'site',
    address: '',
    port: webPort,
    defaultRule: {
      serviceType: 'text',
      text: 'web ok',
      basicAuth: { enabled: true, user: 'u', password: 'web-secret', paths: [] },
    },
  });
  const storage = (
    await ok('POST', '/api/storagemanagement/storages', { name: 'box', kind: 'local', local: { path: box } })
  ).storage.key;
  davPort = await freePort();
  await ok('PUT', '/api/webdav/settings', { enabled: true, port: davPort, address: '', lanOnly: false });
  const mount = (await ok('POST', '/api/webdav/mounts', { name: 'files', storage })).mount.key;
  await ok('POST', '/api/webdav/users', { name: 'alice', password: 'alice-password', access: { [mount]: 'rw' } });
  openShare = (await ok('POST', '/api/filebrowser/shares', { storage, path: '/' })).share.id;
  lockedShare = (await ok('POST', '/api/filebrowser/shares', { storage, path: '/', password: 'share-secret' })).share
    .id;
  await waitFor(
    async () => (await c.call('GET', '/api/webdav/status')).body.status?.state,
    (s) => s === 'running',
    { what: 'the WebDAV server running' },
  );
  // Everything answers the outside client before the lists say anything.
  expect((await web()).body).toBe('web ok');
  expect((await dav()).body).toBe('hello from the box');
  expect((await share()).status).toBe(200);
}, 40_000);

afterAll(async () => {
  await c?.close();
  out?.close();
  await fs.rm(box, { recursive: true, force: true });
});

describe('a block-list entry for the outside address', () => {
  beforeAll(async () => {
    await c.block(out.ns.outside);
  });

  it('the web service resets it at accept, before TLS or HTTP; loopback is still served', async () => {
    await c.mark();
    expect(await out.agent.tcpQuery({ address: out.ns.gateway, port: webPort })).toEqual({ error: 'ECONNRESET' });
    await c.refusalLogged(out.ns.outside, 'reverseproxy', 'block');
    expect((await web()).status).toBe(0);
    expect(await local(webPort, '/', WEB_AUTH)).toBe(200);
  });

  it('the WebDAV server resets it at accept; loopback is still served', async () => {
    await c.mark();
    expect(await out.agent.tcpQuery({ address: out.ns.gateway, port: davPort })).toEqual({ error: 'ECONNRESET' });
    await c.refusalLogged(out.ns.outside, 'webdav', 'block');
    expect((await dav()).status).toBe(0);
    expect(await local(davPort, '/files/hello.txt', DAV_AUTH)).toBe(200);
  });

  it('the console’s listener, where share links are, resets it at accept; loopback still opens them', async () => {
    await c.mark();
    expect(await out.agent.tcpQuery({ address: out.ns.gateway, port: c.port })).toEqual({ error: 'ECONNRESET' });
    await c.refusalLogged(out.ns.outside, 'admin', 'block');
    expect((await share()).status).toBe(0);
    expect(await local(c.port, `/s/${openShare}`)).toBe(200);
  });

  it('a module in `exempt` lets it in there and nowhere else', async () => {
    await c.setSafe({ exempt: ['reverseproxy'] });
    expect((await web()).body).toBe('web ok');
    expect((await dav()).status).toBe(0);
    await c.setSafe({ exempt: ['webdav'] });
    expect((await dav()).body).toBe('hello from the box');
    expect((await share()).status).toBe(0);
    // The console's listener lets a peer in for the public pages of a module that admits it; the
    // console itself stays closed to it (403 from the request gate).
    await c.setSafe({ exempt: ['filebrowser'] });
    expect((await share()).status).toBe(200);
    expect((await out.ns.curl(`http://${out.ns.gateway}:${c.port}/api/health`)).status).toBe(403);
    expect((await web()).status).toBe(0);
    await c.setSafe({ exempt: [], block: [] });
  });
});

describe('auto-ban from failed sign-ins on each service', () => {
  beforeAll(async () => {
    await c.setSafe({
      block: [],
      autoBan: { enabled: true, failures: 3, windowMinutes: 10, banMinutes: BAN_MINUTES, banLan: false },
    });
  });

  /** Banned everywhere in this file: the three HTTP listeners refuse the outside address. */
  async function bannedEverywhere(): Promise<void> {
    expect(c.s.server.core.safe.decide(out.ns.outside, 'webdav').rule).toBe('ban');
    expect((await web()).status).toBe(0);
    expect((await dav()).status).toBe(0);
    expect((await share()).status).toBe(0);
    // The owner on loopback (LAN: never banned by default) is served throughout.
    expect(await local(webPort, '/', WEB_AUTH)).toBe(200);
  }

  /** The ban's time passes on the console's clock: the address gets in again. */
  async function liftedAfterItsTime(): Promise<void> {
    c.advance(BAN_MINUTES * 60_000 + 1000);
    expect((await web()).body).toBe('web ok');
    expect((await dav()).body).toBe('hello from the box');
    // Past the failure window too, so the next service starts counting from zero.
    c.advance(10 * 60_000);
  }

  it('three wrong basic-auth passwords of a web service rule ban it; a request without credentials does not count', async () => {
    for (let i = 0; i < 4; i++) expect((await out.ns.curl(`http://${out.ns.gateway}:${webPort}/`)).status).toBe(401);
    expect(c.s.server.core.safe.decide(out.ns.outside, 'reverseproxy').allowed).toBe(true);
    for (let i = 0; i < 3; i++) expect((await web(`u:wrong-${i}`)).status).toBe(401);
    await bannedEverywhere();
    await liftedAfterItsTime();
  });

  it('three wrong WebDAV passwords ban it (counted through the module’s password checks)', async () => {
    for (let i = 0; i < 3; i++) expect((await dav(`alice:wrong-${i}`)).status).toBe(401);
    await bannedEverywhere();
    await liftedAfterItsTime();
  });

  it('three wrong share-link passwords ban it', async () => {
    for (let i = 0; i < 3; i++) expect((await sharePassword(`wrong-${i}`)).status).toBe(401);
    await bannedEverywhere();
    await liftedAfterItsTime();
  });
});

describe('a kept-alive connection that bans its own address', () => {
  // From loopback (LAN: banned only with banLan): one connection carries every request.
  const FROM = '127.0.0.8';
  let agent: http.Agent;
  beforeAll(async () => {
    c.advance(20 * 60_000);
    await c.setSafe({
      autoBan: { enabled: true, failures: 3, windowMinutes: 10, banMinutes: BAN_MINUTES, banLan: true },
    });
  });
  afterAll(() => {
    c.advance(BAN_MINUTES * 60_000 + 1000);
  });

  /** A request on the agent's one kept-alive connection: the status and that connection's local port. */
  function keptAlive(port: number, p: string, auth: string): Promise<{ status: number; via: number }> {
    return new Promise((resolve) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port,
          path: p,
          agent,
          localAddress: FROM,
          headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
        },
        (res) => {
          // Read now: the socket goes back to the agent's pool once the answer has ended.
          const via = res.socket.localPort ?? 0;
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, via }));
        },
      );
      req.on('error', () => resolve({ status: 0, via: 0 }));
    });
  }

  it('web service: the banning guess ends the connection, so no further guess gets an answer', async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await keptAlive(webPort, '/', 'u:wrong-1');
      expect(first.status).toBe(401);
      expect((await keptAlive(webPort, '/', 'u:wrong-2')).via).toBe(first.via);
      expect((await keptAlive(webPort, '/', 'u:wrong-3')).status).toBe(401);
      // A new connection is needed now, and it is reset at accept.
      expect((await keptAlive(webPort, '/', 'u:web-secret')).status).toBe(0);
    } finally {
      agent.destroy();
    }
  });

  it('WebDAV: the banning guess ends the kept-alive connection (the lists re-check open ones), a new one is reset', async () => {
    c.advance(BAN_MINUTES * 60_000 + 10 * 60_000);
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await keptAlive(davPort, '/files/hello.txt', 'alice:wrong-1');
      expect(first.status).toBe(401);
      expect((await keptAlive(davPort, '/files/hello.txt', 'alice:wrong-2')).status).toBe(401);
      expect((await keptAlive(davPort, '/files/hello.txt', 'alice:wrong-3')).status).toBe(401);
      // The ban's change notice reset the connection after its 401; a new one is reset at accept.
      const after = await keptAlive(davPort, '/files/hello.txt', DAV_AUTH);
      expect(after).toEqual({ status: 0, via: 0 });
    } finally {
      agent.destroy();
    }
  });
});
