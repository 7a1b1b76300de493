// ACME HTTP-01 against pebble: answered by a web-service rule that listens on pebble's HTTP-01
// port (the issued certificate then served by that rule over TLS, checked with curl against
// pebble's root), then by the stand-alone responder once no rule listens there; revocation.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleActions } from '../src/core/modules/actions.js';
import { type AcmeServer, curlWithRoot, freeTcpPortIs, servedLeaf, startAcmeServer } from './acme-helpers.js';
import { type PebblePeer, startPebble } from './pebble.js';
import { curl, freePort } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

const curlInsecure = async (url: string) => (await curl(['-k', url])).body;

let pebble: PebblePeer;
let s: AcmeServer;
let account: string;
let root: string;

beforeAll(async () => {
  pebble = await startPebble();
  s = await startAcmeServer();
  account = await s.addAccount(pebble);
  root = await pebble.roots();
}, 30_000);

afterAll(async () => {
  await s?.close();
  await pebble?.stop();
});

describe('ACME HTTP-01 with pebble', () => {
  let ruleKey: string;
  let certKey: string;

  it('is answered by the web-service rule on the port, and that rule then serves the certificate', async () => {
    ({ key: ruleKey } = await s.addRule({
      port: pebble.httpPort,
      listenTypes: 'both',
      defaultRule: { serviceType: 'text', text: 'served by the rule' },
    }));
    certKey = await s.addCertificate({
      name: 'home',
      account,
      names: ['home.test', 'www.home.test'],
      challenge: 'http-01',
      http: { port: pebble.httpPort },
    });
    const c = await s.until(certKey, 'valid');
    expect(c.status.failures).toBe(0);
    expect(Date.parse(c.status.notAfter)).toBeGreaterThan(Date.now());
    // The account registered with the first order and is marked so.
    const list = (await s.call('GET', '/api/acme')).body;
    expect(list.accounts[0].registered).toBe(true);
    expect(JSON.stringify(list)).not.toContain('PRIVATE KEY');
    // The store holds it as an entry the module manages.
    const store = (await s.call('GET', '/api/ssl')).body.list;
    const entry = store.find((e: { Key: string }) => e.Key === c.status.storeKey);
    expect(entry.ManagedBy).toEqual({ module: 'acme', item: certKey });
    expect(entry.CertsInfo[0].Domains.sort()).toEqual(['home.test', 'www.home.test']);
    // Served over TLS by the rule, trusted through pebble's root (curl checks chain and name).
    expect(await curlWithRoot('www.home.test', pebble.httpPort, root)).toBe('served by the rule');
    const leaf = await servedLeaf(pebble.httpPort, 'home.test', root);
    expect(leaf.serialNumber.toLowerCase()).toBe(c.status.serial);
    // The token left the board: the rule answers the path as any other.
    const log = (await s.call('GET', '/api/acme/logs?pageSize=50')).body.logs.map((l: { code: string }) => l.code);
    expect(log).toEqual(
      expect.arrayContaining(['accountRegistered', 'orderStarted', 'challengeReady', 'validated', 'issued']),
    );
  });

  it('is answered by the stand-alone responder when no rule listens on the port', async () => {
    expect((await s.call('DELETE', `/api/reverseproxy/rules/${ruleKey}`)).body.ret).toBe(0);
    const key = await s.addCertificate({
      name: 'solo',
      account,
      // An IP address too: HTTP-01 only (pebble connects to it).
      names: ['solo.test', '127.0.0.1'],
      challenge: 'http-01',
      http: { port: pebble.httpPort },
    });
    const c = await s.until(key, 'valid');
    expect(c.status.storeKey).toBeTruthy();
    const pem = s.s.server.core.store.get().certs?.find((r) => r.key === c.status.storeKey)?.certPem ?? '';
    expect(new X509Certificate(pem).subjectAltName).toMatch(/IP Address:127\.0\.0\.1/);
    // The responder let the port go after the order.
    expect(await freeTcpPortIs(pebble.httpPort)).toBe(true);
  });

  it('a port another module holds fails with httpPortBusy, naming the owner', async () => {
    expect((await s.call('PUT', '/api/portforward/settings', { enabled: true })).body.ret).toBe(0);
    const port = await freePort();
    const rule = await s.call('POST', '/api/portforward/rules', {
      name: 'busy',
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(port),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(pebble.httpPort),
    });
    expect(rule.body.ret, JSON.stringify(rule.body)).toBe(0);
    const key = await s.addCertificate({
      name: 'busy',
      account,
      names: ['busy.test'],
      challenge: 'http-01',
      http: { port },
    });
    const c = await s.until(key, 'failing');
    expect(c.status.lastError).toMatchObject({ code: 'httpPortBusy', params: { port, owner: 'portforward "busy"' } });
    expect((await s.call('DELETE', `/api/acme/certificates/${key}`)).body.ret).toBe(0);
  });

  it('renew now replaces the store entry in place; busy while the order runs', async () => {
    const before = await s.cert(certKey);
    const first = await s.call('POST', `/api/acme/certificates/${certKey}/issue`, {});
    expect(first.body.ret).toBe(0);
    const second = await s.call('POST', `/api/acme/certificates/${certKey}/issue`, {});
    expect(second.body.code).toBe('busy');
    // No rule and no responder race: the responder answers on the port again.
    const after = await s.until(certKey, 'valid');
    expect(after.status.serial).not.toBe(before.status.serial);
    expect(after.status.storeKey).toBe(before.status.storeKey);
    // The same through the action a scheduled task would call.
    const r = await moduleActions(s.s.server.core.modules, 'cron').invoke('acme', 'renewNow', { certificate: certKey });
    expect(r).toMatchObject({ ok: true });
    const again = await waitFor(
      () => s.cert(certKey),
      (c) => c.status.serial !== after.status.serial && c.status.state === 'valid' && !c.status.step,
      { timeout: 20_000, interval: 100, what: 'renewal by the action' },
    );
    expect(again.status.storeKey).toBe(before.status.storeKey);
  });

  it('the board answers on plain HTTP only, at every rule and the admin console; other tokens fall through', async () => {
    const board = s.s.server.core.challenges;
    board.set('tok_A-1', 'tok_A-1.thumbprint');
    try {
      const port = await freePort();
      await s.addRule({ port, listenTypes: 'both', defaultRule: { serviceType: 'text', text: 'own answer' } });
      const at = (base: string, token: string) =>
        fetch(`${base}/.well-known/acme-challenge/${token}`, { headers: { host: 'any.example' } });
      const viaRule = await at(`http://127.0.0.1:${port}`, 'tok_A-1');
      expect([viaRule.status, await viaRule.text()]).toEqual([200, 'tok_A-1.thumbprint']);
      const other = await at(`http://127.0.0.1:${port}`, 'not-on-board');
      expect(await other.text()).toBe('own answer');
      const viaAdmin = await fetch(`${s.s.url}/.well-known/acme-challenge/tok_A-1`);
      expect([viaAdmin.status, await viaAdmin.text()]).toEqual([200, 'tok_A-1.thumbprint']);
      const miss = await fetch(`${s.s.url}/.well-known/acme-challenge/not-on-board`);
      // Not on the board: the console's own answer for the path (404, or the static files' 403 for a
      // dot folder once the web build is there), never a key authorization.
      expect([403, 404]).toContain(miss.status);
      expect(await miss.text()).not.toContain('thumbprint');
      // Over TLS the rule does not answer from the board (HTTP-01 is plain HTTP).
      const overTls = await curlInsecure(`https://127.0.0.1:${port}/.well-known/acme-challenge/tok_A-1`);
      expect(overTls).toBe('own answer');
    } finally {
      board.delete('tok_A-1');
    }
  });

  it('revokes: pebble marks it revoked, the store entry goes, the state says revoked', async () => {
    const c = await s.cert(certKey);
    const r = await s.call('POST', `/api/acme/certificates/${certKey}/revoke`, { reason: 'superseded' });
    expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
    expect(r.body.certificate.status.state).toBe('revoked');
    expect(r.body.certificate.status.storeKey).toBeUndefined();
    const store = (await s.call('GET', '/api/ssl')).body.list;
    expect(store.some((e: { Key: string }) => e.Key === c.status.storeKey)).toBe(false);
    const st = await pebble.certStatus(c.status.serial);
    expect(st.status).toBe('Revoked');
    // Revoking again: nothing issued.
    const again = await s.call('POST', `/api/acme/certificates/${certKey}/revoke`, {});
    expect(again.body.code).toBe('notIssued');
  });
});
