import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { type Backend, backend, freePort, get, type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

const MiB = 1024 * 1024;
const BIG = 256 * MiB;

let rp: Rp;
let a: Backend;
let sink: Backend;
let wss: WebSocketServer;
let wsPort: number;
let port: number;
let deadUrl: string;
let ruleKey: string;
let subKeys: Map<string, string>;
const aborted: string[] = [];
/** Upload bytes the sink back end has received, all requests together. */
let uploaded = 0;

/** `total` bytes in 64 KiB chunks, made lazily so the test itself holds no big buffer. */
function zeros(total: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 7);
  let left = total;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

beforeAll(async () => {
  rp = await startRp();
  a = await backend('a');
  sink = await backend('sink', (req, res) => {
    if (req.url?.startsWith('/download')) {
      const size = Number(new URL(req.url, 'http://x').searchParams.get('size'));
      res.writeHead(200, { 'content-length': String(size) });
      const src = zeros(size);
      res.on('close', () => {
        if (!res.writableFinished) aborted.push('download');
        src.destroy();
      });
      src.pipe(res);
      return;
    }
    let n = 0;
    req.on('data', (d: Buffer) => {
      n += d.length;
      uploaded += d.length;
    });
    req.on('close', () => {
      if (!req.complete) aborted.push(`upload after ${n}`);
    });
    req.on('end', () => res.end(JSON.stringify({ received: n })));
  });
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws, req) => {
    ws.on('message', (m) => ws.send(`echo ${req.headers['x-real-ip']} ${m}`));
  });
  wsPort = (wss.address() as net.AddressInfo).port;
  const deadPort = await freePort();
  deadUrl = `http://127.0.0.1:${deadPort}`;
  port = await freePort();
  const made = await rp.addRule({
    port,
    subRules: [
      { domains: ['rr.test'], targets: [a.url, sink.url.replace('127.0.0.1', 'localhost')] },
      { domains: ['fo.test'], targets: [deadUrl, a.url] },
      { domains: ['hc.test'], targets: [deadUrl, a.url] },
      { domains: ['down.test'], targets: [deadUrl] },
      { domains: ['big.test'], targets: [sink.url] },
      { domains: ['ws.test'], targets: [`http://127.0.0.1:${wsPort}`] },
      { domains: ['nows.test'], targets: [`http://127.0.0.1:${wsPort}`], websocket: false },
    ],
  });
  ruleKey = made.key;
  subKeys = new Map(made.rule.subRules.map((x: { domains: string[]; key: string }) => [x.domains[0], x.key]));
});
afterAll(async () => {
  await rp.close();
  await a.close();
  await sink.close();
  wss.close();
});

describe('reverse proxy', () => {
  it('round-robins over the back ends', async () => {
    const hitsBefore = [a.hits, sink.hits];
    for (let i = 0; i < 4; i++) await get(port, '/', 'rr.test');
    expect(a.hits - hitsBefore[0]).toBe(2);
    expect(sink.hits - hitsBefore[1]).toBe(2);
  });

  it('fails over to the next back end, and answers a 502 page when none is up', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await get(port, '/', 'fo.test');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).name).toBe('a');
    }
    const down = await get(port, '/', 'down.test');
    expect(down.status).toBe(502);
    expect(down.body).toContain('502 Bad Gateway');
  });

  it('sends requests to the other back end first once one is unreachable, and logs it once', async () => {
    const before = a.hits;
    for (let i = 0; i < 10; i++) {
      const r = await get(port, '/', 'hc.test');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).name).toBe('a');
    }
    expect(a.hits - before).toBe(10);
    // Round robin would try the dead one for every second request; it was tried once.
    const r = await rp.call(
      'GET',
      `/api/reverseproxy/rules/${ruleKey}/logs?site=${subKeys.get('hc.test')}&pageSize=100`,
    );
    const texts: string[] = r.body.logs.map((l: { text: string }) => l.text);
    expect(texts.filter((t) => t.includes('proxy error'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes(`back end ${deadUrl} unreachable (ECONNREFUSED)`))).toHaveLength(1);
    expect(texts.find((t) => t.includes('unreachable'))).toContain('the others go first for 10 s');
  });

  it("shows the rule's live figures: connections open now, requests and bytes both ways", async () => {
    /** The rule's status.traffic once `ok` holds for it (figures are taken once a second). */
    const trafficWhen = async (ok: (t: Record<string, number>) => boolean) => {
      const read = async (): Promise<Record<string, number> | undefined> => {
        const list = (await rp.call('GET', '/api/reverseproxy/rules')).body.list;
        return list.find((x: { key: string }) => x.key === ruleKey).status.traffic;
      };
      const t = await waitFor(read, (t) => t !== undefined && ok(t), { interval: 100, what: 'the figures' });
      return t!;
    };
    const before = await trafficWhen(() => true);
    for (let i = 0; i < 3; i++) {
      const r = await get(port, `/download?size=${MiB}`, 'big.test');
      expect(r.body.length).toBe(MiB);
    }
    const up = Buffer.alloc(200_000, 1);
    const posted = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, path: '/up', method: 'POST', headers: { host: 'big.test' }, agent: false },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(up);
    });
    expect(posted).toBe(200);
    const after = await trafficWhen(
      (t) => t.requests >= before.requests + 4 && t.bytesOut >= before.bytesOut + 3 * MiB,
    );
    expect(after.bytesIn - before.bytesIn).toBeGreaterThanOrEqual(up.length);
    expect(after.bytesOut - before.bytesOut).toBeLessThan(3 * MiB + 64 * 1024); // answers plus their heads
    // A kept-open connection counts while it is open.
    const open = await new Promise<net.Socket>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => resolve(c));
    });
    const withOpen = await trafficWhen((t) => t.connections >= 1);
    open.destroy();
    await trafficWhen((t) => t.connections === withOpen.connections - 1);
  });

  it('tunnels websockets (echo) and refuses them where switched off', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/chat`, { headers: { host: 'ws.test' } });
    await new Promise((r, j) => {
      ws.once('open', r);
      ws.once('error', j);
    });
    const reply = new Promise<string>((r) => ws.once('message', (m) => r(String(m))));
    ws.send('ping');
    expect(await reply).toBe('echo 127.0.0.1 ping');
    ws.close();
    const off = new WebSocket(`ws://127.0.0.1:${port}/chat`, { headers: { host: 'nows.test' } });
    const status = await new Promise<number>((r) =>
      off.once('unexpected-response', (_req, res) => r(res.statusCode ?? 0)),
    );
    expect(status).toBe(404);
  });

  it('streams a 256 MiB upload and download with flat memory', async () => {
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    try {
      const up = await new Promise<string>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path: '/upload',
            method: 'POST',
            headers: { host: 'big.test', 'content-length': String(BIG) },
          },
          (res) => {
            let t = '';
            res.on('data', (d) => {
              t += d;
            });
            res.on('end', () => resolve(t));
          },
        );
        req.on('error', reject);
        zeros(BIG).pipe(req);
      });
      expect(JSON.parse(up).received).toBe(BIG);
      const down = await new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: `/download?size=${BIG}`, headers: { host: 'big.test' } }, (res) => {
            let n = 0;
            res.on('data', (d: Buffer) => {
              n += d.length;
            });
            res.on('end', () => resolve(n));
          })
          .on('error', reject);
      });
      expect(down).toBe(BIG);
    } finally {
      clearInterval(timer);
    }
    // Client, proxy and back end share this process: 512 MiB went through, memory must not follow.
    // The bound is for garbage read buffers V8 collects late on Node 24 (reverseproxy.stream.test.ts).
    expect(peak - rss0).toBeLessThan(160 * MiB);
  }, 30_000);

  it('streams a chunked upload of unknown length sent with "Expect: 100-continue" (curl -T -)', async () => {
    const curl = spawn('curl', ['-s', '-S', '-T', '-', '-H', 'Host: big.test', `http://127.0.0.1:${port}/up`], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    curl.stdout.on('data', (d) => {
      out += d;
    });
    zeros(8 * MiB).pipe(curl.stdin);
    const code = await new Promise((r) => curl.once('exit', r));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ received: 8 * MiB });
  });

  it('passes a client disconnect mid-body on to the back end', async () => {
    aborted.length = 0;
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/upload',
      method: 'POST',
      headers: { host: 'big.test', 'content-length': String(10 * MiB) },
    });
    req.on('error', () => {});
    const start = uploaded;
    req.write(Buffer.alloc(MiB));
    // Disconnect mid-body: once the back end has the first bytes of it.
    await waitFor(() => uploaded > start, { what: 'the upload at the back end' });
    req.destroy();
    const dl = http.get(
      { host: '127.0.0.1', port, path: `/download?size=${BIG}`, headers: { host: 'big.test' } },
      (res) => {
        res.once('data', () => res.destroy());
      },
    );
    dl.on('error', () => {});
    await waitFor(
      () => aborted,
      (a) => a.length >= 2,
      { timeout: 3000, what: 'both aborts at the back end' },
    );
    expect(aborted.some((x) => x.startsWith('upload after'))).toBe(true);
    expect(aborted).toContain('download');
  });
});
