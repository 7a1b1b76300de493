// Who may reach the admin, attacked from loopback and from a network namespace of the test's own:
// DNS rebinding (Host / Origin), carrier-grade NAT (100.64.0.0/10) and the real client behind the
// console's own web service (a client outside the LAN must not become 127.0.0.1).
//
// The namespace is joined to this one by a veth pair numbered from documentation / CGNAT ranges
// (198.51.100.0/24 TEST-NET-2, 100.64.7.0/24); nothing else on the machine is touched.
import { execFile, execFileSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend, freePort, get, type Rp, startRp } from '../reverseproxy-helpers.js';
import { waitFor } from '../wait.js';

const run = promisify(execFile);
const NS = `lkacc-${process.pid}`;
const HOST_END = `lkacc${process.pid % 100000}a`;
const NS_END = `lkacc${process.pid % 100000}b`;
const OUTSIDE = '198.51.100.2'; // a client on the internet
const CGNAT = '100.64.7.2'; // another subscriber of the ISP (or a Tailscale peer)
const GATEWAY = '198.51.100.1'; // this machine, as the namespace sees it

/** curl from inside the namespace, from `source`; status, headers text and body. */
async function curlFrom(
  source: string,
  url: string,
  args: string[] = [],
): Promise<{ status: number; headers: string; body: string }> {
  const { stdout } = await run(
    'ip',
    ['netns', 'exec', NS, 'curl', '-s', '-S', '-i', '--max-time', '10', '--interface', source, ...args, url],
    { maxBuffer: 1024 * 1024 },
  );
  const split = stdout.indexOf('\r\n\r\n');
  const headers = stdout.slice(0, split);
  return { status: Number(/^HTTP\/[\d.]+ (\d+)/.exec(headers)?.[1] ?? 0), headers, body: stdout.slice(split + 4) };
}

const json = (text: string) => JSON.parse(text);
const login = (extra: string[] = []) => [
  '-X',
  'POST',
  '-H',
  'content-type: application/json',
  '--data',
  '{"Account":"666","Password":"wrong"}',
  ...extra,
];

/** One raw request on a new loopback connection; the whole answer as text. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    let out = '';
    s.setEncoding('latin1');
    s.on('data', (d) => {
      out += d;
    });
    s.on('end', () => resolve(out));
    s.on('error', reject);
    s.setTimeout(5000, () => s.destroy(new Error('no answer')));
  });
}

beforeAll(() => {
  execFileSync('ip', ['netns', 'add', NS]);
  execFileSync('ip', ['link', 'add', HOST_END, 'type', 'veth', 'peer', 'name', NS_END, 'netns', NS]);
  execFileSync('ip', ['addr', 'add', `${GATEWAY}/24`, 'dev', HOST_END]);
  execFileSync('ip', ['addr', 'add', '100.64.7.1/24', 'dev', HOST_END]);
  execFileSync('ip', ['link', 'set', HOST_END, 'up']);
  execFileSync('ip', ['-n', NS, 'addr', 'add', `${OUTSIDE}/24`, 'dev', NS_END]);
  execFileSync('ip', ['-n', NS, 'addr', 'add', `${CGNAT}/24`, 'dev', NS_END]);
  execFileSync('ip', ['-n', NS, 'link', 'set', NS_END, 'up']);
  execFileSync('ip', ['-n', NS, 'link', 'set', 'lo', 'up']);
});
afterAll(() => {
  execFileSync('ip', ['link', 'del', HOST_END]);
  execFileSync('ip', ['netns', 'del', NS]);
});

describe('DNS rebinding: the admin answers only to names it knows', () => {
  let rp: Rp;
  let port: number;
  beforeAll(async () => {
    rp = await startRp();
    port = rp.s.server.port;
  });
  afterAll(() => rp.close());

  const evil = ['evil.example.com', 'evil.example.com:16601', '127.0.0.1.nip.io', 'localhost.evil.com', 'a b'];

  it.each(evil)('Host %j gets the refusal page on every kind of route, before auth', async (host) => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/api/health'],
      ['GET', '/api/baseconfigure'],
      ['POST', '/api/login'],
    ]) {
      const r = await get(port, path, host, { 'content-type': 'application/json' }, method);
      expect(r.status, `${method} ${path}`).toBe(421);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.body).toContain('adminHostNames');
      expect(r.body).toContain('lang="zh-CN"');
      expect(r.body).not.toContain('token');
    }
  });

  it('a right password under a rebound name gets no token', async () => {
    const text = await raw(
      port,
      'POST /api/login HTTP/1.1\r\nHost: evil.example.com\r\nContent-Type: application/json\r\nContent-Length: 34\r\nConnection: close\r\n\r\n{"Account":"666","Password":"666"}',
    );
    expect(text).toMatch(/^HTTP\/1\.1 421 /);
    expect(text).not.toContain('"token"');
  });

  it('IP literals, localhost and the machine names are served', async () => {
    const short = os.hostname().toLowerCase().split('.')[0];
    for (const host of [
      `127.0.0.1:${port}`,
      '192.168.1.2',
      `[::1]:${port}`,
      '[fe80::1]',
      'localhost',
      `localhost:${port}`,
      'LocalHost.',
      os.hostname(),
      `${short}.local:${port}`,
    ]) {
      const r = await get(port, '/api/health', host);
      expect(r.status, host).toBe(200);
    }
  });

  it('a request without Host (HTTP/1.0, not a browser) is served', async () => {
    const text = await raw(port, 'GET /api/health HTTP/1.0\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.[01] 200 /);
  });

  it('names listed in adminHostNames are served; a bad entry is refused with its field and changes nothing', async () => {
    expect((await get(port, '/api/health', 'console.example.net')).status).toBe(421);
    const bad = await rp.call('PUT', '/api/baseconfigure', { adminHostNames: ['ok.example', 'bad name!'] });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('adminHostNames.1');
    expect((await rp.call('GET', '/api/baseconfigure')).body.baseconfigure.adminHostNames).toEqual([]);

    const ok = await rp.call('PUT', '/api/baseconfigure', { adminHostNames: ['Console.Example.NET.', '*.lan'] });
    expect(ok.body.ret).toBe(0);
    expect(ok.body.baseconfigure.adminHostNames).toEqual(['console.example.net', '*.lan']);
    expect((await get(port, '/api/health', 'console.example.net')).status).toBe(200);
    expect((await get(port, '/api/health', `nas.lan:${port}`)).status).toBe(200);
    expect((await get(port, '/api/health', 'a.nas.lan')).status).toBe(421);
    expect((await rp.call('PUT', '/api/baseconfigure', { adminHostNames: [] })).body.ret).toBe(0);
    expect((await get(port, '/api/health', 'console.example.net')).status).toBe(421);
  });

  it('the security entrance: refused under a rebound name, still hidden (404) off the entrance', async () => {
    expect((await rp.call('PUT', '/api/baseconfigure', { securityEntrance: 'sesame' })).body.ret).toBe(0);
    try {
      expect((await get(port, '/sesame/api/health', 'evil.example.com')).status).toBe(421);
      expect((await get(port, '/sesame/', 'evil.example.com')).status).toBe(421);
      expect((await get(port, '/sesame/api/health', `127.0.0.1:${port}`)).status).toBe(200);
      expect((await get(port, '/api/health', 'evil.example.com')).status).toBe(404);
    } finally {
      await rp.call('PUT', '/sesame/api/baseconfigure', { securityEntrance: '' });
    }
    expect((await get(port, '/api/health', `127.0.0.1:${port}`)).status).toBe(200);
  });

  it('a cross-site change (Origin of another site) is refused; the same origin is not', async () => {
    const body = '{"Account":"666","Password":"666"}';
    const post = (origin: string) =>
      raw(
        port,
        `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    for (const origin of ['http://evil.example.com', 'null', `http://127.0.0.1.nip.io:${port}`]) {
      const text = await post(origin);
      expect(text, origin).toMatch(/^HTTP\/1\.1 403 /);
      expect(text).not.toContain('"token"');
    }
    expect(await post(`http://127.0.0.1:${port}`)).toContain('"token"');
    expect(await post(`http://localhost:${port}`)).toContain('"token"');
  });
});

describe('carrier-grade NAT is LAN only when the admin says so', () => {
  let rp: Rp;
  beforeAll(async () => {
    rp = await startRp();
  });
  afterAll(() => rp.close());

  const fromPeer = (remoteAddress: string) =>
    rp.s.server.admin.app.inject({ method: 'GET', url: '/api/health', remoteAddress, headers: { host: '127.0.0.1' } });

  it('a 100.64.x.x peer is refused by default and served with cgnatIsLan', async () => {
    for (const ip of ['100.64.0.1', '100.127.255.254', '::ffff:100.100.1.1']) {
      const r = await fromPeer(ip);
      expect(r.statusCode, ip).toBe(403);
      expect(r.json().code).toBe('outsideLan');
    }
    expect((await fromPeer('192.168.1.9')).statusCode).toBe(200);
    const on = await rp.call('PUT', '/api/baseconfigure', { cgnatIsLan: true });
    expect(on.body.ret).toBe(0);
    expect(on.body.baseconfigure.cgnatIsLan).toBe(true);
    for (const ip of ['100.64.0.1', '100.127.255.254', '::ffff:100.100.1.1'])
      expect((await fromPeer(ip)).statusCode, ip).toBe(200);
    // Just outside the range stays outside.
    expect((await fromPeer('100.128.0.1')).statusCode).toBe(403);
    expect((await rp.call('PUT', '/api/baseconfigure', { cgnatIsLan: false })).body.ret).toBe(0);
    expect((await fromPeer('100.64.0.1')).statusCode).toBe(403);
  });

  it('a bad value is refused with its field', async () => {
    const r = await rp.call('PUT', '/api/baseconfigure', { cgnatIsLan: 'yes' });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('cgnatIsLan');
  });
});

/** The console published through one of its own web service rules, reached from the namespace. */
function publishedConsole(helpers: boolean) {
  const ctx = { rp: undefined as unknown as Rp, url: '' };
  const saved = { n: process.env.LUCKY_WEB_HELPERS, start: process.env.LUCKY_WEB_HELPERS_START };
  beforeAll(async () => {
    if (helpers) {
      process.env.LUCKY_WEB_HELPERS = '1';
      process.env.LUCKY_WEB_HELPERS_START = 'eager';
    }
    ctx.rp = await startRp();
    const webPort = await freePort();
    await ctx.rp.addRule({
      address: GATEWAY,
      port: webPort,
      defaultRule: { targets: [`http://127.0.0.1:${ctx.rp.s.server.port}`] },
    });
    ctx.url = `http://${GATEWAY}:${webPort}`;
    if (helpers) {
      const rp = ctx.rp;
      await waitFor(
        async () => JSON.stringify((await rp.call('GET', '/api/status')).body),
        (body) => body.includes('"helperProcesses":1'),
        { timeout: 10_000, interval: 100, what: 'a helper process' },
      );
    }
  });
  afterAll(async () => {
    await ctx.rp?.close();
    process.env.LUCKY_WEB_HELPERS = saved.n;
    process.env.LUCKY_WEB_HELPERS_START = saved.start;
    if (saved.n === undefined) delete process.env.LUCKY_WEB_HELPERS;
    if (saved.start === undefined) delete process.env.LUCKY_WEB_HELPERS_START;
  });
  return ctx;
}

describe('the console behind its own web service sees the real client', () => {
  const ctx = publishedConsole(false);

  it('a client outside the LAN is refused, and naming another address itself gains nothing', async () => {
    const forged = [
      [],
      ['-H', 'X-Forwarded-For: 192.168.1.5', '-H', 'X-Real-IP: 192.168.1.5'],
      ['-H', 'x-lucky-relay: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA 192.168.1.5 localhost'],
      ['-H', 'Forwarded: for=192.168.1.5'],
    ];
    for (const extra of forged) {
      const r = await curlFrom(OUTSIDE, `${ctx.url}/api/health`, extra);
      expect(r.status, extra.join(' ')).toBe(403);
      expect(json(r.body)).toMatchObject({ code: 'outsideLan', ip: OUTSIDE });
    }
    // The UI and the login are behind the same gate.
    expect((await curlFrom(OUTSIDE, `${ctx.url}/`)).status).toBe(403);
    expect((await curlFrom(OUTSIDE, `${ctx.url}/api/login`, login())).status).toBe(403);
  });

  it('a CGNAT client is refused by default and served with cgnatIsLan', async () => {
    const r = await curlFrom(CGNAT, `${ctx.url}/api/health`);
    expect(r.status).toBe(403);
    expect(json(r.body).ip).toBe(CGNAT);
    expect((await ctx.rp.call('PUT', '/api/baseconfigure', { cgnatIsLan: true })).body.ret).toBe(0);
    try {
      expect((await curlFrom(CGNAT, `${ctx.url}/api/health`)).status).toBe(200);
      expect((await curlFrom(OUTSIDE, `${ctx.url}/api/health`)).status).toBe(403);
    } finally {
      await ctx.rp.call('PUT', '/api/baseconfigure', { cgnatIsLan: false });
    }
  });

  it('with internet access on, the throttle, sessions and logs use the real address', async () => {
    expect((await ctx.rp.call('PUT', '/api/baseconfigure', { allowInternetAccess: true })).body.ret).toBe(0);
    try {
      // The outside client locks itself out …
      let last = { status: 0, body: '' };
      for (let i = 0; i < 7; i++) last = await curlFrom(OUTSIDE, `${ctx.url}/api/login`, login());
      expect(last.status).toBe(403);
      expect(json(last.body).code).toBe('loginThrottled');
      // … and forging the address does not get it a fresh bucket.
      const forged = await curlFrom(
        OUTSIDE,
        `${ctx.url}/api/login`,
        login(['-H', 'X-Forwarded-For: 10.9.9.9', '-H', 'x-lucky-relay: x 10.9.9.9 h']),
      );
      expect(json(forged.body).code).toBe('loginThrottled');
      // … while the owner on loopback and another client through the same rule still sign in.
      expect(await ctx.rp.s.login()).toMatch(/./);
      const other = await curlFrom(CGNAT, `${ctx.url}/api/login`, [
        '-X',
        'POST',
        '-H',
        'content-type: application/json',
        '--data',
        '{"Account":"666","Password":"666"}',
      ]);
      expect(json(other.body).ret, other.body).toBe(0);
      const sessions = await ctx.rp.call('GET', '/api/sessions');
      expect(sessions.body.list.map((s: { clientIp: string }) => s.clientIp)).toContain(CGNAT);
      const logs = await ctx.rp.call('GET', '/api/logs?pre=0');
      expect(JSON.stringify(logs.body)).toContain(`admin signed in from ${CGNAT}`);
    } finally {
      await ctx.rp.call('PUT', '/api/baseconfigure', { allowInternetAccess: false });
    }
  });
});

describe('the relay header never reaches another back end', () => {
  const ctx = publishedConsole(false);

  it('is stripped from clients and not added for a back end that is not the admin', async () => {
    const echo = await backend('echo');
    try {
      const port = await freePort();
      await ctx.rp.addRule({ port, defaultRule: { targets: [echo.url] } });
      const r = await get(port, '/', 'site.test', { 'x-lucky-relay': 'guess 192.168.1.5 h' });
      expect(r.status).toBe(200);
      const seen = JSON.parse(r.body).headers;
      expect(seen['x-lucky-relay']).toBeUndefined();
      expect(JSON.stringify(seen)).not.toContain('192.168.1.5');
    } finally {
      await echo.close();
    }
  });
});

describe('the console behind its own web service, served by a helper process', () => {
  const ctx = publishedConsole(true);

  it('every connection, whichever process serves it, carries the real client', async () => {
    // Connections alternate between the server process and the helper (two for the helper per one).
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => curlFrom(OUTSIDE, `${ctx.url}/api/health`, ['-H', 'Connection: close'])),
    );
    for (const r of answers) {
      expect(r.status).toBe(403);
      expect(json(r.body).ip).toBe(OUTSIDE);
    }
  });
});
