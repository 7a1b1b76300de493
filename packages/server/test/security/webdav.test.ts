// Attack tests for the WebDAV server's listener (docs/SECURITY.md): connection floods and slow
// peers (caps at accept, header deadline, a PUT that never ends), request bodies that are too big
// or are XML bombs, password-guessing races (throttle, lock, bounded scrypt through the fair
// gate) and Destination headers that try to leave a mount. Each runs a whole WebdavRuntime (the
// module's runtime as the supervisor starts it: its listener, address rules, sign-in and the
// WebDAV engine over a local folder). Attackers bind loopback addresses of their own (127.0.0.2 …):
// "another client" is another address. The flood comes from another process (flooder.mjs), so
// this process's memory is the server's.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { baseSettingsSchema } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FairGate } from '../../src/core/auth/fairGate.js';
import { ServiceAuth } from '../../src/core/auth/serviceAuth.js';
import { webLimitsOf } from '../../src/core/http/admission.js';
import { resolverWith } from '../certs-helpers.js';
import { type EscapeSandbox, plantEscapeTargets } from '../storage/escapeCorpus.js';
import { waitFor } from '../wait.js';
import { type DavRuntime, localStorageEntry, request, startDavRuntime } from '../webdav-helpers.js';

const MB = 1024 * 1024;
const FLOODER = new URL('./flooder.mjs', import.meta.url).pathname;
const ALICE = 'alice:alice-password';
const SLOW_HEAD = 'PROPFIND / HTTP/1.1\r\nHost: nas.test\r\nX-Slow: ';

let dir: string;
let root: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-webdav-attacks-'));
  root = path.join(dir, 'root');
  await mkdir(root);
  await writeFile(path.join(root, 'a.txt'), 'hello');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** alice: read-write on /files, read-only on /ro. bob sees /hidden only. */
function server(extra: Partial<Parameters<typeof startDavRuntime>[0]> = {}): Promise<DavRuntime> {
  return startDavRuntime({
    mounts: [
      { key: 'M1', name: 'files', storage: 'S1' },
      { key: 'M2', name: 'ro', storage: 'S1' },
      { key: 'M3', name: 'hidden', storage: 'S1' },
    ],
    users: [
      { key: 'U1', name: 'alice', password: 'alice-password', access: { M1: 'rw', M2: 'ro' } },
      { key: 'U2', name: 'bob', password: 'bob-password', access: { M3: 'rw' } },
    ],
    storages: { S1: localStorageEntry('S1', root) },
    ...extra,
  });
}

/** A flooding client in another process: its connections stay open until `end`. */
async function remoteFlood(port: number, count: number, localAddress: string, head: string) {
  const child: ChildProcess = fork(FLOODER, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (m: object) =>
    new Promise<{ opened: number; open: number }>((resolve) => {
      child.once('message', resolve);
      child.send(m);
    });
  const first = await ask({ t: 'flood', port, count, localAddress, head, batch: 250 });
  return { opened: first.opened, open: async () => (await ask({ t: 'count' })).open, end: () => child.kill() };
}

/** A raw connection; resolves when connected. */
function connect(port: number, localAddress = '127.0.0.1'): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const c = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(c));
    c.on('error', reject);
  });
}

/** Everything the server sends until it closes (or ends its side), and how long the connection lived. */
function untilClosed(c: net.Socket): Promise<{ text: string; ms: number }> {
  const t0 = performance.now();
  let text = '';
  c.setEncoding('latin1');
  c.on('data', (d: string) => {
    text += d;
  });
  c.on('error', () => undefined);
  return new Promise((resolve) => {
    const done = () => resolve({ text, ms: performance.now() - t0 });
    c.once('close', done);
    // The server's FIN: with our own writes still queued (a body it refused) the socket would
    // not close until they drained, which they never do.
    c.once('end', () => {
      done();
      c.destroy();
    });
  });
}

const basic = (cred: string) => `Basic ${Buffer.from(cred).toString('base64')}`;
const heapMb = () => process.memoryUsage().heapUsed / MB;

describe('connection floods and slow peers', () => {
  it('3,000 half-open connections from 127.0.0.2 are held at the per-address cap; another address is served within 1 s', async () => {
    const d = await server();
    const heapBefore = heapMb();
    const f = await remoteFlood(d.port, 3000, '127.0.0.2', SLOW_HEAD);
    try {
      const held = await waitFor(
        () => f.open(),
        (n) => n <= 64,
        { timeout: 8000, what: 'the flood held at the per-address cap (64)' },
      );
      expect(held).toBeGreaterThanOrEqual(50);
      const t0 = performance.now();
      const r = await request(d.port, '/files/', {
        method: 'PROPFIND',
        auth: ALICE,
        from: '127.0.0.3',
        headers: { depth: '1' },
      });
      const ms = performance.now() - t0;
      expect(r.status).toBe(207);
      expect(r.body).toContain('a.txt');
      expect(ms).toBeLessThan(1000);
      expect(d.rt.view().refused).toBeGreaterThan(2500);
      const grew = heapMb() - heapBefore;
      console.log(
        `webdav flood: held ${held} of 3000, PROPFIND from another address ${ms.toFixed(0)} ms, heap +${grew.toFixed(1)} MB`,
      );
      expect(grew).toBeLessThan(64);
    } finally {
      f.end();
      await d.stop();
    }
  }, 30_000);

  it('at the total cap a newcomer from another address takes the biggest holder’s oldest slot', async () => {
    const d = await server({ settings: { maxConnections: 100, perAddressMaxConnections: 1000 } });
    const f = await remoteFlood(d.port, 300, '127.0.0.4', SLOW_HEAD);
    try {
      await waitFor(
        () => f.open(),
        (n) => n <= 100,
        { timeout: 8000, what: 'the flood held at the total cap' },
      );
      const r = await request(d.port, '/files/a.txt', { auth: ALICE, from: '127.0.0.5' });
      expect(r.status).toBe(200);
      expect(r.body).toBe('hello');
    } finally {
      f.end();
      await d.stop();
    }
  }, 30_000);

  it('a request head trickled a byte at a time is cut at the header time-out (2 s here)', async () => {
    const d = await server({
      ctx: { webLimits: () => ({ ...webLimitsOf(baseSettingsSchema.parse({})), headerMs: 2000 }) },
    });
    try {
      const c = await connect(d.port);
      const closed = untilClosed(c);
      c.write(SLOW_HEAD);
      // The time-out is the behaviour under test: the head keeps trickling until the server cuts it.
      const timer = setInterval(() => c.destroyed || c.write('a'), 200);
      const { ms } = await closed;
      clearInterval(timer);
      expect(ms).toBeGreaterThan(1500);
      expect(ms).toBeLessThan(6000);
    } finally {
      await d.stop();
    }
  }, 15_000);

  it('a PUT whose body stops arriving is cut after the body idle time (1 s here), its upload discarded; a slow one that keeps moving is not', async () => {
    const d = await server({ runtime: { bodyIdleMs: 1000 } });
    try {
      const stalled = await connect(d.port);
      const closed = untilClosed(stalled);
      stalled.write(
        `PUT /files/never.bin HTTP/1.1\r\nHost: nas.test\r\nAuthorization: ${basic(ALICE)}\r\nContent-Length: 1000000\r\n\r\n0123456789`,
      );
      const { ms } = await closed;
      expect(ms).toBeGreaterThan(800);
      expect(ms).toBeLessThan(6000);
      // No half upload in the storage: neither the file nor its temp file.
      await waitFor(
        async () => (await readdir(root)).filter((n) => n.includes('never')),
        (l) => l.length === 0,
        {
          what: 'the abandoned upload removed',
        },
      );
      expect(d.rt.log.newest(10).some((l) => l.code === 'bodyStalled')).toBe(true);

      // A byte every 300 ms for 3 s: slower than the idle time in total, but never idle that long.
      const slow = await connect(d.port);
      const answer = untilClosed(slow);
      const body = 'x'.repeat(10);
      slow.write(
        `PUT /files/slow.bin HTTP/1.1\r\nHost: nas.test\r\nAuthorization: ${basic(ALICE)}\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      for (const ch of body) {
        await new Promise((r) => setTimeout(r, 300));
        slow.write(ch);
      }
      const { text } = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 201/);
    } finally {
      await d.stop();
    }
  }, 20_000);

  it('over HTTP/2 a stalled PUT stream is reset after the body idle time; the connection goes on serving', async () => {
    const { resolver } = await resolverWith(['nas.test']);
    const d = await server({
      settings: { tls: { enabled: true } },
      runtime: { bodyIdleMs: 1000 },
      ctx: { certs: resolver },
    });
    const session = http2.connect(`https://127.0.0.1:${d.port}`, { servername: 'nas.test', rejectUnauthorized: false });
    session.on('error', () => undefined);
    try {
      const t0 = performance.now();
      const stalled = session.request({
        ':method': 'PUT',
        ':path': '/files/never-h2.bin',
        authorization: basic(ALICE),
        'content-length': '1000000',
      });
      stalled.on('error', () => undefined);
      stalled.write('0123456789');
      await new Promise((r) => stalled.once('close', r));
      const ms = performance.now() - t0;
      expect(ms).toBeGreaterThan(800);
      expect(ms).toBeLessThan(6000);
      expect(stalled.rstCode).toBeGreaterThan(0);
      const next = session.request({ ':path': '/files/a.txt', authorization: basic(ALICE) });
      let status = 0;
      let body = '';
      next.on('response', (h) => {
        status = Number(h[':status']);
      });
      next.setEncoding('utf8');
      next.on('data', (c: string) => {
        body += c;
      });
      await new Promise((r) => next.once('end', r));
      expect([status, body]).toEqual([200, 'hello']);
      await waitFor(
        async () => (await readdir(root)).filter((n) => n.includes('never')),
        (l) => l.length === 0,
        {
          what: 'the abandoned upload removed',
        },
      );
    } finally {
      session.close();
      await d.stop();
    }
  }, 20_000);
});

describe('request bodies: size caps and XML bombs', () => {
  let d: DavRuntime;
  beforeAll(async () => {
    d = await server();
  });
  afterAll(() => d?.stop());

  it('a PROPFIND or LOCK declaring 64 MiB is refused with 413 before its body is read', async () => {
    for (const method of ['PROPFIND', 'LOCK', 'PROPPATCH']) {
      const c = await connect(d.port);
      const closed = untilClosed(c);
      c.write(
        `${method} /files/a.txt HTTP/1.1\r\nHost: nas.test\r\nAuthorization: ${basic(ALICE)}\r\nContent-Type: application/xml\r\nContent-Length: ${64 * MB}\r\n\r\n<?xml`,
      );
      const { text } = await closed;
      expect(text, method).toMatch(/^HTTP\/1\.1 413/);
    }
  });

  it('a chunked PROPFIND body past 1 MiB is cut at the cap; memory stays bounded', async () => {
    const heapBefore = heapMb();
    const c = await connect(d.port);
    const closed = untilClosed(c);
    c.write(
      `PROPFIND /files/ HTTP/1.1\r\nHost: nas.test\r\nAuthorization: ${basic(ALICE)}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    // 8 MiB offered at once (the socket buffers it here); the server answers 413 after 1 MiB.
    c.write(Buffer.concat(Array(128).fill(framed)));
    const { text } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(heapMb() - heapBefore).toBeLessThan(32);
  });

  it('billion laughs, external entities and deep nesting are refused with 400', async () => {
    const laughs = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE lolz [<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
      ']>',
      '<D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&lol9;</D:displayname></D:prop></D:propfind>',
    ].join('');
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&e;</D:displayname></D:prop></D:propfind>';
    const depth = 100_000;
    const nested = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</x></D:prop></D:set></D:propertyupdate>`;
    const heapBefore = heapMb();
    for (const [method, body] of [
      ['PROPFIND', laughs],
      ['PROPFIND', xxe],
      ['LOCK', xxe],
      ['PROPPATCH', nested],
    ] as const) {
      const r = await request(d.port, '/files/a.txt', {
        method,
        auth: ALICE,
        headers: { 'content-type': 'application/xml', depth: '0' },
        body,
      });
      expect(r.status, `${method} ${body.slice(0, 60)}`).toBe(400);
      expect(r.body).not.toContain('root:x:0:0');
      expect(r.body).not.toContain('lollollol');
    }
    expect(heapMb() - heapBefore).toBeLessThan(32);
  });
});

describe('password guessing', () => {
  it('60 wrong passwords at once from one address: it is locked within the failure limit, scrypt runs stay bounded, the owner signs in from another address', async () => {
    let hashed = 0;
    // The fair gate every password check goes through, counting the scrypt runs it lets through.
    class CountingGate extends FairGate {
      override run<T>(key: string, fn: () => Promise<T>): Promise<T> {
        return super.run(key, () => {
          hashed++;
          return fn();
        });
      }
    }
    const d = await server({
      ctx: { auth: new ServiceAuth(new CountingGate(2), () => ({ maxFailures: 10, lockMs: 60_000 })) },
    });
    try {
      const guesses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          request(d.port, '/files/a.txt', { auth: `alice:guess-${i}`, from: '127.0.0.6' }),
        ),
      );
      const statuses = guesses.map((g) => g.status);
      // Every guess is refused: wrong (401), throttled (503) or locked (429), never served.
      expect(statuses.every((s) => s === 401 || s === 429 || s === 503)).toBe(true);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
      expect(hashed).toBeLessThanOrEqual(10);
      // Locked now: even the right password from that address is refused, with a Retry-After.
      const locked = await request(d.port, '/files/a.txt', { auth: ALICE, from: '127.0.0.6' });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      // The owner at another address is not locked out.
      const owner = await request(d.port, '/files/a.txt', { auth: ALICE, from: '127.0.0.7' });
      expect(owner.status).toBe(200);
      expect(owner.body).toBe('hello');
      // The answers never say whether the user exists.
      const ghost = await request(d.port, '/files/a.txt', { auth: 'nobody:whatever', from: '127.0.0.8' });
      const wrong = await request(d.port, '/files/a.txt', { auth: 'alice:whatever', from: '127.0.0.8' });
      expect([ghost.status, ghost.body, ghost.headers['www-authenticate']]).toEqual([
        wrong.status,
        wrong.body,
        wrong.headers['www-authenticate'],
      ]);
    } finally {
      await d.stop();
    }
  }, 30_000);

  it('a burst of requests with the right new password shares one check: none is refused as busy', async () => {
    const d = await server();
    try {
      const burst = await Promise.all(
        Array.from({ length: 12 }, () => request(d.port, '/files/a.txt', { auth: ALICE, from: '127.0.0.9' })),
      );
      expect(burst.map((r) => r.status)).toEqual(Array(12).fill(200));
    } finally {
      await d.stop();
    }
  });
});

describe('Destination headers that try to leave a mount', () => {
  let d: DavRuntime;
  let sandbox: EscapeSandbox;
  beforeAll(async () => {
    const box = await mkdtemp(path.join(os.tmpdir(), 'lucky-webdav-dest-'));
    sandbox = await plantEscapeTargets(box);
    d = await startDavRuntime({
      settings: { pathPrefix: '/dav' },
      mounts: [
        { key: 'M1', name: 'files', storage: 'S1' },
        { key: 'M2', name: 'ro', storage: 'S1' },
        { key: 'M3', name: 'hidden', storage: 'S1' },
      ],
      users: [{ key: 'U1', name: 'alice', password: 'alice-password', access: { M1: 'rw', M2: 'ro' } }],
      storages: { S1: localStorageEntry('S1', sandbox.root) },
    });
  });
  afterAll(() => d?.stop());

  const copy = (method: 'COPY' | 'MOVE', from: string, destination: string) =>
    request(d.port, from, { method, auth: ALICE, headers: { destination, overwrite: 'T' } });

  it('encoded dot segments, encoded separators and absolute paths in Destination stay refused and write nothing outside', async () => {
    const tricks = [
      '/dav/files/%2e%2e/%2e%2e/escaped.txt',
      '/dav/files/..%2f..%2fescaped.txt',
      '/dav/files/%2e%2e%2f%2e%2e%2fescaped.txt',
      '/dav/files/..%5c..%5cescaped.txt',
      '/dav/files/%c0%ae%c0%ae/escaped.txt',
      '/dav/files/link-out/escaped.txt',
      '/dav/files/sub/up/escaped.txt',
      '/dav/../escaped.txt',
      '//etc/escaped.txt',
      `http://127.0.0.1:${d.port}/dav/files/%2e%2e/%2e%2e/%2e%2e/escaped.txt`,
      'file:///tmp/escaped.txt',
    ];
    for (const method of ['COPY', 'MOVE'] as const) {
      for (const t of tricks) {
        const r = await copy(method, '/dav/files/inside.txt', t);
        expect(r.status, `${method} → ${t}`).toBeGreaterThanOrEqual(400);
      }
    }
    expect(await sandbox.changedOutside()).toEqual([]);
  });

  it('a read-only mount and a mount the user cannot see are refused as destinations; a path outside the prefix is a 502', async () => {
    expect((await copy('COPY', '/dav/files/inside.txt', '/dav/ro/x.txt')).status).toBe(403);
    const hidden = await copy('COPY', '/dav/files/inside.txt', '/dav/hidden/x.txt');
    expect([403, 404, 409]).toContain(hidden.status);
    expect((await copy('MOVE', '/dav/files/inside.txt', '/elsewhere/x.txt')).status).toBe(502);
    expect((await copy('MOVE', '/dav/files/inside.txt', '/dav/')).status).toBeGreaterThanOrEqual(400);
    expect(await sandbox.changedOutside()).toEqual([]);
  });

  it('a Destination naming a foreign host is judged by its path: the copy stays inside the mount', async () => {
    const r = await copy('COPY', '/dav/files/inside.txt', 'https://evil.example/dav/files/copied.txt');
    expect(r.status).toBe(201);
    const back = await request(d.port, '/dav/files/copied.txt', { auth: ALICE });
    expect(back.body).toBe(sandbox.insideContent);
    expect(await sandbox.changedOutside()).toEqual([]);
  });
});
