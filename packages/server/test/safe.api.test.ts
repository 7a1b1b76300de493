// The /safe routes from loopback: every refusal names its field and its code and changes nothing
// (the answer of GET /api/safe and the config file stay as they were), the lock-out guard, knock
// settings, expiry pruning driven by the server's clock.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from './filebrowser-shares-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let s: TestServer;
let token: string;
let now = Date.parse('2026-03-01T00:00:00Z');

beforeAll(async () => {
  s = await startTestServer({ clock: () => now });
  token = await s.login();
});
afterAll(async () => {
  await s?.close();
});

const call = (method: string, p: string, body?: unknown) => s.call(method, p, { token, body });
const snapshot = async () => ({
  api: (await call('GET', '/api/safe')).body,
  file: JSON.parse(await fs.readFile(path.join(s.configDir, 'lucky.json'), 'utf8')).safe,
});

/** The call is refused with `status`, `code` and `field`, and nothing changed. */
async function refused(method: string, p: string, body: unknown, status: number, code: string, field: string) {
  const before = await snapshot();
  const r = await call(method, p, body);
  expect({ status: r.status, code: r.body.code, field: r.body.field }).toEqual({ status, code, field });
  expect(r.body.ret).not.toBe(0);
  expect(await snapshot()).toEqual(before);
  return r.body;
}

describe('list entries', () => {
  it('adds an address, CIDR and range; refuses bad values with their own codes', async () => {
    for (const value of ['203.0.113.7', '10.9.0.0/16', '2001:db8::1-2001:db8::ff']) {
      const r = await call('POST', '/api/safe/lists/block', { value, comment: 'x' });
      expect(r.body.ret).toBe(0);
      expect(r.body.entry).toMatchObject({ value, comment: 'x', source: 'manual', expiresAt: null });
      expect(r.body.entry.key).toMatch(/^[A-Za-z0-9]{12}$/);
    }
    await refused('POST', '/api/safe/lists/block', { value: '10.0.0.300' }, 400, 'entryInvalid', 'value');
    await refused('POST', '/api/safe/lists/block', { value: '' }, 400, 'entryInvalid', 'value');
    await refused('POST', '/api/safe/lists/allow', { value: '10.0.0.1-::1' }, 400, 'rangeMixed', 'value');
    await refused('POST', '/api/safe/lists/allow', { value: '10.0.0.9-10.0.0.1' }, 400, 'rangeReversed', 'value');
    // The same addresses written differently are the same entry.
    const dup = await refused(
      'POST',
      '/api/safe/lists/block',
      { value: '203.0.113.7/32' },
      400,
      'entryDuplicate',
      'value',
    );
    expect(dup.params).toEqual({ value: '203.0.113.7' });
    await refused('POST', '/api/safe/lists/block', { value: '::ffff:203.0.113.7' }, 400, 'entryDuplicate', 'value');
    await refused(
      'POST',
      '/api/safe/lists/allow',
      { value: '198.51.100.1', expiresAt: new Date(now - 1000).toISOString() },
      400,
      'expiryPast',
      'expiresAt',
    );
    await refused(
      'POST',
      '/api/safe/lists/allow',
      { value: '198.51.100.1', comment: 'c'.repeat(300) },
      400,
      'tooBig',
      'comment',
    );
    expect((await call('POST', '/api/safe/lists/other', { value: '198.51.100.1' })).status).toBe(404);
  });

  it('edits and deletes by key; an unknown key is entryNotFound', async () => {
    const added = (await call('POST', '/api/safe/lists/allow', { value: '198.51.100.20' })).body.entry;
    const edited = await call('PUT', `/api/safe/lists/allow/${added.key}`, {
      value: '198.51.100.21',
      comment: 'moved',
    });
    expect(edited.body.entry).toMatchObject({
      key: added.key,
      value: '198.51.100.21',
      comment: 'moved',
      addedAt: added.addedAt,
    });
    // Editing an entry to its own value is no duplicate of itself.
    expect((await call('PUT', `/api/safe/lists/allow/${added.key}`, { value: '198.51.100.21' })).body.ret).toBe(0);
    await refused('PUT', '/api/safe/lists/allow/nope', { value: '198.51.100.22' }, 404, 'entryNotFound', 'key');
    await refused('DELETE', '/api/safe/lists/allow/nope', undefined, 404, 'entryNotFound', 'key');
    expect((await call('DELETE', `/api/safe/lists/allow/${added.key}`)).body.ret).toBe(0);
    expect((await call('GET', '/api/safe')).body.allow.some((e: { key: string }) => e.key === added.key)).toBe(false);
  });

  it('an expired entry is pruned on read and no longer decides', async () => {
    const until = new Date(now + 60_000).toISOString();
    await call('POST', '/api/safe/lists/block', { value: '192.0.2.77', expiresAt: until });
    let t = await call('POST', '/api/safe/test', { ip: '192.0.2.77' });
    expect(t.body).toMatchObject({ allowed: false, rule: 'block', entry: { value: '192.0.2.77' } });
    now += 60_000;
    t = await call('POST', '/api/safe/test', { ip: '192.0.2.77' });
    expect(t.body).toMatchObject({ allowed: true, rule: 'default' });
    const listed = (await call('GET', '/api/safe')).body.block.map((e: { value: string }) => e.value);
    expect(listed).not.toContain('192.0.2.77');
    expect(listed).toContain('203.0.113.7');
  });
});

describe('the lock-out guard', () => {
  it('refuses a change that would shut the caller out, naming the field, and lets the safe order through', async () => {
    const lock = await refused('PUT', '/api/safe/settings', { allowMode: 'all' }, 409, 'wouldLockOut', 'allowMode');
    expect(lock.params).toEqual({ ip: '127.0.0.1', rule: 'notAllowed' });
    await refused('POST', '/api/safe/lists/block', { value: '127.0.0.0/8' }, 409, 'wouldLockOut', 'value');
    // Outside the LAN only: loopback stays in.
    expect((await call('PUT', '/api/safe/settings', { allowMode: 'outsideLan' })).body.ret).toBe(0);
    // On the allow list first, then everyone else out.
    const mine = (await call('POST', '/api/safe/lists/allow', { value: '127.0.0.1' })).body.entry;
    expect((await call('PUT', '/api/safe/settings', { allowMode: 'all' })).body.settings.allowMode).toBe('all');
    await refused('DELETE', `/api/safe/lists/allow/${mine.key}`, undefined, 409, 'wouldLockOut', 'key');
    await refused('PUT', `/api/safe/lists/allow/${mine.key}`, { value: '127.0.0.2' }, 409, 'wouldLockOut', 'value');
    // The console exempt: the entry may go; taking the exemption back then would lock out.
    expect((await call('PUT', '/api/safe/settings', { exempt: ['admin'] })).body.ret).toBe(0);
    expect((await call('DELETE', `/api/safe/lists/allow/${mine.key}`)).body.ret).toBe(0);
    await refused('PUT', '/api/safe/settings', { exempt: [] }, 409, 'wouldLockOut', 'exempt');
    expect((await call('PUT', '/api/safe/settings', { allowMode: 'off', exempt: [] })).body.ret).toBe(0);
    const t = await call('POST', '/api/safe/test', { ip: '127.0.0.1', scope: 'admin' });
    expect(t.body).toMatchObject({ allowed: true, rule: 'default' });
  });
});

describe('settings', () => {
  it('knock: path checked, a random one when enabled without, password hashed and never read back', async () => {
    await refused('PUT', '/api/safe/settings', { knock: { path: 'short' } }, 400, 'knockPathInvalid', 'knock.path');
    await refused(
      'PUT',
      '/api/safe/settings',
      { knock: { path: `${'a'.repeat(20)}/x` } },
      400,
      'knockPathInvalid',
      'knock.path',
    );
    await refused(
      'PUT',
      '/api/safe/settings',
      { knock: { password: 'abc' } },
      400,
      'knockPasswordTooShort',
      'knock.password',
    );
    await refused('PUT', '/api/safe/settings', { knock: { hours: 0 } }, 400, 'tooSmall', 'knock.hours');
    await refused('PUT', '/api/safe/settings', { autoBan: { failures: 1 } }, 400, 'tooSmall', 'autoBan.failures');
    const on = await call('PUT', '/api/safe/settings', { knock: { enabled: true, password: 'open-sesame', hours: 2 } });
    expect(on.body.settings.knock).toMatchObject({ enabled: true, hours: 2, hasPassword: true });
    expect(on.body.settings.knock.path).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const got = await call('GET', '/api/safe');
    expect(JSON.stringify(got.body)).not.toContain('scrypt');
    expect(got.body.settings.knock.path).toBe(on.body.settings.knock.path);
    expect(got.body.you).toBe('127.0.0.1');
    const file = JSON.parse(await fs.readFile(path.join(s.configDir, 'lucky.json'), 'utf8')).safe;
    expect(file.knock.passwordHash).toMatch(/^scrypt\$/);
    // A patch keeps what it does not name.
    await call('PUT', '/api/safe/settings', { autoBan: { windowMinutes: 20 } });
    const patched = await call('PUT', '/api/safe/settings', { autoBan: { failures: 4 } });
    expect(patched.body.settings.autoBan).toEqual({
      enabled: true,
      failures: 4,
      windowMinutes: 20,
      banMinutes: 60,
      banLan: false,
    });
    expect(patched.body.settings.knock).toMatchObject({ enabled: true, hours: 2, hasPassword: true });
    const custom = await call('PUT', '/api/safe/settings', { knock: { path: 'my-own_knock-path-0123', password: '' } });
    expect(custom.body.settings.knock).toMatchObject({ path: 'my-own_knock-path-0123', hasPassword: false });
  });
});

describe('bans and the test button', () => {
  it('test answers the rule; bans: unknown and invalid addresses refused, the list empty', async () => {
    await refused('POST', '/api/safe/test', { ip: 'nope' }, 400, 'ipInvalid', 'ip');
    await refused('POST', '/api/safe/test', { ip: '198.51.100.1', scope: 'nothere' }, 400, 'invalidValue', 'scope');
    const t = await call('POST', '/api/safe/test', { ip: '::ffff:203.0.113.7', scope: 'webdav' });
    expect(t.body).toMatchObject({ ret: 0, allowed: false, rule: 'block', entry: { value: '203.0.113.7' } });
    expect((await call('GET', '/api/safe/bans')).body).toEqual({ ret: 0, bans: [] });
    await refused('DELETE', '/api/safe/bans/198.51.100.9', undefined, 404, 'banNotFound', 'ip');
    await refused('DELETE', '/api/safe/bans/not-an-ip', undefined, 400, 'ipInvalid', 'ip');
    expect((await call('DELETE', '/api/safe/bans')).body.ret).toBe(0);
  });

  it('every route wants a token', async () => {
    for (const [m, p] of [
      ['GET', '/api/safe'],
      ['PUT', '/api/safe/settings'],
      ['POST', '/api/safe/lists/allow'],
      ['DELETE', '/api/safe/bans'],
      ['POST', '/api/safe/test'],
    ] as const) {
      const r = await s.call(m, p, { body: m === 'GET' || m === 'DELETE' ? undefined : {} });
      expect([p, r.body.ret]).toEqual([p, -1]);
    }
  });
});

describe('auto-ban from the admin login', () => {
  it('a wrong 2FA code after the right password counts (banLan on, so loopback can be banned)', async () => {
    await call('PUT', '/api/safe/settings', { autoBan: { failures: 2, banLan: true } });
    const secret = (await call('GET', '/api/twofapassword')).body.secret as string;
    const code = execFileSync('oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim();
    expect((await call('POST', '/api/twofa/enable', { code })).body.ret).toBe(0);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 2; i++) {
      const r = await raw(s.server.port, '/api/login', {
        method: 'POST',
        from: '127.0.0.7',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Account: '666', Password: '666', TwoFACode: wrong }),
      });
      expect(JSON.parse(r.text)).toMatchObject({ ret: 2, field: 'TwoFACode' });
    }
    const bans = (await call('GET', '/api/safe/bans')).body.bans;
    expect(bans).toEqual([expect.objectContaining({ ip: '127.0.0.7', failures: 2, sources: ['admin'] })]);
    // Loopback passes at accept (it may be our own web service relaying another client) and is
    // refused per request.
    const refused = await raw(s.server.port, '/api/health', { from: '127.0.0.7' });
    expect([refused.status, JSON.parse(refused.text).code]).toEqual([403, 'forbidden']);
    expect((await call('DELETE', '/api/safe/bans/127.0.0.7')).body.ret).toBe(0);
    expect((await raw(s.server.port, '/version', { from: '127.0.0.7' })).status).toBe(200);
  });
});
