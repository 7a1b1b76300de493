// The serving toolkit's whole-request deadline is a listener option (`requestMs`; 300 s when not
// set, node's own): the WebDAV server raises it so big uploads are not cut after five minutes.
// Here it is short (1.5 s) and a body that keeps moving, a byte every 200 ms, is cut at it on
// every engine — the direct HTTP/1 path, node:http behind TLS, HTTP/2 — while the same trickle
// finishes under a listener whose deadline is longer than the upload. The deadline is the
// behaviour under test, so the test measures time.
import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertResolver } from '../src/core/certs/resolver.js';
import { ConnectionGuard, defaultLimits } from '../src/core/net/connGuard.js';
import { isLanAddress } from '../src/core/net/lan.js';
import { HttpListener, type ListenerOptions } from '../src/core/serve/listener.js';
import { bodyOf, type ServeHandler } from '../src/core/serve/request.js';
import { resolverWith } from './certs-helpers.js';

/** Reads the whole body, then answers with its length. */
const echoLength: ServeHandler = (req, res) => {
  const body = bodyOf(req);
  let n = 0;
  if (!body) {
    res.writeHead(200, { 'content-length': '1' });
    res.end('0');
    return;
  }
  body.on('data', (c: Buffer) => {
    n += c.length;
  });
  body.on('error', () => undefined);
  body.on('end', () => {
    const text = String(n);
    res.writeHead(200, { 'content-length': String(text.length) });
    res.end(text);
  });
};

let certs: CertResolver;
beforeAll(async () => {
  certs = (await resolverWith(['req.test'])).resolver;
});

async function listener(requestMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const opts: ListenerOptions = {
    listenTypes: 'both',
    minTlsVersion: 'TLSv1.2',
    http2: true,
    h2c: false,
    proxyProtocolFrom: [],
    requestMs,
  };
  // A head must be whole within 1 s: node:http's request deadline is never below the head's.
  const limits = () => ({ ...defaultLimits(), headerMs: 1000 });
  const guard = new ConnectionGuard('test', limits, isLanAddress, () => undefined);
  const l = new HttpListener(
    { onRequest: echoLength, onUpgrade: (_r, s) => s.destroy() },
    certs,
    opts,
    undefined,
    guard,
  );
  const port = await l.listen(0, '127.0.0.1');
  return { port, close: () => l.close() };
}

const BODY = 15;
const EVERY_MS = 200;
const HEAD = `PUT /x HTTP/1.1\r\nHost: req.test\r\nContent-Length: ${BODY}\r\nConnection: close\r\n\r\n`;

/** Sends the head, then the body a byte every EVERY_MS; resolves with the answer (or '') and how long it took. */
function trickle(socket: net.Socket | tls.TLSSocket): Promise<{ text: string; ms: number }> {
  const t0 = performance.now();
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => {
    text += d;
  });
  socket.on('error', () => undefined);
  socket.write(HEAD);
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < BODY && !socket.destroyed) {
      socket.write('a');
      sent++;
    }
  }, EVERY_MS);
  return new Promise((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ text, ms: performance.now() - t0 });
    }),
  );
}

const plain = (port: number) =>
  new Promise<net.Socket>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
  });
const overTls = (port: number) =>
  new Promise<tls.TLSSocket>((resolve) => {
    const s = tls.connect(
      { port, host: '127.0.0.1', servername: 'req.test', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] },
      () => resolve(s),
    );
  });

/** An HTTP/2 PUT whose body trickles; resolves with the status (0: the stream was reset) and the time. */
function h2Trickle(port: number): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const session = http2.connect(`https://127.0.0.1:${port}`, { servername: 'req.test', rejectUnauthorized: false });
  session.on('error', () => undefined);
  const stream = session.request({ ':method': 'PUT', ':path': '/x', 'content-length': String(BODY) });
  let status = 0;
  stream.on('response', (h) => {
    status = Number(h[':status']);
  });
  stream.on('error', () => undefined);
  stream.resume();
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < BODY && !stream.destroyed) {
      sent++;
      if (sent === BODY) stream.end('a');
      else stream.write('a');
    }
  }, EVERY_MS);
  return new Promise((resolve) =>
    stream.once('close', () => {
      clearInterval(timer);
      session.close();
      resolve({ status, ms: performance.now() - t0 });
    }),
  );
}

describe('requestMs: the whole-request deadline of a listener', () => {
  let short: { port: number; close(): Promise<void> };
  let long: { port: number; close(): Promise<void> };
  beforeAll(async () => {
    short = await listener(1500);
    long = await listener(60_000);
  });
  afterAll(async () => {
    await short?.close();
    await long?.close();
  });

  it('cuts a body that is still moving at the deadline, on the direct path, behind TLS and on HTTP/2', async () => {
    const [direct, secure, h2] = await Promise.all([
      plain(short.port).then(trickle),
      overTls(short.port).then(trickle),
      h2Trickle(short.port),
    ]);
    for (const r of [direct, secure, h2]) {
      expect(r.ms).toBeGreaterThan(1200);
      // The sweeps run every second or so; the upload itself would take 3 s.
      expect(r.ms, JSON.stringify(r)).toBeLessThan(2900);
    }
    expect(direct.text).not.toMatch(/^HTTP\/1\.1 200/);
    expect(secure.text).not.toMatch(/^HTTP\/1\.1 200/);
    expect(h2.status).toBe(0);
  }, 15_000);

  it('lets the same upload finish when the deadline is longer than it takes', async () => {
    const [direct, secure, h2] = await Promise.all([
      plain(long.port).then(trickle),
      overTls(long.port).then(trickle),
      h2Trickle(long.port),
    ]);
    expect(direct.text).toMatch(/^HTTP\/1\.1 200[\s\S]*\r\n\r\n15$/);
    expect(secure.text).toMatch(/^HTTP\/1\.1 200[\s\S]*\r\n\r\n15$/);
    expect(h2.status).toBe(200);
  }, 15_000);
});
