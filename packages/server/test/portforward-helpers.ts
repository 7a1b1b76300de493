// Helpers for the port-forwarding integration tests: a real server with the module switched on,
// rule calls through the API, and small loopback peers (echo, hashing, UDP) to forward to.
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { expect } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field in the tests
type Json = any;

export interface Pf {
  s: TestServer;
  token: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  addRule(rule: Record<string, unknown>): Promise<{ key: string; rule: Json }>;
  rule(key: string): Promise<Json>;
  close(): Promise<void>;
}

/** A test server with port forwarding switched on (plus any global settings given). */
export async function startPf(settings: Record<string, unknown> = {}): Promise<Pf> {
  const s = await startTestServer();
  const token = await s.login();
  const call: Pf['call'] = (method, path, body) => s.call(method, path, { token, body });
  const r = await call('PUT', '/api/portforward/settings', { enabled: true, ...settings });
  expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
  return {
    s,
    token,
    call,
    async addRule(rule) {
      const res = await call('POST', '/api/portforward/rules', rule);
      expect(res.body.ret, JSON.stringify(res.body)).toBe(0);
      return { key: res.body.key, rule: res.body.rule };
    },
    async rule(key) {
      const res = await call('GET', `/api/portforward/rules/${key}`);
      expect(res.body.ret).toBe(0);
      return res.body.rule;
    },
    close: () => s.close(),
  };
}

/** A port that was free a moment ago on `host` (TCP and UDP both checked). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer().listen(0, host, () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
      srv.on('error', reject);
    });
    if (await udpFree(port, host)) return port;
  }
}

/** `count` consecutive free ports (for range rules). */
export async function freeRange(count: number, host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 30000);
    let ok = true;
    for (let p = base; p < base + count && ok; p++) ok = (await tcpFree(p, host)) && (await udpFree(p, host));
    if (ok) return base;
  }
  throw new Error('no free port range');
}

function tcpFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

function udpFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
    sock.once('error', () => resolve(false));
    sock.bind(port, host, () => sock.close(() => resolve(true)));
  });
}

export interface Peer {
  port: number;
  close(): Promise<void>;
}

/** A TCP server on loopback; `onConn` gets each socket (allowHalfOpen, so a FIN is seen alone). */
export async function tcpServer(onConn: (c: net.Socket) => void, host = '127.0.0.1', port = 0): Promise<Peer> {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer({ allowHalfOpen: true }, (c) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
    c.on('error', () => {});
    onConn(c);
  });
  await new Promise<void>((resolve) => srv.listen(port, host, resolve));
  return {
    port: (srv.address() as net.AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const c of sockets) c.destroy();
        srv.close(() => resolve());
      }),
  };
}

/** Echoes every byte back and passes a FIN on. */
export const echoServer = (host = '127.0.0.1', port = 0) =>
  tcpServer(
    (c) => {
      c.pipe(c);
    },
    host,
    port,
  );

/** Connect and resolve once connected. */
export function connect(port: number, host = '127.0.0.1', localAddress?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const c = net.connect({ port, host, localAddress, allowHalfOpen: true });
    c.once('connect', () => {
      c.off('error', reject);
      resolve(c);
    });
    c.once('error', reject);
  });
}

/** Send `text`, get the same number of bytes back. */
export async function roundTrip(c: net.Socket, text: string, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const timer = setTimeout(() => reject(new Error(`no echo of ${text} (got "${got}")`)), timeoutMs);
    const onData = (d: Buffer) => {
      got += d.toString();
      if (got.length >= text.length) {
        clearTimeout(timer);
        c.off('data', onData);
        resolve(got);
      }
    };
    c.on('data', onData);
    c.write(text);
  });
}

/** One echo through a new connection; rejects when the connection is refused or closed. */
export async function echoOnce(
  port: number,
  text = 'ping',
  host = '127.0.0.1',
  localAddress?: string,
): Promise<string> {
  const c = await connect(port, host, localAddress);
  try {
    return await new Promise<string>((resolve, reject) => {
      c.once('end', () => reject(new Error('closed by the other side')));
      c.once('close', () => reject(new Error('closed')));
      c.once('error', reject);
      roundTrip(c, text).then(resolve, reject);
    });
  } finally {
    c.destroy();
  }
}

/** Resolves when the socket is closed by the other side (end or reset), rejects after `ms`. */
export function closedWithin(c: net.Socket, ms = 3000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (c.destroyed || c.readableEnded) return resolve();
    const timer = setTimeout(() => reject(new Error('still open')), ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    c.once('end', done);
    c.once('close', done);
    c.once('error', done);
    c.resume();
  });
}

/** Write `total` bytes of random data with backpressure; resolves with their sha256. */
export async function sendRandom(c: net.Socket, total: number, end = true): Promise<string> {
  const hash = createHash('sha256');
  const chunk = 1 << 20;
  for (let sent = 0; sent < total; sent += chunk) {
    const buf = randomBytes(Math.min(chunk, total - sent));
    hash.update(buf);
    if (!c.write(buf)) await new Promise((r) => c.once('drain', r));
  }
  if (end) c.end();
  return hash.digest('hex');
}

/** Read until the other side's FIN; resolves with byte count and sha256. */
export function receiveAll(c: net.Socket): Promise<{ bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let bytes = 0;
    c.on('data', (d: Buffer) => {
      bytes += d.length;
      hash.update(d);
    });
    c.once('end', () => resolve({ bytes, sha256: hash.digest('hex') }));
    c.once('error', reject);
  });
}

/** A UDP echo server (`udp4` or `udp6`) that can also tag replies. */
export async function udpEcho(
  type: 'udp4' | 'udp6' = 'udp4',
  tag = '',
  port = 0,
): Promise<Peer & { seen: Set<string> }> {
  const sock = dgram.createSocket(type);
  const seen = new Set<string>();
  sock.on('message', (msg, rinfo) => {
    seen.add(`${rinfo.address}:${rinfo.port}`);
    sock.send(tag ? Buffer.concat([Buffer.from(tag), msg]) : msg, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve, reject) => {
    sock.once('error', reject);
    sock.bind(port, type === 'udp6' ? '::1' : '127.0.0.1', resolve);
  });
  return { port: sock.address().port, seen, close: () => new Promise((r) => sock.close(() => r())) };
}

/** A UDP client: send and wait for one reply (or time out). */
export async function udpClient(type: 'udp4' | 'udp6' = 'udp4', localAddress?: string) {
  const sock = dgram.createSocket(type);
  await new Promise<void>((resolve) => sock.bind(0, localAddress ?? (type === 'udp6' ? '::1' : '127.0.0.1'), resolve));
  const replies: Buffer[] = [];
  const waiters: ((b: Buffer) => void)[] = [];
  sock.on('message', (m) => {
    const w = waiters.shift();
    if (w) w(m);
    else replies.push(m);
  });
  return {
    sock,
    ask(msg: string | Buffer, port: number, host = type === 'udp6' ? '::1' : '127.0.0.1', timeoutMs = 2000) {
      return new Promise<Buffer>((resolve, reject) => {
        const waiter = (b: Buffer) => {
          clearTimeout(timer);
          resolve(b);
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error('no UDP reply'));
        }, timeoutMs);
        waiters.push(waiter);
        sock.send(msg, port, host);
      });
    },
    close: () => new Promise<void>((r) => sock.close(() => r())),
  };
}

/** The editable fields of a rule view (what PUT takes back). */
export function ruleFields(view: Record<string, unknown>): Record<string, unknown> {
  const live = [
    'key',
    'state',
    'reason',
    'error',
    'connections',
    'sessions',
    'bytesIn',
    'bytesOut',
    'rateIn',
    'rateOut',
    'proxies',
    'lastLogs',
  ];
  return Object.fromEntries(Object.entries(view).filter(([k]) => !live.includes(k)));
}

/** A TCP rule on 127.0.0.1:`port` to 127.0.0.1:`targetPort` (an echo server), with `extra` fields. */
export const tcpRule = (port: number, targetPort: number, extra: Record<string, unknown> = {}) => ({
  forwardTypes: ['tcp4'],
  listenAddress: '127.0.0.1',
  listenPorts: String(port),
  targetAddresses: ['127.0.0.1'],
  targetPorts: String(targetPort),
  ...extra,
});
