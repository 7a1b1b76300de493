import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { apiToken, postFrom } from './wanji_admin-helpers.js';

// The remote side every console has: GET /api/summary and the one-time login link, called with an
// API token (what a manager holds), against a real server; the clock is the server's own option.
let s: TestServer;
let token: string;
let now = Date.now();

beforeAll(async () => {
  s = await startTestServer({ clock: () => now });
  token = await apiToken(s);
});
afterAll(() => s.close());

const ticketOf = (p: string) => decodeURIComponent(/ticket=([^&]+)/.exec(p)?.[1] ?? '');

describe('GET /api/summary', () => {
  it('answers the summary shape with an API token, 401 without one', async () => {
    const r = await s.call('GET', '/api/summary', { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ret: 0,
      version: s.server.core.version,
      startedAt: s.server.core.startedAt.toISOString(),
      hostname: expect.any(String),
      cpu: { percent: expect.any(Number), cores: expect.any(Number) },
      memory: { rss: expect.any(Number), systemTotal: expect.any(Number), systemFree: expect.any(Number) },
      certs: [],
    });
    expect(r.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    const wanji = r.body.modules.find((m: { key: string }) => m.key === 'wanji_admin');
    expect(wanji).toEqual({ key: 'wanji_admin', state: 'stopped', errors: 0 });
    const none = await s.call('GET', '/api/summary');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('loginExpired');
  });

  it("counts a module's error lines of the last 24 h", async () => {
    s.server.core.log.child('wol').error('a test error line');
    const r = await s.call('GET', '/api/summary', { token });
    expect(r.body.modules.find((m: { key: string }) => m.key === 'wol').errors).toBe(1);
  });
});

describe('one-time login link', () => {
  it('issues a ticket that signs in once; the second use is refused', async () => {
    const link = await s.call('POST', '/api/login/link', { token });
    expect(link.body).toMatchObject({ ret: 0, path: expect.stringMatching(/^\/#\/login\?ticket=/) });
    const ticket = link.body.ticket as string;
    expect(ticketOf(link.body.path)).toBe(ticket);
    // 256 random bits, base64url
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const first = await s.call('POST', '/api/login/ticket', { body: { ticket } });
    expect(first.body).toMatchObject({ ret: 0, token: expect.any(String) });
    const who = await s.call('GET', '/api/modules/list', { token: first.body.token });
    expect(who.body.u.account).toBe('666');
    const again = await s.call('POST', '/api/login/ticket', { body: { ticket } });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('ticketInvalid');
    // The audit names the token that asked and the ticket's use.
    const audit = await s.call('GET', '/api/audit', { token: first.body.token });
    const text = JSON.stringify(audit.body);
    expect(text).toContain('token:manager');
    expect(text).toContain('ticket of token:manager');
  });

  it('puts the security entrance in front of the path', async () => {
    const store = s.server.core.store;
    await store.update((d) => {
      d.base.securityEntrance = 'door';
    });
    try {
      const link = await fetch(`${s.url}/door/api/login/link`, { method: 'POST', headers: { authorization: token } });
      expect((await link.json()).path).toMatch(/^\/door\/#\/login\?ticket=/);
    } finally {
      await store.update((d) => {
        d.base.securityEntrance = '';
      });
    }
  });

  it('refuses an expired ticket (the clock moved past 60 s)', async () => {
    const link = await s.call('POST', '/api/login/link', { token });
    now += 61_000;
    const late = await s.call('POST', '/api/login/ticket', { body: { ticket: link.body.ticket } });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('ticketInvalid');
  });

  it('needs a token to issue; wrong tickets are throttled per address like passwords', async () => {
    expect((await s.call('POST', '/api/login/link')).status).toBe(401);
    const good = (await s.call('POST', '/api/login/link', { token })).body.ticket as string;
    const url = `${s.url}/api/login/ticket`;
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postFrom('127.0.0.3', url, { ticket: `wrong-${i}-${'x'.repeat(40)}` })),
    );
    const codes = guesses.map((g) => g.body.code);
    expect(codes.every((c) => c === 'ticketInvalid' || c === 'loginThrottled')).toBe(true);
    // the default allows 5 failures per window
    expect(codes.filter((c) => c === 'ticketInvalid').length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 'loginThrottled').length).toBeGreaterThanOrEqual(45);
    // the attacker's address stays locked even with the right ticket; another address signs in
    expect((await postFrom('127.0.0.3', url, { ticket: good })).body.code).toBe('loginThrottled');
    const other = await postFrom('127.0.0.2', url, { ticket: good });
    expect(other.body.ret).toBe(0);
    expect(other.body.token).toBeTruthy();
  });
});
