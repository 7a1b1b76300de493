// A real browser on the web service's own HTTP/2 engine: chromium loads a page over HTTPS (h2 by
// ALPN) from a file-server sub rule with 40 images, which its many streams fetch at once, and the
// page's script posts 300 KiB through a proxy sub rule to a back end that echoes a digest. A reload
// revalidates every file (304 over h2). A WebSocket to a proxy sub rule rides the same HTTP/2
// connection (RFC 8441 extended CONNECT, which the access log shows as CONNECT, not UPGRADE).
// Rule and certificate are made through the REST API; the screens are covered by
// reverseproxy.test.ts.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { waitFor } from '../packages/server/test/wait.js';
import { apiLogin, freePort, launchBrowser, type Program, selfSignedCert, startProgram } from './harness.js';

const IMAGES = 40;
const UPLOAD = 300 * 1024;

let browser: Browser;
let program: Program;
let backend: http.Server;
let dir: string;
let port: number;
let wss: WebSocketServer;
let api: (method: string, p: string, body?: unknown) => Promise<Record<string, unknown>>;
let ruleKey: string;
let wsSiteKey: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lucky-e2e-h2-'));
  const site = path.join(dir, 'site');
  fs.mkdirSync(path.join(site, 'img'), { recursive: true });
  const imgs = Array.from({ length: IMAGES }, (_, i) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${10 + i}" height="10"><rect width="100%" height="100%" fill="#${(i * 40503).toString(16).padStart(6, '0').slice(-6)}"/></svg>`;
    fs.writeFileSync(path.join(site, 'img', `${i}.svg`), svg);
    return `<img src="img/${i}.svg" alt="${i}">`;
  });
  fs.writeFileSync(
    path.join(site, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>h2</title></head><body>${imgs.join('')}
<script>
window.result = (async () => {
  const body = new Uint8Array(${UPLOAD});
  for (let i = 0; i < body.length; i++) body[i] = (i * 7) & 255;
  const r = await fetch('/api/digest', { method: 'POST', body });
  return { status: r.status, text: await r.text() };
})();
</script></body></html>`,
  );
  selfSignedCert(dir, { cn: '127.0.0.1', san: 'IP:127.0.0.1' });
  // The back end answers the length and SHA-256 of what it received.
  backend = http.createServer((req, res) => {
    const hash = createHash('sha256');
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      hash.update(c);
    });
    req.on('end', () => res.end(`${req.method} ${req.url} ${n} ${hash.digest('hex')}`));
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  const backendPort = (backend.address() as net.AddressInfo).port;

  // The WebSocket back end echoes text with a prefix and binary as it came.
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => ws.on('message', (m, binary) => ws.send(binary ? m : `echo ${m}`, { binary })));
  const wsPort = (wss.address() as net.AddressInfo).port;

  browser = await launchBrowser();
  program = await startProgram();
  const token = await apiLogin(program.base);
  api = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(program.base + p, {
      method,
      headers: { authorization: token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json();
    if (json.ret !== 0) throw new Error(`${method} ${p}: ${JSON.stringify(json)}`);
    return json;
  };
  const b64 = (f: string) => fs.readFileSync(path.join(dir, f)).toString('base64');
  await api('POST', '/api/ssl', { CertBase64: b64('cert.pem'), KeyBase64: b64('key.pem') });
  port = await freePort();
  const made = await api('POST', '/api/reverseproxy/rules', {
    name: 'h2 site',
    address: '127.0.0.1',
    port,
    listenTypes: 'https',
    http2: true,
    subRules: [
      { domains: ['127.0.0.1'], pathPrefix: '/api', targets: [`http://127.0.0.1:${backendPort}`] },
      { name: 'ws', domains: ['127.0.0.1'], pathPrefix: '/ws', targets: [`http://127.0.0.1:${wsPort}`] },
      { domains: ['127.0.0.1'], serviceType: 'files', mounts: [{ urlPath: '/', dir: site }] },
    ],
  });
  const rule = made.rule as { status: { state: string }; subRules: Array<{ key: string; name: string }> };
  expect(rule.status.state).toBe('running');
  ruleKey = made.key as string;
  wsSiteKey = rule.subRules.find((x) => x.name === 'ws')?.key as string;
});

afterAll(async () => {
  await browser?.close();
  await program?.stop();
  for (const c of wss?.clients ?? []) c.terminate();
  wss?.close();
  backend?.closeAllConnections();
  backend?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('web service over HTTP/2 in a browser', () => {
  it('loads a page with 40 images over h2, posts 300 KiB through the proxy, and revalidates on reload', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await context.newPage();
      const statuses: number[] = [];
      page.on('response', (r) => statuses.push(r.status()));
      await page.goto(`https://127.0.0.1:${port}/`, { waitUntil: 'load' });

      const loaded = await page.evaluate(() =>
        [...document.images].map((img) => ({ ok: img.complete, width: img.naturalWidth })),
      );
      expect(loaded).toHaveLength(IMAGES);
      expect(loaded.every((x, i) => x.ok && x.width === 10 + i)).toBe(true);

      const expected = Buffer.alloc(UPLOAD);
      for (let i = 0; i < UPLOAD; i++) expected[i] = (i * 7) & 255;
      const posted = await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result);
      expect(posted).toEqual({
        status: 200,
        text: `POST /api/digest ${UPLOAD} ${createHash('sha256').update(expected).digest('hex')}`,
      });

      // Every resource came over HTTP/2, none failed.
      const protocols = await page.evaluate(() => [
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
        ...performance.getEntriesByType('resource').map((e) => (e as PerformanceResourceTiming).nextHopProtocol),
      ]);
      expect(protocols).toHaveLength(IMAGES + 2);
      expect(new Set(protocols)).toEqual(new Set(['h2']));
      expect(statuses.filter((s) => s !== 200)).toEqual([]);

      // A reload asks again with the validators it was given: the files answer 304.
      statuses.length = 0;
      await page.reload({ waitUntil: 'load' });
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200 || s === 304)).toBe(true);
      expect(statuses.filter((s) => s === 304).length).toBeGreaterThan(0);
      const again = await page.evaluate(() => [...document.images].filter((img) => img.naturalWidth > 0).length);
      expect(again).toBe(IMAGES);
    } finally {
      await context.close();
    }
  });

  it('carries a WebSocket on the same HTTP/2 connection (extended CONNECT): text and 100 KiB binary echo', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await context.newPage();
      await page.goto(`https://127.0.0.1:${port}/`, { waitUntil: 'load' });
      const got = await page.evaluate(async (url) => {
        const ws = new WebSocket(url);
        ws.binaryType = 'arraybuffer';
        const messages: Array<string | ArrayBuffer> = [];
        const closed = new Promise<number>((r) => ws.addEventListener('close', (e) => r(e.code)));
        await new Promise((r, j) => {
          ws.addEventListener('open', r);
          ws.addEventListener('error', j);
        });
        const two = new Promise<void>((r) =>
          ws.addEventListener('message', (e) => {
            messages.push(e.data);
            if (messages.length === 2) r();
          }),
        );
        const bin = new Uint8Array(100 * 1024);
        for (let i = 0; i < bin.length; i++) bin[i] = (i * 13) & 255;
        ws.send('hello over h2');
        ws.send(bin);
        await two;
        const back = new Uint8Array(messages[1] as ArrayBuffer);
        const same = back.length === bin.length && back.every((b, i) => b === bin[i]);
        ws.close(1000);
        return { text: messages[0], same, code: await closed };
      }, `wss://127.0.0.1:${port}/ws/echo`);
      expect(got).toEqual({ text: 'echo hello over h2', same: true, code: 1000 });

      // The access log of the sub rule names the request: CONNECT (HTTP/2), not an HTTP/1.1 UPGRADE.
      const texts = await waitFor(
        async () => {
          const r = await api('GET', `/api/reverseproxy/rules/${ruleKey}/logs?site=${wsSiteKey}&pageSize=20`);
          return (r.logs as Array<{ text: string }>).map((l) => l.text);
        },
        (t) => t.some((x) => x.includes(' CONNECT ')),
        { interval: 100, what: 'the CONNECT line in the access log' },
      );
      expect(texts.some((t) => t.includes(` CONNECT https://127.0.0.1:${port}/ws/echo 200 `))).toBe(true);
      expect(texts.some((t) => t.includes('UPGRADE'))).toBe(false);
    } finally {
      await context.close();
    }
  });
});
