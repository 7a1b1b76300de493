// The direct HTTP/1.1 path (directHttp1.ts) on the wire: raw bytes in, raw bytes out, so that
// keep-alive, pipelining, hand-over to node:http mid-connection and framing are seen as a client
// sees them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backend, curl, freePort, type Rp, startRp } from './reverseproxy-helpers.js';

let rp: Rp;
let b: Backend;
let port: number;
let dir: string;
/** Bytes the back end has handed to its socket for /big so far. */
let bigWritten = 0;
const MiB = 1024 * 1024;
const BIG = 64 * MiB;

beforeAll(async () => {
  rp = await startRp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-direct-'));
  await writeFile(path.join(dir, 'hello.txt'), 'hello from the file server\n');
  b = await backend('b', (req, res) => {
    req.resume();
    if (req.url === '/big') {
      // As fast as the proxy takes it: write until the socket says stop, go on at 'drain'.
      res.writeHead(200, { 'content-length': String(BIG) });
      const chunk = Buffer.alloc(256 * 1024, 1);
      bigWritten = 0;
      const pump = () => {
        while (bigWritten < BIG) {
          bigWritten += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    const bytes = /^\/bytes\/(\d+)$/.exec(req.url ?? '');
    if (bytes) {
      // Every byte value, repeated to the asked length: binary bodies must pass unchanged.
      const body = Buffer.alloc(Number(bytes[1]));
      for (let i = 0; i < body.length; i++) body[i] = (i * 7 + 3) % 256;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      res.end(body);
      return;
    }
    if (req.url === '/chunked') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first,');
      // The rest a moment later, so the answer reaches the proxy in two reads.
      setTimeout(() => res.end('second'), 20);
      return;
    }
    const extra = Object.keys(req.headers).filter((k) => k.startsWith('x-h')).length;
    const body = `${req.method} ${req.url}${extra ? ` with ${extra}` : ''}`;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(body)) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  port = await freePort();
  await rp.addRule({
    name: 'direct',
    port,
    listenTypes: 'http',
    subRules: [
      { domains: ['p.test'], targets: [b.url] },
      { domains: ['p.test'], pathPrefix: '/files', serviceType: 'files', mounts: [{ urlPath: '/files', dir }] },
    ],
  });
});

afterAll(async () => {
  await rp?.close();
  await b?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Write `text` on one connection (in one write, so requests arrive pipelined) and read until the server closes. */
function exchange(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`no close; got so far: ${JSON.stringify(out)}`));
    });
    socket.write(text);
  });
}

const req = (target: string, extra = '', method = 'GET') =>
  `${method} ${target} HTTP/1.1\r\nHost: p.test\r\n${extra}\r\n`;
const last = (target: string) => req(target, 'Connection: close\r\n');
// Bodies end without a newline, so a status line may follow one directly.
const statuses = (raw: string) => [...raw.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));

describe('direct HTTP/1.1 path', () => {
  it('answers pipelined proxy requests in order on one connection, and closes when asked', async () => {
    const raw = await exchange(req('/one') + req('/two') + last('/three'));
    expect(statuses(raw)).toEqual([200, 200, 200]);
    const bodies = [...raw.matchAll(/GET \/([a-z]+)/g)].map((m) => m[1]);
    expect(bodies).toEqual(['one', 'two', 'three']);
    expect(raw).toMatch(/connection: close/i);
  });

  it('serves files on the same connection, hands over to node:http for Expect, and goes on there', async () => {
    const raw = await exchange(
      req('/before') + req('/files/hello.txt') + req('/mid', 'Expect: 100-continue\r\n') + last('/after'),
    );
    // node:http answers the Expect with 100 Continue, then the request as usual.
    expect(statuses(raw)).toEqual([200, 200, 100, 200, 200]);
    const order = ['GET /before', 'hello from the file server', 'GET /mid', 'GET /after'].map((t) => raw.indexOf(t));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
  });

  it('passes binary bodies byte for byte, below, at and above the one-write size', async () => {
    const sizes = [1, 255, 256, 2047, 2048, 2049, 70_000];
    const raw = Buffer.from(
      await exchange(sizes.map((n, i) => (i === sizes.length - 1 ? last : req)(`/bytes/${n}`)).join('')),
      'latin1',
    );
    let at = 0;
    for (const n of sizes) {
      const headEnd = raw.indexOf('\r\n\r\n', at);
      expect(headEnd).toBeGreaterThan(0);
      const head = raw.subarray(at, headEnd).toString('latin1');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head).toMatch(new RegExp(`content-length: ${n}\r`, 'i'));
      const body = raw.subarray(headEnd + 4, headEnd + 4 + n);
      const want = Buffer.alloc(n);
      for (let i = 0; i < n; i++) want[i] = (i * 7 + 3) % 256;
      expect(body.equals(want)).toBe(true);
      at = headEnd + 4 + n;
    }
    expect(at).toBe(raw.length);
  });

  it('answers HEAD with the length and no body, then goes on on the same connection', async () => {
    const raw = await exchange(req('/h', '', 'HEAD') + last('/next'));
    expect(statuses(raw)).toEqual([200, 200]);
    const [headPart, rest] = raw.split(/\r\n\r\n/, 2);
    expect(headPart).toMatch(/content-length: 7/i);
    expect(rest.startsWith('HTTP/1.1 200')).toBe(true);
    expect(raw.endsWith('GET /next')).toBe(true);
  });

  it('re-frames a chunked answer for the client (curl decodes it)', async () => {
    const r = await curl(['-H', 'Host: p.test', `http://127.0.0.1:${port}/chunked`]);
    expect(r.status).toBe(200);
    expect(r.headers).toMatch(/transfer-encoding: chunked/i);
    expect(r.body).toBe('first,second');
  });

  it('serves HTTP/1.0 (through node:http) and closes after the answer', async () => {
    const raw = await exchange('GET /old HTTP/1.0\r\nHost: p.test\r\n\r\n');
    expect(statuses(raw)).toEqual([200]);
    expect(raw.endsWith('GET /old')).toBe(true);
  });

  it('passes a long request head on whole (more than 32 headers), twice on one connection', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `X-H${i}: v${i}\r\n`).join('');
    const raw = await exchange(req('/long', many) + last('/long2'));
    expect(statuses(raw)).toEqual([200, 200]);
    expect(raw).toContain('GET /long with 40');
    expect(raw.endsWith('GET /long2')).toBe(true);
  });

  it('answers a malformed request with 400 and closes', async () => {
    const raw = await exchange('GET / HTTP/1.1\r\nHost: p.test\r\nBad Header\r\n\r\n');
    expect(statuses(raw)).toEqual([400]);
  });

  it('refuses a request framed two ways (Content-Length and chunked: request smuggling) with 400', async () => {
    const hits = b.hits;
    const raw = await exchange(
      'POST / HTTP/1.1\r\nHost: p.test\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(statuses(raw)).toEqual([400]);
    expect(b.hits).toBe(hits);
  });

  it('answers a request without Host (through node:http) with 400', async () => {
    const raw = await exchange('GET / HTTP/1.1\r\n\r\n');
    expect(statuses(raw)).toEqual([400]);
  });

  it('passes a POST body through, pipelined with the next request', async () => {
    const raw = await exchange(`POST /post HTTP/1.1\r\nHost: p.test\r\nContent-Length: 5\r\n\r\nabcde${last('/then')}`);
    expect(statuses(raw)).toEqual([200, 200]);
    expect(raw).toContain('POST /post');
    expect(raw.endsWith('GET /then')).toBe(true);
  });

  it('passes back-pressure from a slow client to the back end, and every byte arrives', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.write(last('/big'));
    let bytes = 0;
    let writtenWhileStalled = -1;
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (d) => {
        bytes += d.length;
        if (writtenWhileStalled < 0 && bytes > 4 * MiB) {
          // The client stops reading for a while (the pause is the test): the back end must stop too,
          // not the proxy buffer it all.
          writtenWhileStalled = 0;
          socket.pause();
          setTimeout(() => {
            writtenWhileStalled = bigWritten;
            socket.resume();
          }, 600);
        }
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    expect(writtenWhileStalled).toBeGreaterThan(0);
    expect(writtenWhileStalled).toBeLessThan(BIG / 2);
    const headLength = bytes - BIG;
    expect(headLength).toBeGreaterThan(40);
    expect(headLength).toBeLessThan(300);
  });
});
