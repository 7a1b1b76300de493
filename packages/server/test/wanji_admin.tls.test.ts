import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleActions } from '../src/core/modules/actions.js';
import { startTestServer, type TestServer } from './harness.js';
import { waitFor } from './wait.js';
import {
  adminFingerprint,
  apiToken,
  fakeConsole,
  fingerprintOf,
  makeCa,
  type Pems,
  recordingTls,
} from './wanji_admin-helpers.js';

// The manager as a TLS client: the pinned certificate (checked before any HTTP byte), CA
// verification, and remotes that answer wrongly, hugely or never — each a coded reason while the
// other consoles are still read. Peers: a real console (C), a TLS server recording every byte
// with another certificate, a fake console with a certificate of a test CA.
let a: TestServer;
let c: TestServer;
let session: string;
let cToken: string;
let cPin: string;
let rec: Awaited<ReturnType<typeof recordingTls>>;
let fake: Awaited<ReturnType<typeof fakeConsole>>;
let pki: { ca: Pems; leaf: Pems };

beforeAll(async () => {
  [a, c, rec, pki] = await Promise.all([startTestServer(), startTestServer(), recordingTls(), makeCa()]);
  fake = await fakeConsole(pki.leaf);
  session = await a.login();
  cToken = await apiToken(c);
  cPin = await adminFingerprint(c.configDir);
}, 30_000);
afterAll(async () => {
  await Promise.all([a?.close(), c?.close(), rec?.close(), fake?.close()]);
});

const cUrl = () => `https://127.0.0.1:${c.server.port}`;
const fakeUrl = (p: string) => `https://127.0.0.1:${fake.port}/${p}`;
const pin = (fingerprint: string) => ({ mode: 'pin', fingerprint, ca: '' });

async function add(name: string, url: string, token: string, tls: unknown) {
  const r = await a.call('POST', '/api/wanji_admin/consoles', { token: session, body: { name, url, token, tls } });
  expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
  return r.body.console.key as string;
}
async function stateOf(key: string) {
  const r = await a.call('GET', '/api/wanji_admin/consoles', { token: session });
  return r.body.list.find((x: { key: string }) => x.key === key);
}
/** The console's state once it has been read at least once. */
const checked = (key: string, what: string) =>
  waitFor(
    () => stateOf(key),
    (s) => s?.checkedAt !== undefined,
    { timeout: 10_000, what },
  );

describe('probe and pinning', () => {
  it("probe shows the console's certificate without sending anything", async () => {
    const p = await a.call('POST', '/api/wanji_admin/probe', { token: session, body: { url: cUrl() } });
    expect(p.body).toMatchObject({ ret: 0, fingerprint: cPin, selfSigned: true, caValid: false });
    expect(p.body.altNames).toContain('127.0.0.1');
    const r = await a.call('POST', '/api/wanji_admin/probe', {
      token: session,
      body: { url: `https://127.0.0.1:${rec.port}` },
    });
    expect(r.body.fingerprint).toBe(rec.fingerprint);
    await waitFor(() => rec.connections() > 0, { what: 'a connection to the recorder' });
    expect(rec.bytes()).toBe('');
    // with the test CA the fake console's certificate is CA-valid for 127.0.0.1
    const v = await a.call('POST', '/api/wanji_admin/probe', {
      token: session,
      body: { url: fakeUrl('ok'), ca: pki.ca.cert },
    });
    expect(v.body).toMatchObject({ fingerprint: fingerprintOf(pki.leaf.cert), caValid: true, selfSigned: false });
  });

  it('a pinned console is read; a token never reaches a server showing another certificate', async () => {
    const good = await add('C', cUrl(), cToken, pin(cPin));
    const ok = await checked(good, 'C read');
    expect(ok).toMatchObject({
      reachable: true,
      failures: 0,
      token: '******',
      summary: { version: c.server.core.version },
    });
    // The impostor's port with C's pin: refused after the handshake, before a byte is written.
    const bad = await add('impostor', `https://127.0.0.1:${rec.port}`, cToken, pin(cPin));
    const st = await checked(bad, 'impostor tried');
    expect(st).toMatchObject({
      reachable: false,
      reason: { code: 'fingerprintMismatch' },
      seenFingerprint: rec.fingerprint,
    });
    expect(st.nextCheckAt > st.checkedAt).toBe(true);
    await waitFor(() => rec.connections() > 1, { what: "the manager's connection to the recorder" });
    expect(rec.bytes()).toBe('');
    // the login link is refused the same way (coded, 502: the peer's fault)
    const link = await a.call('POST', `/api/wanji_admin/consoles/${bad}/login-link`, { token: session });
    expect(link.status).toBe(502);
    expect(link.body.code).toBe('fingerprintMismatch');
    expect(rec.bytes()).not.toContain('lkt_');
    expect(rec.bytes()).toBe('');
  });

  it('the refreshNow action reads a console by name (scheduled tasks)', async () => {
    const actions = moduleActions(a.server.core.modules, 'cron');
    expect(await actions.invoke('wanji_admin', 'refreshNow', { key: 'C' })).toMatchObject({ ok: true });
    expect(await actions.invoke('wanji_admin', 'refreshNow', { key: 'impostor' })).toMatchObject({
      ok: false,
      reason: { code: 'fingerprintMismatch' },
    });
    expect(await actions.invoke('wanji_admin', 'refreshNow', { key: 'nobody' })).toMatchObject({
      ok: false,
      reason: { code: 'consoleNotFound' },
    });
  });

  it('a wrong token is tokenRejected', async () => {
    const key = await add('C wrong token', cUrl(), 'lkt_000000000000_wrongwrongwrongwrongwrong', pin(cPin));
    expect(await checked(key, 'read')).toMatchObject({
      reachable: false,
      reason: { code: 'tokenRejected', params: { status: 401 } },
    });
  });
});

describe('CA mode', () => {
  it('the test CA verifies the console; another CA (or the system CAs) does not', async () => {
    const ok = await add('ca ok', fakeUrl('ok'), 'lkt_x', { mode: 'ca', fingerprint: '', ca: pki.ca.cert });
    expect(await checked(ok, 'ca ok')).toMatchObject({ reachable: true, summary: { version: '9.9.9' } });
    const other = await makeCa();
    const wrong = await add('ca wrong', fakeUrl('ok'), 'lkt_x', { mode: 'ca', fingerprint: '', ca: other.ca.cert });
    expect(await checked(wrong, 'wrong ca')).toMatchObject({ reachable: false, reason: { code: 'tlsFailed' } });
    const system = await add('ca system', fakeUrl('ok'), 'lkt_x', { mode: 'ca', fingerprint: '', ca: '' });
    expect(await checked(system, 'system ca')).toMatchObject({ reachable: false, reason: { code: 'tlsFailed' } });
  });
});

describe('hostile or broken remotes', () => {
  it('garbage, another shape, 2 MiB, 404 and silence are coded reasons; the other consoles are still read', async () => {
    await a.call('PUT', '/api/wanji_admin/settings', { token: session, body: { timeoutMs: 1000 } });
    const tls = { mode: 'ca', fingerprint: '', ca: pki.ca.cert };
    const keys = {
      garbage: await add('garbage', fakeUrl('garbage'), 'lkt_x', tls),
      shape: await add('shape', fakeUrl('shape'), 'lkt_x', tls),
      huge: await add('huge', fakeUrl('huge'), 'lkt_x', tls),
      missing: await add('missing', fakeUrl('missing'), 'lkt_x', tls),
      slow: await add('slow', fakeUrl('slow'), 'lkt_x', tls),
      denied: await add('denied', fakeUrl('denied'), 'lkt_x', tls),
      refused: await add('refused', 'https://127.0.0.1:1', 'lkt_x', pin(cPin)),
      dns: await add('dns', 'https://no-such-host.invalid:16601', 'lkt_x', pin(cPin)),
    };
    const expected: Record<keyof typeof keys, string> = {
      garbage: 'notLucky',
      shape: 'notLucky',
      huge: 'tooLarge',
      missing: 'notLucky',
      slow: 'timeout',
      denied: 'tokenRejected',
      refused: 'connectRefused',
      dns: 'dnsFailed',
    };
    for (const [name, key] of Object.entries(keys)) {
      const st = await checked(key, name);
      expect(st.reason?.code, `${name}: ${JSON.stringify(st.reason)}`).toBe(expected[name as keyof typeof keys]);
      expect(st.reachable).toBe(false);
    }
    // C is read again while the slow one hangs: its refresh answers
    const list = (await a.call('GET', '/api/wanji_admin/consoles', { token: session })).body.list;
    const cKey = list.find((x: { name: string }) => x.name === 'C').key;
    const again = await a.call('POST', `/api/wanji_admin/consoles/${cKey}/refresh`, { token: session });
    expect(again.body.console).toMatchObject({ reachable: true });
    // the log says why, in code + params
    const log = await a.call('GET', '/api/wanji_admin/logs?pageSize=200', { token: session });
    expect(
      log.body.logs.some(
        (l: { code?: string; params?: { name?: string } }) => l.code === 'unreachable' && l.params?.name === 'huge',
      ),
    ).toBe(true);
  }, 30_000);
});
