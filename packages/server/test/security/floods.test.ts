// Connection floods on every listener (issue 12 §4): per-address and total caps at accept,
// non-LAN peers reset before TLS when internet access is off, handshake and header time-outs a
// trickling peer cannot stretch, and port forwarding's per-address cap and idle time-out.
// Flooders bind loopback addresses of their own (127.0.0.2 …), so "another client" is another
// address, as on a real network; the non-LAN peer lives in a network namespace of the test's own.
import { type ChildProcess, execFile, execFileSync, fork } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import {
  closedWithin,
  connect,
  echoOnce,
  echoServer,
  type Peer,
  type Pf,
  roundTrip,
  startPf,
  tcpRule as tcpRuleTo,
} from '../portforward-helpers.js';
import { type Backend, backend, freePort, type Rp, startRp } from '../reverseproxy-helpers.js';
import { waitFor } from '../wait.js';

const run = promisify(execFile);
const FLOODER = new URL('./flooder.mjs', import.meta.url).pathname;

/** Flooding clients in another process (flooder.mjs): its connections, open until `end`. */
interface RemoteFlood {
  opened: number;
  /** Connections the server has not closed, counted in the flooder now. */
  open(): Promise<number>;
  end(): void;
}

async function remoteFlood(port: number, count: number, localAddress: string, head: string): Promise<RemoteFlood> {
  const child: ChildProcess = fork(FLOODER, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (m: object) =>
    new Promise<{ opened: number; open: number }>((resolve) => {
      child.once('message', resolve);
      child.send(m);
    });
  const first = await ask({ t: 'flood', port, count, localAddress, head, batch: 250 });
  return {
    opened: first.opened,
    open: async () => (await ask({ t: 'count' })).open,
    end: () => child.kill(),
  };
}

interface Flood {
  sockets: net.Socket[];
  /** Sockets the server has not closed. */
  open(): number;
  end(): void;
}

/**
 * `count` connections from `localAddress`, each sending the start of a request head and nothing
 * more (slowloris), opened `batch` at a time so the listen backlog is never what refuses them.
 */
async function flood(port: number, count: number, localAddress: string, head: string, batch = 250): Promise<Flood> {
  const sockets: net.Socket[] = [];
  let closed = 0;
  for (let i = 0; i < count; i += batch) {
    const wave: Promise<void>[] = [];
    for (let j = i; j < Math.min(count, i + batch); j++) {
      wave.push(
        new Promise<void>((resolve) => {
          const c = net.connect({ port, host: '127.0.0.1', localAddress });
          sockets.push(c);
          c.on('error', () => undefined);
          c.once('connect', () => {
            c.write(head);
            resolve();
          });
          c.once('close', () => {
            closed++;
            resolve();
          });
        }),
      );
    }
    await Promise.all(wave);
  }
  return {
    sockets,
    open: () => sockets.length - closed,
    end: () => {
      for (const c of sockets) c.destroy();
    },
  };
}

/** One HTTP/1.1 request from `localAddress`; resolves with status, body and the time it took. */
function request(
  port: number,
  path: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, localAddress, headers, agent: false, timeout: 5000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - t0 }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in 5 s')));
    req.on('error', reject);
    req.end();
  });
}

/** Writes `filler` one byte every `everyMs` until the socket closes; resolves with how long it lived. */
function trickle(c: net.Socket, start: Buffer | string, everyMs = 200): Promise<number> {
  const t0 = performance.now();
  c.write(start);
  const timer = setInterval(() => {
    if (!c.destroyed) c.write('a');
  }, everyMs);
  return new Promise((resolve) => {
    c.on('error', () => undefined);
    c.once('close', () => {
      clearInterval(timer);
      resolve(performance.now() - t0);
    });
    c.resume();
  });
}

const SLOW_HEAD = 'GET / HTTP/1.1\r\nHost: app.test\r\nX-Slow: ';

describe('web service and admin under a slowloris flood', () => {
  let rp: Rp;
  let token: string;
  let up: Backend;
  let port: number;
  beforeAll(async () => {
    rp = await startRp();
    token = await rp.s.login();
    up = await backend('up');
    port = await freePort();
    await rp.addRule({ port, defaultRule: { serviceType: 'proxy', targets: [up.url] } });
  });
  afterAll(async () => {
    await rp?.close();
    await up?.close();
  });

  it('3,000 half-open connections from 127.0.0.2: it keeps its cap, a LAN admin call and a proxied request from 127.0.0.3 answer within 1 s', async () => {
    // Slow heads are cut at the header time-out: long enough here that the flooder holds them.
    expect((await rp.call('PUT', '/api/baseconfigure', { headerTimeout: 60 })).body.ret).toBe(0);
    const heapBefore = process.memoryUsage().heapUsed;
    const adminPort = rp.s.server.port;
    const t0 = performance.now();
    const [web, admin] = await Promise.all([
      remoteFlood(port, 3000, '127.0.0.2', SLOW_HEAD),
      // Half as many on the admin port: both floods share the 2 cores of a busy test machine.
      remoteFlood(adminPort, 1500, '127.0.0.2', SLOW_HEAD),
    ]);
    const floodMs = performance.now() - t0;
    try {
      // Past the caps (256 per address on the web service, 64 on the admin) the server resets
      // them at accept; what the flooder keeps is held open by the server, half-open.
      await waitFor(
        () => web.open(),
        (n) => n <= 256,
        5000,
      );
      await waitFor(
        () => admin.open(),
        (n) => n <= 64,
        5000,
      );
      const held = { web: await web.open(), admin: await admin.open() };
      expect(held.web).toBeGreaterThanOrEqual(200);
      expect(held.admin).toBeGreaterThanOrEqual(50);

      const call = await request(adminPort, '/api/baseconfigure', '127.0.0.3', { authorization: token });
      expect(call.status).toBe(200);
      expect(JSON.parse(call.body).ret).toBe(0);
      expect(call.ms).toBeLessThan(1000);
      const proxied = await request(port, '/hello', '127.0.0.3', { host: 'app.test' });
      expect(proxied.status).toBe(200);
      expect(JSON.parse(proxied.body).name).toBe('up');
      expect(proxied.ms).toBeLessThan(1000);

      // This process is the server alone (the flooders run in their own).
      const grew = (process.memoryUsage().heapUsed - heapBefore) / 1048576;
      console.log(
        `floods: 3000 + 1500 opened in ${floodMs.toFixed(0)} ms; web held ${held.web}, admin held ${held.admin}; admin call ${call.ms.toFixed(0)} ms, proxied ${proxied.ms.toFixed(0)} ms; heap +${grew.toFixed(1)} MB`,
      );
      expect(grew).toBeLessThan(64);
    } finally {
      web.end();
      admin.end();
      await rp.call('PUT', '/api/baseconfigure', { headerTimeout: 15 });
    }
  }, 20_000);

  it('the per-address caps are settings: checked at save, and they hold for the next connection', async () => {
    const bad = await rp.call('PUT', '/api/baseconfigure', { adminMaxConnsPerAddress: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ret: 1, field: 'adminMaxConnsPerAddress' });
    expect((await rp.call('GET', '/api/baseconfigure')).body.baseconfigure).toMatchObject({
      adminMaxConnsPerAddress: 64,
      webMaxConnsPerAddress: 256,
      webMaxConns: 4096,
      handshakeTimeout: 10,
      headerTimeout: 15,
    });
    const ok = await rp.call('PUT', '/api/baseconfigure', { webMaxConnsPerAddress: 8 });
    expect(ok.body.ret).toBe(0);
    const f = await flood(port, 40, '127.0.0.4', SLOW_HEAD, 40);
    try {
      await waitFor(
        () => f.open(),
        (n) => n === 8,
        5000,
      );
      const other = await request(port, '/x', '127.0.0.5', { host: 'app.test' });
      expect(other.status).toBe(200);
    } finally {
      f.end();
      await rp.call('PUT', '/api/baseconfigure', { webMaxConnsPerAddress: 256 });
    }
  });
});

describe('time-outs a trickling peer cannot stretch', () => {
  let rp: Rp;
  let up: Backend;
  let port: number;
  beforeAll(async () => {
    rp = await startRp();
    up = await backend('up');
    port = await freePort();
    await rp.addCert(['tls.test']);
    await rp.addRule({ port, listenTypes: 'both', defaultRule: { serviceType: 'proxy', targets: [up.url] } });
    const r = await rp.call('PUT', '/api/baseconfigure', { headerTimeout: 2, handshakeTimeout: 2 });
    expect(r.body.ret).toBe(0);
  });
  afterAll(async () => {
    await rp?.close();
    await up?.close();
  });

  it('a request head sent a byte at a time is cut at the header time-out (web service plain, keep-alive, TLS; admin)', async () => {
    const tlsHead = async () => {
      const c = tls.connect({ port, host: '127.0.0.1', servername: 'tls.test', rejectUnauthorized: false });
      await new Promise((r) => c.once('secureConnect', r));
      return trickle(c, SLOW_HEAD);
    };
    const keepAlive = async () => {
      // One whole request first, then the next head trickles on the same connection.
      const c = await connect(port, '127.0.0.1');
      c.write('GET /1 HTTP/1.1\r\nHost: app.test\r\n\r\n');
      await new Promise((r) => c.once('data', r));
      return trickle(c, SLOW_HEAD);
    };
    const lived = await Promise.all([
      connect(port, '127.0.0.1').then((c) => trickle(c, SLOW_HEAD)),
      keepAlive(),
      tlsHead(),
      connect(rp.s.server.port, '127.0.0.1').then((c) => trickle(c, SLOW_HEAD)),
    ]);
    console.log(`floods: header time-out 2 s, trickling heads lived ${lived.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    for (const ms of lived) {
      expect(ms).toBeGreaterThan(1500);
      expect(ms).toBeLessThan(6000);
    }
  }, 20_000);

  it('a TLS handshake trickled a byte at a time is cut at the handshake time-out; a done one is not', async () => {
    const slow = await connect(port, '127.0.0.1');
    // A TLS record header announcing 512 bytes, then the bytes one by one.
    const lived = trickle(slow, Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]), 200);
    const done = tls.connect({ port, host: '127.0.0.1', servername: 'tls.test', rejectUnauthorized: false });
    done.on('error', () => undefined);
    await new Promise((r) => done.once('secureConnect', r));
    const ms = await lived;
    expect(ms).toBeGreaterThan(1500);
    expect(ms).toBeLessThan(5000);
    // Past its own deadline the finished handshake's connection still serves.
    expect(done.destroyed).toBe(false);
    done.write('GET /late HTTP/1.1\r\nHost: app.test\r\nConnection: close\r\n\r\n');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      done.on('data', (d) => {
        text += d;
      });
      done.once('end', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"url":"/late"');
  }, 20_000);

  it('a connection that never sends a byte is closed at the header time-out', async () => {
    const c = await connect(port, '127.0.0.1');
    const t0 = performance.now();
    await closedWithin(c, 6000);
    expect(performance.now() - t0).toBeGreaterThan(1500);
  });
});

/** The non-LAN peer: a namespace of the test's own, joined to this one by a veth pair. */
describe('admin listener: outside peers are reset at accept when internet access is off', () => {
  const tag = (process.pid % 200) + 20;
  const NS = `lkfl-${process.pid}`;
  const HOST_IF = `lkfl${process.pid}h`.slice(0, 15);
  const PEER_IF = `lkfl${process.pid}p`.slice(0, 15);
  const HOST_IP = `10.213.${tag}.1`;
  const PEER_IP = `203.0.113.${tag}`;
  let s: TestServer;
  let token: string;
  /** The harness calls 127.0.0.1; this server listens on the host's end of the pair. */
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://${HOST_IP}:${s.server.port}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  const sh = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  const inNs = (...args: string[]) => sh('netns', 'exec', NS, ...args);

  beforeAll(async () => {
    sh('netns', 'add', NS);
    sh('link', 'add', HOST_IF, 'type', 'veth', 'peer', 'name', PEER_IF);
    sh('link', 'set', PEER_IF, 'netns', NS);
    sh('addr', 'add', `${HOST_IP}/32`, 'dev', HOST_IF);
    sh('link', 'set', HOST_IF, 'up');
    sh('route', 'add', `${PEER_IP}/32`, 'dev', HOST_IF, 'src', HOST_IP);
    inNs('ip', 'addr', 'add', `${PEER_IP}/32`, 'dev', PEER_IF);
    inNs('ip', 'link', 'set', PEER_IF, 'up');
    inNs('ip', 'link', 'set', 'lo', 'up');
    inNs('ip', 'route', 'add', `${HOST_IP}/32`, 'dev', PEER_IF, 'src', PEER_IP);
    s = await startTestServer({ host: HOST_IP });
    token = (await call('POST', '/api/login', { Account: '666', Password: '666' })).token;
  });
  afterAll(async () => {
    await s?.close();
    try {
      sh('link', 'del', HOST_IF);
    } catch {
      // gone with the namespace
    }
    sh('netns', 'del', NS);
  });

  /**
   * From the namespace: connect, send a TLS ClientHello, report the bytes the server sent back
   * (bytesRead: once TLS wraps the socket its own 'data' events stop).
   */
  async function probe(times = 1): Promise<{ bytes: number; closed: boolean }[]> {
    const script = `
      const tls = require('node:tls'); const out = []; let left = ${times};
      const one = () => {
        const r = { bytes: 0, closed: false };
        const raw = require('node:net').connect({ host: '${HOST_IP}', port: ${s.server.port} }, () => {
          tls.connect({ socket: raw, rejectUnauthorized: false, servername: 'x' }).on('error', () => {});
        });
        raw.on('error', () => {});
        const t = setTimeout(() => raw.destroy(), 1500);
        raw.on('close', () => { clearTimeout(t); r.bytes = raw.bytesRead; r.closed = true; out.push(r); if (--left === 0) console.log(JSON.stringify(out)); else one(); });
      };
      one();`;
    const { stdout } = await run('ip', ['netns', 'exec', NS, process.execPath, '-e', script], { timeout: 15000 });
    return JSON.parse(stdout);
  }

  it('resets a public-address peer before any TLS byte, logs it once a minute, and serves it once internet access is on', async () => {
    const refused = await probe(5);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r).toEqual({ bytes: 0, closed: true });
    const text = JSON.stringify(await call('GET', '/api/logs'));
    const lines = text.match(
      new RegExp(`refused admin access from outside the LAN: ${PEER_IP.replace(/\./g, '\\.')}`, 'g'),
    );
    expect(lines).toHaveLength(1);

    // A LAN peer (this side of the pair) is served meanwhile.
    expect((await call('GET', '/api/baseconfigure')).ret).toBe(0);

    expect((await call('PUT', '/api/baseconfigure', { allowInternetAccess: true })).ret).toBe(0);
    const served = await probe(1);
    expect(served[0].bytes).toBeGreaterThan(0);
  }, 20_000);
});

describe('port forwarding: per-address cap by default, idle time-out', () => {
  let pf: Pf;
  let echo: Peer;
  beforeAll(async () => {
    pf = await startPf();
    echo = await echoServer();
  });
  afterAll(async () => {
    await echo?.close();
    await pf?.close();
  });
  const tcpRule = (port: number, extra: Record<string, unknown> = {}) => tcpRuleTo(port, echo.port, extra);

  it('a new rule caps one address at 64 of its 256 connections; another address still gets through', async () => {
    const port = await freePort();
    const { rule } = await pf.addRule(tcpRule(port));
    expect(rule).toMatchObject({ maxTcpConnections: 256, perIpMaxConnections: 64, tcpIdleTimeoutMs: 1_800_000 });
    const f = await flood(port, 256, '127.0.0.2', '', 64);
    try {
      await waitFor(
        () => f.open(),
        (n) => n === 64,
        8000,
      );
      expect(await echoOnce(port, 'other', '127.0.0.1', '127.0.0.3')).toBe('other');
    } finally {
      f.end();
    }
  }, 20_000);

  it('an idle relayed connection is closed at the idle time-out; a slow but active one is not', async () => {
    const bad = await pf.call('POST', '/api/portforward/rules', tcpRule(await freePort(), { tcpIdleTimeoutMs: -1 }));
    expect(bad.body).toMatchObject({ ret: 1, field: 'tcpIdleTimeoutMs' });
    const port = await freePort();
    await pf.addRule(tcpRule(port, { tcpIdleTimeoutMs: 1000 }));
    const idle = await connect(port);
    const active = await connect(port);
    expect(await roundTrip(idle, 'a')).toBe('a');
    expect(await roundTrip(active, 'b')).toBe('b');
    const keep = setInterval(() => active.write('.'), 250);
    try {
      const t0 = performance.now();
      await closedWithin(idle, 5000);
      const lived = performance.now() - t0;
      expect(lived).toBeGreaterThan(800);
      expect(active.destroyed).toBe(false);
      clearInterval(keep);
      let echoed = '';
      active.on('data', (d) => {
        echoed += d;
      });
      active.write('still');
      await waitFor(
        () => echoed,
        (t) => t.includes('still'),
        3000,
      );
    } finally {
      clearInterval(keep);
      active.destroy();
    }
  }, 20_000);
});
