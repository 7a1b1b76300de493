import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientOptions, WebSocket, WebSocketServer } from 'ws';
import { b64, makeCert } from './certs-helpers.js';
import { type Backend, backend, curl, freePort, get, type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
let rp: Rp;
let a: Backend;
let port: number;
let port13: number;
let wss: WebSocketServer;

function handshake(p: number, servername: string, extra: tls.ConnectionOptions = {}) {
  return new Promise<{ san: string; alpn: string | false | null; version: string | null }>((resolve, reject) => {
    const c = tls.connect({ port: p, host: '127.0.0.1', servername, rejectUnauthorized: false, ...extra }, () => {
      resolve({ san: c.getPeerCertificate().subjectaltname ?? '', alpn: c.alpnProtocol, version: c.getProtocol() });
      c.destroy();
    });
    c.on('error', reject);
  });
}

beforeAll(async () => {
  rp = await startRp();
  a = await backend('a');
  for (const names of [['one.test'], ['*.two.test']]) {
    const c = await makeCert(names);
    const r = await rp.call('POST', '/api/ssl', { CertBase64: b64(c.cert), KeyBase64: b64(c.key) });
    expect(r.body.ret).toBe(0);
  }
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => ws.on('message', (m) => ws.send(`echo ${m}`)));
  port = await freePort();
  await rp.addRule({
    port,
    listenTypes: 'both',
    subRules: [
      { domains: ['one.test', 'x.two.test'], targets: [a.url] },
      { domains: ['ws.two.test'], targets: [`http://127.0.0.1:${(wss.address() as net.AddressInfo).port}`] },
    ],
  });
  port13 = await freePort();
  await rp.addRule({
    port: port13,
    listenTypes: 'https',
    minTlsVersion: 'TLSv1.3',
    http2: false,
    defaultRule: { serviceType: 'text', text: 'tls13' },
  });
});
afterAll(async () => {
  await rp.close();
  await a.close();
  wss.close();
});

describe('TLS', () => {
  it('chooses the certificate by SNI (exact and wildcard)', async () => {
    expect((await handshake(port, 'one.test')).san).toBe('DNS:one.test');
    expect((await handshake(port, 'x.two.test')).san).toBe('DNS:*.two.test');
  });

  it('answers a client that sends no server name (connects by IP) with the default certificate', async () => {
    // An empty servername makes Node send no SNI extension, as curl or h2load do for an IP address.
    const r = await handshake(port, '');
    expect(['DNS:one.test', 'DNS:*.two.test']).toContain(r.san);
  });

  it('serves HTTP and HTTPS on one port, and HTTPS through curl with --resolve', async () => {
    expect((await get(port, '/', 'one.test')).status).toBe(200);
    const r = await curl([
      '-k',
      '--http1.1',
      '--resolve',
      `one.test:${port}:127.0.0.1`,
      `https://one.test:${port}/hello`,
    ]);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body);
    expect(body.url).toBe('/hello');
    expect(body.headers['x-forwarded-proto']).toBe('https');
  });

  it('negotiates HTTP/2 by ALPN and proxies over it', async () => {
    expect((await handshake(port, 'one.test', { ALPNProtocols: ['h2', 'http/1.1'] })).alpn).toBe('h2');
    const session = http2.connect(`https://127.0.0.1:${port}`, { servername: 'one.test', rejectUnauthorized: false });
    try {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = session.request({ ':path': '/h2?x=1', ':authority': 'one.test' });
        let status = 0;
        let body = '';
        req.on('response', (h) => {
          status = Number(h[':status']);
        });
        req.setEncoding('utf8');
        req.on('data', (d) => {
          body += d;
        });
        req.on('end', () => resolve({ status, body }));
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
      const j = JSON.parse(body);
      expect(j.url).toBe('/h2?x=1');
      expect(j.headers.host).toBe('one.test');
    } finally {
      session.close();
    }
    // HTTP/2 off: only http/1.1 is offered.
    expect((await handshake(port13, 'one.test', { ALPNProtocols: ['h2', 'http/1.1'] })).alpn).toBe('http/1.1');
  });

  it('serves h2load (nghttp2) over TLS and over h2c: every request answered by the back end', async () => {
    const h2cPort = await freePort();
    await rp.addRule({
      port: h2cPort,
      listenTypes: 'http',
      h2c: true,
      subRules: [{ domains: ['one.test'], targets: [a.url] }],
    });
    for (const url of [`https://127.0.0.1:${port}/load`, `http://127.0.0.1:${h2cPort}/load`]) {
      const { stdout } = await run('h2load', ['-n', '400', '-c', '4', '-m', '10', '-H', ':authority: one.test', url]);
      expect(stdout, url).toMatch(/Application protocol: h2c?\b/);
      expect(stdout, url).toMatch(/requests: 400 total, 400 started, 400 done, 400 succeeded, 0 failed/);
      expect(stdout, url).toMatch(/status codes: 400 2xx/);
    }
  });

  it('streams a large answer over HTTP/2 to a client that reads slowly (back-pressure), byte-exact', async () => {
    const SIZE = 48 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) % 256;
    const expected = createHash('sha256');
    for (let i = 0; i < SIZE / chunk.length; i++) expected.update(chunk);
    const big = await backend('big', (_req, res) => {
      res.writeHead(200, { 'content-length': String(SIZE) });
      let sent = 0;
      const pump = () => {
        while (sent < SIZE) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const bigPort = await freePort();
    await rp.addRule({
      port: bigPort,
      listenTypes: 'https',
      subRules: [{ domains: ['big.two.test'], targets: [big.url] }],
    });
    const session = http2.connect(`https://127.0.0.1:${bigPort}`, {
      servername: 'big.two.test',
      rejectUnauthorized: false,
    });
    try {
      const got = await new Promise<{ status: number; bytes: number; sha: string }>((resolve, reject) => {
        const req = session.request({ ':path': '/big', ':authority': 'big.two.test' });
        const hash = createHash('sha256');
        let status = 0;
        let bytes = 0;
        let paused = false;
        req.on('response', (h) => {
          status = Number(h[':status']);
        });
        req.on('data', (d: Buffer) => {
          hash.update(d);
          bytes += d.length;
          // Stop reading for a while once, with most of the answer still to come (the slow reader is
          // the test: flow control must hold the back end meanwhile).
          if (!paused && bytes > 4 * 1024 * 1024) {
            paused = true;
            req.pause();
            setTimeout(() => req.resume(), 500);
          }
        });
        req.on('end', () => resolve({ status, bytes, sha: hash.digest('hex') }));
        req.on('error', reject);
        req.end();
      });
      expect(got.status).toBe(200);
      expect(got.bytes).toBe(SIZE);
      expect(got.sha).toBe(expected.digest('hex'));
    } finally {
      session.close();
      await big.close();
    }
  });

  it('answers every kind of HTTP/2 request: streamed upload, HEAD, refusal page, text, a reset mid-answer', async () => {
    // The back end hashes what it receives; /slow answers the head and then waits.
    const sum = await backend('sum', (req, res) => {
      if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('part');
        res.on('close', () => slowClosed.push(true));
        return;
      }
      const hash = createHash('sha256');
      let bytes = 0;
      req.on('data', (d: Buffer) => {
        hash.update(d);
        bytes += d.length;
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' });
        res.end(
          JSON.stringify({ method: req.method, bytes, sha: hash.digest('hex'), te: req.headers['transfer-encoding'] }),
        );
      });
    });
    const slowClosed: boolean[] = [];
    const h2Port = await freePort();
    await rp.addRule({
      port: h2Port,
      listenTypes: 'https',
      subRules: [
        {
          domains: ['one.test'],
          targets: [sum.url],
          basicAuth: { enabled: true, user: 'u', password: 'p', paths: ['/private'] },
        },
        { domains: ['x.two.test'], serviceType: 'text', text: 'hello over h2' },
      ],
    });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-h2-'));
    try {
      const upload = Buffer.alloc(3 * 1024 * 1024 + 7);
      for (let i = 0; i < upload.length; i++) upload[i] = (i * 7) % 251;
      await writeFile(path.join(dir, 'up.bin'), upload);
      const base = [
        '-k',
        '--http2',
        '--resolve',
        `one.test:${h2Port}:127.0.0.1`,
        '--resolve',
        `x.two.test:${h2Port}:127.0.0.1`,
      ];
      const up = await curl([
        ...base,
        '--data-binary',
        `@${path.join(dir, 'up.bin')}`,
        `https://one.test:${h2Port}/up`,
      ]);
      expect(up.headers).toMatch(/^HTTP\/2 200/);
      const got = JSON.parse(up.body);
      expect(got).toMatchObject({ method: 'POST', bytes: upload.length });
      expect(got.sha).toBe(createHash('sha256').update(upload).digest('hex'));
      // The back end's Connection header is not passed on (HTTP/2 forbids it); HEAD has no body.
      expect(up.headers).not.toMatch(/^connection:/im);
      const head = await curl([...base, '-I', `https://one.test:${h2Port}/h`]);
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      const refused = await curl([...base, `https://one.test:${h2Port}/private/x`]);
      expect(refused.status).toBe(401);
      expect(refused.headers).toMatch(/^www-authenticate: Basic realm=/im);
      expect(refused.body).toMatch(/401/);
      const allowed = await curl([...base, '-u', 'u:p', `https://one.test:${h2Port}/private/x`]);
      expect(allowed.status).toBe(200);
      const text = await curl([...base, `https://x.two.test:${h2Port}/`]);
      expect(text.status).toBe(200);
      expect(text.body).toBe('hello over h2');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // The client resets a stream whose answer is still coming: the back-end request is dropped.
    const session = http2.connect(`https://127.0.0.1:${h2Port}`, { servername: 'one.test', rejectUnauthorized: false });
    try {
      await new Promise<void>((resolve, reject) => {
        const req = session.request({ ':path': '/slow', ':authority': 'one.test' });
        req.on('data', () => {
          req.close(http2.constants.NGHTTP2_CANCEL);
          resolve();
        });
        req.on('error', reject);
        req.end();
      });
      expect(
        await waitFor(
          () => slowClosed,
          (c) => c.length > 0,
          { what: 'the back-end request closing' },
        ),
      ).toEqual([true]);
    } finally {
      session.close();
      await sum.close();
    }
  });

  it('speaks h2c (prior knowledge) on the plain side only where it is switched on', async () => {
    const h2cPort = await freePort();
    await rp.addRule({
      port: h2cPort,
      listenTypes: 'http',
      h2c: true,
      subRules: [{ domains: ['one.test'], targets: [a.url] }],
    });
    const on = await curl(['--http2-prior-knowledge', '-H', 'Host: one.test', `http://127.0.0.1:${h2cPort}/c?y=2`]);
    expect(on.headers).toMatch(/^HTTP\/2 200/);
    expect(JSON.parse(on.body).url).toBe('/c?y=2');
    // HTTP/1.1 still works on the same port.
    expect((await get(h2cPort, '/c', 'one.test')).status).toBe(200);
    // Off (the default): the preface is not HTTP/1.1, the connection is refused.
    await expect(
      curl(['--http2-prior-knowledge', '-H', 'Host: one.test', `http://127.0.0.1:${port}/c`]),
    ).rejects.toThrow();
  });

  it('enforces the minimum TLS version, and an HTTPS-only rule refuses plain HTTP', async () => {
    await expect(handshake(port13, 'one.test', { maxVersion: 'TLSv1.2' })).rejects.toThrow();
    expect((await handshake(port13, 'one.test')).version).toBe('TLSv1.3');
    await expect(handshake(port, 'one.test', { maxVersion: 'TLSv1.1', minVersion: 'TLSv1' })).rejects.toThrow();
    await expect(get(port13, '/', 'one.test')).rejects.toThrow();
  });

  it('tunnels websockets over TLS (wss) on the HTTP/2-enabled listener', async () => {
    // ws hands its options to tls.connect, so `servername` (SNI) works though its types leave it out.
    const options: ClientOptions & Pick<tls.ConnectionOptions, 'servername'> = {
      servername: 'ws.two.test',
      headers: { host: 'ws.two.test' },
      rejectUnauthorized: false,
    };
    const ws = new WebSocket(`wss://127.0.0.1:${port}/`, options);
    await new Promise((r, j) => {
      ws.once('open', r);
      ws.once('error', j);
    });
    const reply = new Promise<string>((r) => ws.once('message', (m) => r(String(m))));
    ws.send('tls');
    expect(await reply).toBe('echo tls');
    ws.close();
  });

  it('picks up a certificate added later without a restart', async () => {
    await expect(handshake(port, 'three.test')).resolves.toBeDefined(); // default certificate
    expect((await handshake(port, 'three.test')).san).not.toBe('DNS:three.test');
    const c = await makeCert(['three.test']);
    expect((await rp.call('POST', '/api/ssl', { CertBase64: b64(c.cert), KeyBase64: b64(c.key) })).body.ret).toBe(0);
    expect((await handshake(port, 'three.test')).san).toBe('DNS:three.test');
  });
});
