// The security lists on the admin listener, from a network namespace of the test's own (a client
// on the internet, 198.18.4.2) and from loopback: a blocked or banned address is reset at accept,
// before any HTTP answer, while loopback is served; the knock URL puts its caller on the allow list
// and the entry's expiry takes it off; auto-ban after wrong logins, lifted by its time, by unban,
// and kept over a restart; loopback never banned; a knock-password flood is throttled. Time passes
// through the server's injectable clock, never by sleeping.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../filebrowser-shares-helpers.js';
import { startTestServer, type TestServer, tempDir } from '../harness.js';
import { type OutsideNamespace, outsideNamespace } from '../outsideNamespace.js';
import { freePort } from '../reverseproxy-helpers.js';

let ns: OutsideNamespace;
let s: TestServer;
let token: string;
let configDir: string;
let now = Date.parse('2026-03-01T00:00:00Z');
const clock = () => now;
const KNOCK = 'knock-path-for-the-test-0123';

const start = async () => {
  s = await startTestServer({ configDir, host: '0.0.0.0', clock });
  token = await s.login();
};
const call = (method: string, p: string, body?: unknown) => s.call(method, p, { token, body });
const ok = async (method: string, p: string, body?: unknown) => {
  const r = await call(method, p, body);
  if (r.body?.ret !== 0) throw new Error(`${method} ${p}: ${JSON.stringify(r.body)}`);
  return r.body;
};
const outside = (p: string, args: string[] = []) => ns.curl(`http://${ns.gateway}:${s.server.port}${p}`, args);
const logLines = () => s.server.core.ring.since().map((l) => l.log);
const wrongLogin = [
  '-X',
  'POST',
  '-H',
  'content-type: application/json',
  '--data',
  '{"Account":"666","Password":"nope"}',
];

beforeAll(async () => {
  ns = outsideNamespace('lksafe', '198.18.4');
  configDir = await tempDir();
  await start();
  await s.server.core.store.update((d) => {
    d.base.allowInternetAccess = true;
  });
});
afterAll(async () => {
  await s?.close();
  ns?.remove();
  await fs.rm(configDir, { recursive: true, force: true });
});

describe('block list', () => {
  it('resets a blocked address at accept, serves loopback, logs the refusal once a minute', async () => {
    expect((await outside('/version')).status).toBe(200);
    const entry = (await ok('POST', '/api/safe/lists/block', { value: '198.18.4.0/24', comment: 'test' })).entry;
    const refused = await outside('/version');
    expect(refused).toEqual({ status: 0, body: '' });
    expect((await outside('/')).status).toBe(0);
    expect((await s.call('GET', '/version')).status).toBe(200);
    const lines = logLines().filter((l) => l.includes('198.18.4.2 refused by admin (block)'));
    expect(lines).toHaveLength(1);
    await ok('DELETE', `/api/safe/lists/block/${entry.key}`);
    expect((await outside('/version')).status).toBe(200);
  });
});

describe('knock', () => {
  it('puts the caller on the allow list (allowMode outsideLan) until its expiry', async () => {
    await ok('PUT', '/api/safe/settings', { allowMode: 'outsideLan' });
    // Knock off: refused at accept like any address not allowed.
    expect((await outside('/version')).status).toBe(0);
    expect((await outside(`/knock/${KNOCK}`)).status).toBe(0);
    await ok('PUT', '/api/safe/settings', { knock: { enabled: true, path: KNOCK, hours: 3 } });
    // Knock on: the connection is let in for the knock URL only.
    expect((await outside('/version')).status).toBe(403);
    // Another path under /knock/ is any unknown page: refused for this caller, 404 for loopback.
    expect(await outside('/knock/some-other-path-0123456789')).toEqual(await outside('/no-such-page'));
    const wrong = await raw(s.server.port, '/knock/some-other-path-0123456789');
    expect([wrong.status, wrong.text]).toEqual([404, '404 page not found']);
    const knocked = await outside(`/knock/${KNOCK}`, ['-H', 'accept-language: en']);
    expect(knocked.status).toBe(200);
    expect(knocked.body).toContain('Your address 198.18.4.2 is on the allow list until 2026-03-01 03:00');
    const allow = (await ok('GET', '/api/safe')).allow;
    expect(allow).toEqual([
      expect.objectContaining({ value: '198.18.4.2', source: 'knock', expiresAt: '2026-03-01T03:00:00.000Z' }),
    ]);
    expect((await outside('/version')).status).toBe(200);
    // A second knock refreshes the one entry.
    now += 3_600_000;
    expect((await outside(`/knock/${KNOCK}`)).status).toBe(200);
    const again = (await ok('GET', '/api/safe')).allow;
    expect(again).toHaveLength(1);
    expect(again[0].expiresAt).toBe('2026-03-01T04:00:00.000Z');
    now += 3 * 3_600_000;
    expect((await outside('/version')).status).toBe(403);
    expect((await ok('GET', '/api/safe')).allow).toEqual([]);
  });

  it('the block list still wins over the knock URL, at accept', async () => {
    const entry = (await ok('POST', '/api/safe/lists/block', { value: '198.18.4.2' })).entry;
    expect((await outside(`/knock/${KNOCK}`)).status).toBe(0);
    await ok('DELETE', `/api/safe/lists/block/${entry.key}`);
    await ok('PUT', '/api/safe/settings', { allowMode: 'off', knock: { enabled: false } });
    expect((await outside(`/knock/${KNOCK}`)).status).toBe(404);
  });
});

describe('auto-ban', () => {
  it('bans after N wrong logins: visible, refused at accept, lifted after its time and by unban', async () => {
    await ok('PUT', '/api/safe/settings', { autoBan: { failures: 3, windowMinutes: 10, banMinutes: 30 } });
    for (let i = 0; i < 3; i++) expect((await outside('/api/login', wrongLogin)).status).toBeGreaterThanOrEqual(400);
    expect((await outside('/version')).status).toBe(0);
    const bans = (await ok('GET', '/api/safe/bans')).bans;
    expect(bans).toEqual([
      {
        ip: '198.18.4.2',
        since: new Date(now).toISOString(),
        until: new Date(now + 30 * 60_000).toISOString(),
        failures: 3,
        sources: ['admin'],
      },
    ]);
    expect(logLines().some((l) => l.includes('198.18.4.2 banned for 30 min after 3 failed logins (admin)'))).toBe(true);
    const t = await ok('POST', '/api/safe/test', { ip: '198.18.4.2' });
    expect(t).toMatchObject({ allowed: false, rule: 'ban', ban: { ip: '198.18.4.2' } });
    now += 30 * 60_000;
    expect((await outside('/version')).status).toBe(200);
    expect((await ok('GET', '/api/safe/bans')).bans).toEqual([]);

    // Banned again (guessing on while the login throttle has it locked counts too), then unbanned.
    for (let i = 0; i < 3; i++) await outside('/api/login', wrongLogin);
    expect((await outside('/version')).status).toBe(0);
    await ok('DELETE', '/api/safe/bans/198.18.4.2');
    expect((await outside('/version')).status).toBe(200);
    expect(logLines().some((l) => l.includes('198.18.4.2 unbanned'))).toBe(true);
  });

  it('a ban outlives a restart (safe-bans.json)', async () => {
    for (let i = 0; i < 3; i++) await outside('/api/login', wrongLogin);
    expect((await outside('/version')).status).toBe(0);
    await s.close();
    const saved = JSON.parse(await fs.readFile(path.join(configDir, 'safe-bans.json'), 'utf8'));
    expect(Object.keys(saved.bans)).toEqual(['198.18.4.2']);
    await start();
    expect((await ok('GET', '/api/safe/bans')).bans.map((b: { ip: string }) => b.ip)).toEqual(['198.18.4.2']);
    expect((await outside('/version')).status).toBe(0);
    await ok('DELETE', '/api/safe/bans');
    expect((await outside('/version')).status).toBe(200);
  });

  it('never bans loopback by default', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await raw(s.server.port, '/api/login', {
        method: 'POST',
        from: '127.0.0.3',
        headers: { 'content-type': 'application/json' },
        body: '{"Account":"666","Password":"nope"}',
      });
      expect(r.status).toBeGreaterThanOrEqual(400);
    }
    expect((await ok('GET', '/api/safe/bans')).bans).toEqual([]);
    expect((await raw(s.server.port, '/version', { from: '127.0.0.3' })).status).toBe(200);
  });
});

describe('behind the console’s own web service', () => {
  it('decides per request for the real client the relay names, not for loopback', async () => {
    // The web service's own listener exempt: the admin console's check alone is under test.
    await ok('PUT', '/api/safe/settings', { exempt: ['reverseproxy'] });
    const webPort = await freePort();
    const rule = await call('POST', '/api/reverseproxy/rules', {
      address: ns.gateway,
      port: webPort,
      defaultRule: { targets: [`http://127.0.0.1:${s.server.port}`] },
    });
    expect(rule.body.ret, JSON.stringify(rule.body)).toBe(0);
    const published = `http://${ns.gateway}:${webPort}/api/health`;
    expect((await ns.curl(published)).status).toBe(200);
    const entry = (await ok('POST', '/api/safe/lists/block', { value: '198.18.4.2' })).entry;
    // Forged client headers gain nothing: the relay names the real one.
    for (const extra of [[], ['-H', 'X-Forwarded-For: 192.168.1.5']]) {
      const r = await ns.curl(published, extra);
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ ret: 1, code: 'forbidden' });
    }
    expect((await s.call('GET', '/api/health')).status).toBe(200);
    await ok('DELETE', `/api/safe/lists/block/${entry.key}`);
    expect((await ns.curl(published)).status).toBe(200);
    await ok('DELETE', `/api/reverseproxy/rules/${rule.body.key}`);
    await ok('PUT', '/api/safe/settings', { exempt: [] });
  });
});

describe('a knock-password flood', () => {
  it('200 parallel wrong passwords from one address: a handful hashed, the rest throttled; another caller knocks in', async () => {
    await ok('PUT', '/api/safe/settings', { knock: { enabled: true, path: KNOCK, password: 'open-sesame-42' } });
    const gate = s.server.core.hashGate;
    let maxActive = 0;
    const sampler = setInterval(() => {
      maxActive = Math.max(maxActive, gate.load.active);
    }, 5);
    const heapBefore = process.memoryUsage().heapUsed;
    const form = (password: string, from: string) =>
      raw(s.server.port, `/knock/${KNOCK}`, {
        method: 'POST',
        from,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
        body: new URLSearchParams({ password }).toString(),
      });
    const statuses = new Map<number, number>();
    const flood = Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        form(`guess-${i}`, '127.0.0.4').then(
          (r) => statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1),
          () => statuses.set(0, (statuses.get(0) ?? 0) + 1),
        ),
      ),
    );
    const owner = await form('open-sesame-42', '127.0.0.9');
    await flood;
    clearInterval(sampler);
    expect(owner.status).toBe(200);
    expect(owner.text).toContain('Your address 127.0.0.9 is on the allow list');
    // Default 5 failures per address: at most that many wrong guesses were hashed.
    const wrong = statuses.get(401) ?? 0;
    expect(wrong).toBeGreaterThan(0);
    expect(wrong).toBeLessThanOrEqual(5);
    expect((statuses.get(429) ?? 0) + (statuses.get(0) ?? 0)).toBeGreaterThanOrEqual(195);
    expect(statuses.get(200) ?? 0).toBe(0);
    expect(maxActive).toBeLessThanOrEqual(2);
    expect(logLines().filter((l) => l.includes('127.0.0.4: wrong knock password')).length).toBe(wrong);
    // Loopback is LAN: its knock failures ban nothing.
    expect((await ok('GET', '/api/safe/bans')).bans).toEqual([]);
    expect((process.memoryUsage().heapUsed - heapBefore) / 1048576).toBeLessThan(64);
    // The password form itself: a strict CSP, no script.
    const page = await raw(s.server.port, `/knock/${KNOCK}`, { headers: { 'accept-language': 'zh-CN' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.text).toContain('请输入密码');
    expect(page.text).not.toContain('<script');
  }, 30_000);
});
