// Issue 13 §3: a number outside its field's range is refused by the API with the field, a code
// and the range (never clamped and saved); a value stored out of range by an older version is
// still read (as the nearest bound, logged); the -p flag's port is shown as an override.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { freePort } from './portforward-helpers.js';

let s: TestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = await s.login();
});
afterAll(async () => {
  await s?.close();
});

const call = (method: string, p: string, body?: unknown) => s.call(method, p, { token, body });

describe('the API refuses out-of-range numbers with the field, a code and the range', () => {
  it('base settings: admin port, log size, HTTP client timeout (nothing saved)', async () => {
    const before = (await call('GET', '/api/baseconfigure')).body.baseconfigure;
    for (const [body, field, code, params] of [
      [{ adminPort: 70000 }, 'adminPort', 'tooBig', { min: 1, max: 65535 }],
      [{ adminPort: 0 }, 'adminPort', 'tooSmall', { min: 1, max: 65535 }],
      [{ logMaxSize: 100 }, 'logMaxSize', 'tooSmall', { min: 1024, max: 40960 }],
      [{ logMaxSize: 50000 }, 'logMaxSize', 'tooBig', { min: 1024, max: 40960 }],
      [{ httpClientTimeout: 99 }, 'httpClientTimeout', 'tooBig', { min: 3, max: 60 }],
      [{ httpClientTimeout: 1 }, 'httpClientTimeout', 'tooSmall', { min: 3, max: 60 }],
      [{ headerTimeout: 0 }, 'headerTimeout', 'tooSmall', { min: 1, max: 300 }],
    ] as const) {
      const r = await call('PUT', '/api/baseconfigure', body);
      expect(r.status, field).toBe(400);
      expect(r.body, field).toMatchObject({ ret: 1, field, code, params });
    }
    expect((await call('GET', '/api/baseconfigure')).body.baseconfigure).toEqual(before);
  });

  it('port forwarding: the rule limit 0 is refused, not raised to 1', async () => {
    const r = await call('PUT', '/api/portforward/settings', { ruleLimit: 0 });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ret: 1, field: 'ruleLimit', code: 'tooSmall', params: { min: 1 } });
    const r2 = await call('PUT', '/api/portforward/settings', { ruleLimit: 5000 });
    expect(r2.body).toMatchObject({ ret: 1, field: 'ruleLimit', code: 'tooBig', params: { max: 1024 } });
    expect((await call('GET', '/api/portforward/settings')).body.settings.ruleLimit).toBe(128);
  });

  it('web service: access-log capacity 200000 and latest logs 300 are refused with the range', async () => {
    const base = { name: 'r', address: '127.0.0.1', port: await freePort(), enable: false };
    for (const [log, field, code, params] of [
      [{ capacity: 200000 }, 'defaultRule.log.capacity', 'tooBig', { min: 0, max: 102400 }],
      [{ showLatest: 300 }, 'defaultRule.log.showLatest', 'tooBig', { min: 1, max: 256 }],
      [{ showLatest: 0 }, 'defaultRule.log.showLatest', 'tooSmall', { min: 1, max: 256 }],
    ] as const) {
      const r = await call('POST', '/api/reverseproxy/rules', { ...base, defaultRule: { log } });
      expect(r.status, field).toBe(400);
      expect(r.body, field).toMatchObject({ ret: 1, field, code, params });
    }
    expect((await call('GET', '/api/reverseproxy/rules')).body.list ?? []).toHaveLength(0);
  });
});

describe('time zone setting', () => {
  it('is empty (automatic) by default, takes a listed zone and refuses others', async () => {
    expect((await call('GET', '/api/baseconfigure')).body.baseconfigure.timeZone).toBe('');
    const bad = await call('PUT', '/api/baseconfigure', { timeZone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ret: 1, field: 'timeZone', code: 'timeZoneUnknown' });
    const ok = await call('PUT', '/api/baseconfigure', { timeZone: 'Asia/Tokyo' });
    expect(ok.body.ret).toBe(0);
    expect(ok.body.baseconfigure.timeZone).toBe('Asia/Tokyo');
    expect(s.server.core.store.get().base.timeZone).toBe('Asia/Tokyo');
    await call('PUT', '/api/baseconfigure', { timeZone: '' });
  });
});

describe('-p flag', () => {
  it('tests run without it: no override', async () => {
    expect((await call('GET', '/api/baseconfigure')).body.baseconfigure.portOverride).toBeNull();
  });

  it('with it, the settings name the port in effect; the saved port stays until changed', async () => {
    const port = await freePort();
    const p = await startTestServer({ port });
    try {
      const t = await p.login();
      const view = (await p.call('GET', '/api/baseconfigure', { token: t })).body.baseconfigure;
      expect(view).toMatchObject({ adminPort: 16601, portOverride: port });
      // Saving another field leaves the saved port alone.
      await p.call('PUT', '/api/baseconfigure', { token: t, body: { logMaxSize: 3000 } });
      expect(p.server.core.store.get().base.adminPort).toBe(16601);
      // Saving the flag's own port is allowed (it is ours, not taken by someone else).
      const r = await p.call('PUT', '/api/baseconfigure', { token: t, body: { adminPort: port } });
      expect(r.body).toMatchObject({ ret: 0, port, restartNeeded: true, portOverriddenByFlag: true });
      expect(p.server.core.store.get().base.adminPort).toBe(port);
    } finally {
      await p.close();
    }
  });
});

describe('a config file written with wider ranges', () => {
  it('is still read: each out-of-range number as its nearest bound, logged, the rest untouched', async () => {
    const dir = await tempDir();
    const first = await startTestServer({ configDir: dir });
    const t = await first.login();
    const add = await first.call('POST', '/api/reverseproxy/rules', {
      token: t,
      body: { name: 'old', address: '127.0.0.1', port: await freePort(), enable: false },
    });
    expect(add.body.ret).toBe(0);
    await first.close();

    const file = path.join(dir, 'lucky.json');
    const doc = JSON.parse(await fs.readFile(file, 'utf8'));
    doc.base.logMaxSize = 100;
    doc.base.httpClientTimeout = 99;
    doc.base.adminPort = 70000;
    doc.modules.portforward = { ...doc.modules.portforward, ruleLimit: 0 };
    doc.modules.reverseproxy.rules[0].defaultRule.log.capacity = 200000;
    doc.modules.reverseproxy.rules[0].defaultRule.log.showLatest = 300;
    await fs.writeFile(file, JSON.stringify(doc));

    const again = await startTestServer({ configDir: dir });
    try {
      const core = again.server.core;
      expect(core.store.source).toBe('file');
      expect(core.store.get().base).toMatchObject({ logMaxSize: 1024, httpClientTimeout: 60, adminPort: 65535 });
      const t2 = await again.login();
      const pf = (await again.call('GET', '/api/portforward/settings', { token: t2 })).body.settings;
      expect(pf.ruleLimit).toBe(1);
      const rule = (await again.call('GET', '/api/reverseproxy/rules', { token: t2 })).body.list[0];
      expect(rule.defaultRule.log).toMatchObject({ capacity: 102400, showLatest: 256 });
      const logs = core.ring
        .since()
        .map((l) => l.log)
        .join('\n');
      expect(logs).toMatch(/base\.logMaxSize = 100 is outside its range; read as 1024/);
      expect(logs).toMatch(/modules\.portforward\.ruleLimit = 0 is outside its range; read as 1/);
      expect(logs).toMatch(/defaultRule\.log\.capacity = 200000 is outside its range; read as 102400/);
    } finally {
      await again.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
