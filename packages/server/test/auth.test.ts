import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { modules } from '../src/modules/index.js';
import { startTestServer, type TestServer } from './harness.js';

let s: TestServer;
afterEach(async () => {
  await s?.close();
});

function oathtool(secret: string, offsetSeconds = 0): string {
  const when = new Date(Date.now() + offsetSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19);
  return execFileSync('oathtool', ['--totp', '-b', '-N', `${when} UTC`, secret], { encoding: 'utf8' }).trim();
}

describe('login and sessions', () => {
  it('logs in with 666/666 and the token opens protected calls', async () => {
    s = await startTestServer();
    const token = await s.login();
    const r = await s.call('GET', '/api/modules/list', { token });
    expect(r.body).toMatchObject({
      ret: 0,
      Modules: modules.map((m) => m.key),
      u: { account: '666', passwordIsDefault: true },
    });
    const bearer = await s.call('GET', '/api/info', { token: `Bearer ${token}` });
    expect(bearer.body.ret).toBe(0);
  });

  it('refuses a wrong password with a clear message and no token', async () => {
    s = await startTestServer();
    const r = await s.call('POST', '/api/login', { body: { Account: '666', Password: 'nope' } });
    expect(r.status).toBe(400);
    expect(r.body.ret).toBe(1);
    expect(r.body.msg).toMatch(/wrong account or password/);
    expect(r.body.token).toBeUndefined();
  });

  it('names the empty field', async () => {
    s = await startTestServer();
    const r = await s.call('POST', '/api/login', { body: { Account: '', Password: 'x' } });
    expect(r.body).toMatchObject({ ret: 1, field: 'Account' });
  });

  it('throttles per client address without locking out the owner elsewhere', async () => {
    s = await startTestServer();
    await s.call('PUT', '/api/baseconfigure', {
      token: await s.login(),
      body: { loginMaxFailures: 3, trustedProxies: ['127.0.0.1'] },
    });
    const attacker = { 'x-forwarded-for': '192.168.1.66' };
    for (let i = 0; i < 3; i++) {
      await s.call('POST', '/api/login', { body: { Account: '666', Password: 'bad' }, headers: attacker });
    }
    const locked = await s.call('POST', '/api/login', { body: { Account: '666', Password: '666' }, headers: attacker });
    expect(locked.status).toBe(403);
    expect(locked.body.ret).toBe(3);
    expect(locked.body.retryAfter).toBeGreaterThan(0);
    // The same wait as an HTTP Retry-After header, for scripts.
    const raw = await fetch(`${s.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...attacker },
      body: JSON.stringify({ Account: '666', Password: '666' }),
    });
    expect(raw.status).toBe(403);
    const wait = Number(raw.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBe((await raw.json()).retryAfter);
    const owner = await s.call('POST', '/api/login', {
      body: { Account: '666', Password: '666' },
      headers: { 'x-forwarded-for': '192.168.1.10' },
    });
    expect(owner.body.ret).toBe(0);
  });

  it('logout revokes the token at once', async () => {
    s = await startTestServer();
    const token = await s.login();
    const other = await s.login();
    expect((await s.call('PUT', '/api/logout', { token })).body.ret).toBe(0);
    expect((await s.call('GET', '/api/info', { token })).body.ret).toBe(-1);
    expect((await s.call('GET', '/api/info', { token: other })).body.ret).toBe(0);
  });

  it('a password change revokes the other sessions and needs the current password', async () => {
    s = await startTestServer();
    const mine = await s.login();
    const other = await s.login();
    const wrong = await s.call('PUT', '/api/baseconfigure', {
      token: mine,
      body: { newPassword: 'new-secret-1', currentPassword: 'x' },
    });
    expect(wrong.body).toMatchObject({ ret: 1, field: 'currentPassword' });
    const ok = await s.call('PUT', '/api/baseconfigure', {
      token: mine,
      body: { newPassword: 'new-secret-1', currentPassword: '666' },
    });
    expect(ok.body.ret).toBe(0);
    expect(ok.body.baseconfigure.passwordIsDefault).toBe(false);
    expect((await s.call('GET', '/api/info', { token: other })).body.ret).toBe(-1);
    expect((await s.call('GET', '/api/info', { token: mine })).body.ret).toBe(0);
    await expect(s.login('666', '666')).rejects.toThrow();
    expect(await s.login('666', 'new-secret-1')).toBeTruthy();
  });

  it('sessions survive a restart of the server on the same config dir', async () => {
    s = await startTestServer();
    const token = await s.login();
    const dir = s.configDir;
    await s.server.close();
    const again = await startTestServer({ configDir: dir });
    try {
      expect((await again.call('GET', '/api/info', { token })).body.ret).toBe(0);
    } finally {
      await again.close();
    }
  });

  it('never returns the password hash or 2FA secret', async () => {
    s = await startTestServer();
    const token = await s.login();
    const r = await s.call('GET', '/api/baseconfigure', { token });
    expect(JSON.stringify(r.body)).not.toMatch(/scrypt|passwordHash|secret/);
  });
});

describe('two-factor login (codes made by oathtool)', () => {
  it('enables, then requires a TOTP code, refuses replays, accepts a recovery code once, and disables', async () => {
    s = await startTestServer();
    const token = await s.login();
    const setup = await s.call('GET', '/api/twofapassword', { token });
    expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\/Lucky:666\?/);
    const secret = setup.body.secret as string;
    const bad = await s.call('POST', '/api/twofa/enable', {
      token,
      body: { code: '000000' === oathtool(secret) ? '111111' : '000000' },
    });
    expect(bad.body).toMatchObject({ ret: 1, field: 'code' });
    const enabled = await s.call('POST', '/api/twofa/enable', { token, body: { code: oathtool(secret) } });
    expect(enabled.body.ret).toBe(0);
    const recovery = enabled.body.recoveryCodes as string[];
    expect(recovery).toHaveLength(10);

    expect((await s.call('GET', '/2FAStatus')).body).toEqual({ ret: 0, twoFAEnable: true });
    expect((await s.call('GET', '/version')).body.twoFAEnable).toBe(true);

    const noCode = await s.call('POST', '/api/login', { body: { Account: '666', Password: '666' } });
    expect(noCode.body).toMatchObject({ ret: 2, field: 'TwoFACode' });
    // The code used to enable cannot be replayed; the next step's code (±1 window) is accepted.
    const next = oathtool(secret, 30);
    expect(await s.login('666', '666', next)).toBeTruthy();
    const replay = await s.call('POST', '/api/login', { body: { Account: '666', Password: '666', TwoFACode: next } });
    expect(replay.body.ret).toBe(2);

    expect(await s.login('666', '666', recovery[0])).toBeTruthy();
    const reused = await s.call('POST', '/api/login', {
      body: { Account: '666', Password: '666', TwoFACode: recovery[0] },
    });
    expect(reused.body.ret).toBe(2);

    const off = await s.call('POST', '/api/twofa/disable', { token, body: { password: '666' } });
    expect(off.body.ret).toBe(0);
    expect(await s.login()).toBeTruthy();
  });
});

describe('API tokens', () => {
  it('are shown once, work in the Authorization header, and stop working when revoked', async () => {
    s = await startTestServer();
    const token = await s.login();
    const made = await s.call('POST', '/api/apitokens', {
      token,
      body: { name: 'home-assistant', currentPassword: '666' },
    });
    expect(made.body.token).toMatch(/^lkt_[0-9a-f]{12}_/);
    const list = await s.call('GET', '/api/apitokens', { token });
    expect(JSON.stringify(list.body)).not.toContain(made.body.token.slice(17));
    expect((await s.call('GET', '/api/status', { token: made.body.token })).body.ret).toBe(0);
    await s.call('DELETE', `/api/apitokens?id=${made.body.id}`, { token });
    expect((await s.call('GET', '/api/status', { token: made.body.token })).body.ret).toBe(-1);
  });
});

describe('audit log', () => {
  it('names who acted (the account, an API token, never a mistyped account name) and filters by text and result', async () => {
    s = await startTestServer();
    await s.call('POST', '/api/login', { body: { Account: 'my-p4ss', Password: 'x' } });
    await s.call('POST', '/api/login', { body: { Account: '666', Password: 'wrong' } });
    const token = await s.login();
    const made = await s.call('POST', '/api/apitokens', {
      token,
      body: { name: 'backup job', currentPassword: '666' },
    });
    await s.call('PUT', '/api/baseconfigure', { token: made.body.token, body: { logMaxSize: 3000 } });
    const page = async (query = '') =>
      (await s.call('GET', `/api/audit?pageSize=50${query}`, { token })).body as {
        total: number;
        list: { action: string; actor?: string; ret: number; msg?: string }[];
      };
    const all = await page();
    expect(all.list.map((e) => [e.action, e.actor ?? '-', e.ret === 0 ? 'ok' : 'failed'])).toEqual([
      ['PUT /api/baseconfigure', 'token:backup job', 'ok'],
      ['POST /api/apitokens', '666', 'ok'],
      ['POST /api/login', '666', 'ok'],
      ['POST /api/login', '666', 'failed'],
      ['POST /api/login', '-', 'failed'],
    ]);
    expect(JSON.stringify(all)).not.toContain('my-p4ss');
    const failed = await page('&result=failed');
    expect(failed.total).toBe(2);
    expect(failed.list.every((e) => e.ret !== 0)).toBe(true);
    expect((await page('&result=ok&q=LOGIN')).list.map((e) => e.action)).toEqual(['POST /api/login']);
    expect((await page('&q=backup%20job')).total).toBe(1);
    expect((await s.call('GET', '/api/audit?result=maybe', { token })).status).toBe(400);
  });

  it('records logins and state-changing calls with address and outcome, newest first, and keeps them across restarts', async () => {
    s = await startTestServer();
    await s.call('POST', '/api/login', { body: { Account: '666', Password: 'p4ss-guess' } });
    const token = await s.login();
    await s.call('PUT', '/api/baseconfigure', { token, body: { logMaxSize: 3000 } });
    await s.call('GET', '/api/status', { token });
    const r = (await s.call('GET', '/api/audit?page=1&pageSize=10', { token })).body;
    expect(r.list.map((e: { action: string; ret: number }) => `${e.action} ${e.ret}`)).toEqual([
      'PUT /api/baseconfigure 0',
      'POST /api/login 0',
      'POST /api/login 1',
    ]);
    expect(r.list[0].clientIp).toBe('127.0.0.1');
    expect(JSON.stringify(r)).not.toContain('p4ss-guess');
    await s.server.core.audit.flush();
    const dir = s.configDir;
    await s.server.close();
    const again = await startTestServer({ configDir: dir });
    try {
      const t = await again.login();
      const list = (await again.call('GET', '/api/audit', { token: t })).body.list;
      expect(list.map((e: { action: string }) => e.action)).toContain('PUT /api/baseconfigure');
    } finally {
      await again.close();
    }
  });
});
