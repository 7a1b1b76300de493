// The web service when node's internal HTTP/1 parser cannot be used (llhttp.ts self-test failed,
// forced here by LUCKY_HTTP1_PARSER=node): HTTP/1 is served by node:http and back ends are
// reached with node:http's client (nodeHttpBackend.ts). Same answers, bodies byte-exact,
// keep-alive, WebSockets, failover and 502 — and the log says why it is slower.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { type Backend, backend, freePort, get, type Rp, startRp } from './reverseproxy-helpers.js';

vi.hoisted(() => {
  process.env.LUCKY_HTTP1_PARSER = 'node';
});

let rp: Rp;
let echo: Backend;
let wss: WebSocketServer;
let port: number;
let deadUrl: string;

beforeAll(async () => {
  rp = await startRp();
  echo = await backend('echo', (req, res) => {
    const hash = createHash('sha256');
    let n = 0;
    req.on('data', (d: Buffer) => {
      n += d.length;
      hash.update(d);
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ url: req.url, n, sha: hash.digest('hex'), te: req.headers['transfer-encoding'] ?? '' }));
    });
  });
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => ws.on('message', (m) => ws.send(`echo ${m}`)));
  deadUrl = `http://127.0.0.1:${await freePort()}`;
  port = await freePort();
  await rp.addRule({
    port,
    subRules: [
      { domains: ['e.test'], targets: [echo.url] },
      { domains: ['fo.test'], targets: [deadUrl, echo.url] },
      { domains: ['down.test'], targets: [deadUrl] },
      { domains: ['ws.test'], targets: [`http://127.0.0.1:${(wss.address() as net.AddressInfo).port}`] },
    ],
  });
});
afterAll(async () => {
  delete process.env.LUCKY_HTTP1_PARSER;
  await rp.close();
  await echo.close();
  wss.close();
});

/** A request on `agent` (keep-alive when given) with `body` sent in `chunks` pieces. */
function send(body: Buffer, opts: { chunked?: boolean; agent?: http.Agent } = {}): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: 'e.test' };
    if (!opts.chunked) headers['content-length'] = String(body.length);
    const req = http.request(
      { port, host: '127.0.0.1', method: 'POST', path: '/up?x=1', headers, agent: opts.agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    if (opts.chunked) {
      for (let i = 0; i < body.length; i += 100_000) req.write(body.subarray(i, i + 100_000));
      req.end();
    } else req.end(body);
  });
}

describe('web service on node:http when the parser self-test fails', () => {
  it('says so in the log', async () => {
    const r = await rp.call('GET', '/api/logs');
    const text = JSON.stringify(r.body);
    expect(text).toContain('failed its start-up self-test');
    expect(text).toContain('LUCKY_HTTP1_PARSER=node');
  });

  it('proxies bodies byte-exact, framed by length or chunked, on kept-alive connections', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = Buffer.alloc(1_000_003);
    for (let i = 0; i < body.length; i++) body[i] = (i * 31) & 0xff;
    const sha = createHash('sha256').update(body).digest('hex');
    for (const chunked of [false, true, false]) {
      const r = await send(body, { chunked, agent });
      expect(r).toMatchObject({ url: '/up?x=1', n: body.length, sha });
      expect(r.te).toBe(chunked ? 'chunked' : '');
    }
    agent.destroy();
  });

  it('fails over to the next back end and answers 502 when none is up', async () => {
    const fo = await get(port, '/', 'fo.test');
    expect(fo.status).toBe(200);
    expect(JSON.parse(fo.body).url).toBe('/');
    const down = await get(port, '/', 'down.test');
    expect(down.status).toBe(502);
  });

  it('carries a WebSocket', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { host: 'ws.test' } });
    const reply = await new Promise<string>((resolve, reject) => {
      ws.on('open', () => ws.send('hi'));
      ws.on('message', (m) => resolve(String(m)));
      ws.on('error', reject);
    });
    ws.close();
    expect(reply).toBe('echo hi');
  });
});
