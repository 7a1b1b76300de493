// Issue 12 §2: one canonical path for every decision. An encoding corpus, each variant meaning
// `/admin/secret.txt`, sent over HTTP/1.1 (raw bytes, so nothing is cleaned up on the way) and
// h2c (node:http2, `:path` as given) against: a basic-auth prefix on a file server, a basic-auth
// prefix on a proxy sub rule (the back end records the path it got) and an IP-whitelisted sub
// rule (a bypass would land on the open sub rule of the same host). Every variant must get the
// same protection as the plain path, or a 400. Then the Location-producing answers.
import { promises as fs } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../harness.js';
import { type Backend, backend, freePort, type Rp, startRp } from '../reverseproxy-helpers.js';

let rp: Rp;
let port: number;
let root: string;
let be: Backend;
/** Paths the back end received, in order. */
const seen: string[] = [];
const SECRET = 'SECRET-FILE-CONTENT';
const AUTH = `Basic ${Buffer.from('u:p').toString('base64')}`;

interface Variant {
  target: string;
  /** `protected`: 401 / 403 like the plain path (with credentials the back end gets `upstream`); `bad`: 400. */
  want: 'protected' | 'bad';
  upstream?: string;
  /** HTTP/1.1 only (absolute form has no `:path` equivalent). */
  h1only?: boolean;
}

const P = '/admin/secret.txt';
const corpus: Variant[] = [
  { target: P, want: 'protected', upstream: P },
  { target: '/%61dmin/secret.txt', want: 'protected', upstream: P },
  { target: '/%61%64%6D%69%6E/%73ecret.txt', want: 'protected', upstream: P },
  { target: '/%61%64%6d%69%6e/secret%2Etxt', want: 'protected', upstream: P },
  { target: '//admin/secret.txt', want: 'protected', upstream: P },
  { target: '///admin//secret.txt', want: 'protected', upstream: P },
  { target: '/./admin/./secret.txt', want: 'protected', upstream: P },
  { target: '/x/../admin/secret.txt', want: 'protected', upstream: P },
  { target: '/x/%2e%2e/admin/secret.txt', want: 'protected', upstream: P },
  { target: '/x/%2E%2E/admin/secret.txt', want: 'protected', upstream: P },
  { target: '/x/.%2e/admin/secret.txt', want: 'protected', upstream: P },
  { target: '/%2e/admin/secret.txt', want: 'protected', upstream: P },
  { target: '/%2E//admin/secret.txt', want: 'protected', upstream: P },
  { target: '/admin/secret.txt?next=/../public', want: 'protected', upstream: `${P}?next=/../public` },
  { target: '/admin;jsessionid=1/secret.txt', want: 'protected', upstream: '/admin;jsessionid=1/secret.txt' },
  { target: '/;x/admin/secret.txt', want: 'protected', upstream: '/;x/admin/secret.txt' },
  { target: `/admin/${'x/../'.repeat(1500)}secret.txt`, want: 'protected', upstream: P },
  { target: '/admin%2fsecret.txt', want: 'bad' },
  { target: '/admin%2Fsecret.txt', want: 'bad' },
  { target: '/public%2f..%2fadmin/secret.txt', want: 'bad' },
  { target: '/admin%5csecret.txt', want: 'bad' },
  { target: '/admin%5Csecret.txt', want: 'bad' },
  { target: '/admin\\secret.txt', want: 'bad' },
  { target: '/public\\..\\admin\\secret.txt', want: 'bad' },
  { target: '/admin/secret.txt%00', want: 'bad' },
  { target: '/admin%00/secret.txt', want: 'bad' },
  { target: '/x/%c0%ae%c0%ae/admin/secret.txt', want: 'bad' },
  { target: '/x/%e0%80%ae%e0%80%ae/admin/secret.txt', want: 'bad' },
  { target: '/%2e%2e/admin/secret.txt', want: 'bad' },
  { target: '/../admin/secret.txt', want: 'bad' },
  { target: '/admin/..;/admin/secret.txt', want: 'bad' },
  { target: '/x/..;/admin/secret.txt', want: 'bad' },
  { target: '/x/;y/../admin/secret.txt', want: 'bad' },
  { target: '/admin%zz/secret.txt', want: 'bad' },
  { target: 'admin/secret.txt', want: 'bad' },
  { target: '*', want: 'bad' },
  { target: 'http://HOST/admin/secret.txt', want: 'protected', upstream: P, h1only: true },
  { target: 'http://HOST//admin/secret.txt', want: 'protected', upstream: P, h1only: true },
  { target: 'http://elsewhere.test/admin/secret.txt', want: 'bad', h1only: true },
];

interface Answer {
  status: number;
  body: string;
  location?: string;
}

/** One HTTP/1.1 request written byte for byte; the connection closes after the answer. */
function rawH1(target: string, host: string, headers: Record<string, string> = {}, version = '1.1'): Promise<Answer> {
  let head = `GET ${target.replace('HOST', host)} HTTP/${version}\r\nHost: ${host}\r\nConnection: close\r\n`;
  for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
  return rawRequest(`${head}\r\n`);
}

/** `head` as it is on a new connection; the answer up to the close (or the first answer's head, for an upgrade). */
function rawRequest(head: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${head.split('\r\n')[0]}`)));
    socket.on('connect', () => socket.write(head, 'latin1'));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      let text = Buffer.concat(chunks).toString('latin1');
      // Interim answers (100 Continue) first.
      while (/^HTTP\/1\.[01] 1\d\d /.test(text)) text = text.slice(text.indexOf('\r\n\r\n') + 4);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const location = /\r\nlocation: ([^\r]*)/i.exec(text)?.[1];
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), location });
    });
  });
}

let session: http2.ClientHttp2Session;

/** One h2c request with `:path` exactly `target`; a stream the engine resets answers status 0. */
function h2(target: string, host: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    let req: http2.ClientHttp2Stream;
    try {
      req = session.request({ ':path': target, ':authority': host, ...headers });
    } catch {
      // node:http2 refuses to send it at all: nothing reached the server.
      resolve({ status: 0, body: '' });
      return;
    }
    let status = 0;
    let location: string | undefined;
    let body = '';
    req.setEncoding('utf8');
    req.on('response', (h) => {
      status = Number(h[':status']);
      location = h.location as string | undefined;
    });
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('close', () => resolve({ status, body, location }));
    req.on('error', () => undefined);
    req.end();
  });
}

const transports = [
  { name: 'HTTP/1.1', send: rawH1, h2: false },
  { name: 'h2c', send: h2, h2: true },
];

beforeAll(async () => {
  rp = await startRp();
  root = await tempDir('lucky-paths-');
  await fs.mkdir(path.join(root, 'admin'), { recursive: true });
  await fs.mkdir(path.join(root, 'evil.com'), { recursive: true });
  await fs.writeFile(path.join(root, 'admin', 'secret.txt'), SECRET);
  await fs.writeFile(path.join(root, 'public.txt'), 'public');
  be = await backend('b', (req, res) => {
    seen.push(req.url ?? '');
    req.resume();
    res.end('BACKEND');
  });
  port = await freePort();
  const authOn = { enabled: true, user: 'u', password: 'p', paths: ['/admin'] };
  await rp.addRule({
    port,
    http2: true,
    h2c: true,
    defaultRule: { serviceType: 'redirect', redirectTarget: 'https://{host}', keepPath: true, redirectCode: 301 },
    subRules: [
      {
        domains: ['files.test'],
        serviceType: 'files',
        mounts: [{ urlPath: '/', dir: root }],
        basicAuth: authOn,
      },
      { domains: ['proxy.test'], targets: [be.url], basicAuth: authOn },
      // The same host twice: /admin only from 127.0.0.5 (we are 127.0.0.1), the rest open.
      {
        domains: ['ip.test'],
        pathPrefix: '/admin',
        targets: [be.url],
        ipFilter: { mode: 'whitelist', list: ['127.0.0.5'] },
      },
      { domains: ['ip.test'], pathPrefix: '/', targets: [be.url] },
      { domains: ['redir.test'], serviceType: 'redirect', redirectTarget: '/', keepPath: true, redirectCode: 302 },
    ],
  });
  session = http2.connect(`http://127.0.0.1:${port}`);
  session.on('error', () => undefined);
}, 30_000);

afterAll(async () => {
  session?.close();
  await rp?.close();
  await be?.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe.each(transports)('encoding corpus over $name', ({ send, h2: isH2 }) => {
  const variants = corpus.filter((v) => !(isH2 && v.h1only));
  /** A refusal from us (400) or, on h2, the engine resetting a `:path` it cannot take. */
  const refusedBad = (a: Answer) => a.status === 400 || (isH2 && a.status === 0);

  it('basic-auth prefix on a file server: 401 or 400, never the file', async () => {
    for (const v of variants) {
      const a = await send(v.target, 'files.test');
      expect(a.body, v.target).not.toContain(SECRET);
      if (v.want === 'bad') expect(refusedBad(a), `${v.target} → ${a.status}`).toBe(true);
      else expect(a.status, v.target).toBe(401);
    }
    // With credentials the file is there (so the 401s above guard something real).
    const ok = await send(P, 'files.test', { authorization: AUTH });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe(SECRET);
    expect((await send('//admin/secret.txt', 'files.test', { authorization: AUTH })).body).toBe(SECRET);
  }, 20_000);

  it('basic-auth prefix on a proxy sub rule: the back end sees nothing without credentials, the canonical path with', async () => {
    seen.length = 0;
    for (const v of variants) {
      const a = await send(v.target, 'proxy.test');
      if (v.want === 'bad') expect(refusedBad(a), `${v.target} → ${a.status}`).toBe(true);
      else expect(a.status, v.target).toBe(401);
    }
    expect(seen).toEqual([]);
    for (const v of variants.filter((x) => x.want === 'protected')) {
      seen.length = 0;
      const a = await send(v.target, 'proxy.test', { authorization: AUTH });
      expect(a.status, v.target).toBe(200);
      // What was checked is what the back end gets.
      expect(seen, v.target).toEqual([v.upstream]);
    }
  }, 20_000);

  it('IP-whitelisted sub rule: 403 or 400, never the open sub rule', async () => {
    seen.length = 0;
    for (const v of variants) {
      const a = await send(v.target, 'ip.test');
      if (v.want === 'bad') expect(refusedBad(a), `${v.target} → ${a.status}`).toBe(true);
      else expect(a.status, v.target).toBe(403);
    }
    expect(seen).toEqual([]);
    // The open sub rule still answers, with the canonical path.
    expect((await send('/%70ublic//x', 'ip.test')).status).toBe(200);
    expect(seen).toEqual(['/public/x']);
  }, 20_000);

  it('Location never leaves the site: file server directory, redirect rule, http→https', async () => {
    // A directory named evil.com under the mount: the slash redirect stays a path.
    const dir = await send('//evil.com', 'files.test');
    expect(dir.status).toBe(301);
    expect(dir.location).toBe('/evil.com/');
    for (const t of ['/\\evil.com', '/%2f%2fevil.com', '/%5cevil.com'])
      expect(refusedBad(await send(t, 'files.test')), t).toBe(true);
    // A redirect rule with a path target and keepPath.
    const r = await send('//evil.com/x', 'redir.test');
    expect(r.status).toBe(302);
    expect(r.location).toBe('/evil.com/x');
    // http→https on the default rule: a Host that would make `https://{host}` another site is refused.
    const https = await send('/a?b', 'site.test');
    expect(https.location).toBe('https://site.test/a?b');
    if (!isH2) {
      // h2's :authority is checked by the engine; an HTTP/1.1 Host header only by us.
      for (const host of ['site.test@evil.com', 'evil.com/x', 'evil.com\\x']) {
        const a = await rawH1('/', host);
        expect(a.status, host).toBe(400);
        expect(a.location, host).toBeUndefined();
      }
    }
  }, 20_000);
});

describe('the other HTTP/1 entry points decide on the same path', () => {
  const sample = corpus.filter((v) => !v.h1only && v.target !== '*' && !v.target.includes('\\'));

  it('HTTP/1.0 and Expect (node:http path): 401 or 400, never the file', async () => {
    for (const v of sample) {
      for (const a of [
        await rawH1(v.target, 'files.test', {}, '1.0'),
        await rawH1(v.target, 'files.test', { expect: '100-continue' }),
      ]) {
        expect(a.body, v.target).not.toContain(SECRET);
        expect(a.status, v.target).toBe(v.want === 'bad' ? 400 : 401);
      }
    }
  }, 20_000);

  it('WebSocket upgrade: 401 or 400, the back end sees nothing', async () => {
    seen.length = 0;
    for (const v of sample) {
      const a = await rawRequest(
        `GET ${v.target} HTTP/1.1\r\nHost: proxy.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
      expect(a.status, v.target).toBe(v.want === 'bad' ? 400 : 401);
    }
    expect(seen).toEqual([]);
  }, 20_000);
});
