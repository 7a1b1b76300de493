// ACME DNS-01 against pebble whose resolver is the DNS server the TXT records are written to:
// PowerDNS (its HTTP API) and BIND (RFC 2136 with TSIG), a wildcard with its apex, CNAME
// delegation of `_acme-challenge`, the TXT removed afterwards, and failures with coded reasons
// (the provider refusing the write, a TXT that never shows at the name server asked).
import { acmeCertificateSchema } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authoritativeServers } from '../src/modules/acme/dns01.js';
import { type AcmeServer, startAcmeServer } from './acme-helpers.js';
import { type BindPeer, type PdnsPeer, queryTxt, startBind, startPdns } from './dns-peers.js';
import { type PebblePeer, startPebble } from './pebble.js';

let pdns: PdnsPeer;
let bind: BindPeer;
let viaPdns: PebblePeer;
let viaBind: PebblePeer;
let s: AcmeServer;

beforeAll(async () => {
  [pdns, bind] = await Promise.all([
    startPdns(),
    startBind(['_acme-challenge.deleg IN CNAME acme.target.home.test.', 'target IN A 192.0.2.20']),
  ]);
  [viaPdns, viaBind] = await Promise.all([
    startPebble({ dnsServer: `127.0.0.1:${pdns.dnsPort}` }),
    startPebble({ dnsServer: `127.0.0.1:${bind.port}` }),
  ]);
  s = await startAcmeServer();
}, 30_000);

afterAll(async () => {
  await s?.close();
  await Promise.all([viaPdns?.stop(), viaBind?.stop()]);
  await Promise.all([pdns?.stop(), bind?.stop()]);
});

const pdnsDns = (extra: Record<string, unknown> = {}) => ({
  provider: 'powerdns',
  server: pdns.apiUrl,
  secret: pdns.apiKey,
  nameservers: [`127.0.0.1:${pdns.dnsPort}`],
  propagationInterval: 1,
  ...extra,
});

const bindDns = () => ({
  provider: 'rfc2136',
  server: `127.0.0.1:${bind.port}`,
  id: bind.keyName,
  secret: bind.secret,
  zone: 'home.test',
  nameservers: [`127.0.0.1:${bind.port}`],
  propagationInterval: 1,
});

describe('ACME DNS-01 with pebble', () => {
  it('issues a wildcard with its apex through PowerDNS, and removes the TXT records afterwards', async () => {
    const account = await s.addAccount(viaPdns);
    const key = await s.addCertificate({
      name: 'wild-pdns',
      account,
      names: ['home.test', '*.home.test'],
      challenge: 'dns-01',
      dns: pdnsDns(),
    });
    const c = await s.until(key, 'valid');
    const store = (await s.call('GET', '/api/ssl')).body.list;
    const entry = store.find((e: { Key: string }) => e.Key === c.status.storeKey);
    expect(entry.CertsInfo[0].Domains.sort()).toEqual(['*.home.test', 'home.test']);
    expect(await queryTxt(pdns.dnsPort, '_acme-challenge.home.test')).toEqual([]);
    const log = (await s.call('GET', '/api/acme/logs?pageSize=50')).body.logs.map((l: { code: string }) => l.code);
    expect(log).toEqual(expect.arrayContaining(['propagationWait', 'validated', 'issued']));
  });

  it('issues a wildcard with its apex through BIND (RFC 2136, TSIG)', async () => {
    const account = await s.addAccount(viaBind);
    const key = await s.addCertificate({
      name: 'wild-bind',
      account,
      names: ['*.home.test', 'home.test'],
      challenge: 'dns-01',
      dns: bindDns(),
    });
    await s.until(key, 'valid');
    expect(await queryTxt(bind.port, '_acme-challenge.home.test')).toEqual([]);
  });

  it('follows the CNAME of _acme-challenge to where the TXT is written (BIND)', async () => {
    const account = (await s.call('GET', '/api/acme')).body.accounts.find(
      (a: { directoryUrl: string }) => a.directoryUrl === viaBind.directoryUrl,
    ).key;
    const key = await s.addCertificate({
      name: 'delegated',
      account,
      names: ['deleg.home.test'],
      challenge: 'dns-01',
      dns: bindDns(),
    });
    const c = await s.until(key, 'valid');
    expect(c.status.storeKey).toBeTruthy();
    const log = (await s.call('GET', '/api/acme/logs?pageSize=100')).body.logs;
    expect(
      log.some(
        (l: { code: string; params: { record?: string } }) =>
          l.code === 'propagationWait' && l.params.record === 'acme.target.home.test',
      ),
    ).toBe(true);
    expect(await queryTxt(bind.port, 'acme.target.home.test')).toEqual([]);
  });

  it("finds the zone's authoritative servers by walking up the labels to its NS (BIND)", async () => {
    const dns = acmeCertificateSchema.shape.dns.parse({});
    const lab = { resolvers: [`127.0.0.1:${bind.port}`], port: bind.port };
    expect(await authoritativeServers('_acme-challenge.deep.deleg.home.test', dns, lab)).toEqual([
      `127.0.0.1:${bind.port}`,
    ]);
    await expect(authoritativeServers('_acme-challenge.elsewhere.invalid', dns, lab)).rejects.toMatchObject({
      reason: { code: 'authoritativeUnknown', params: { record: '_acme-challenge.elsewhere.invalid' } },
    });
  });

  it('a refused DNS write fails with dnsWriteFailed and backs off; fixed, it tries again at once', async () => {
    const account = await s.addAccount(viaPdns);
    const key = await s.addCertificate({
      name: 'refused',
      account,
      names: ['refused.home.test'],
      challenge: 'dns-01',
      dns: pdnsDns({ secret: 'not-the-key' }),
    });
    const c = await s.until(key, 'failing');
    expect(c.status.lastError.code).toBe('dnsWriteFailed');
    expect(c.status.lastError.params.record).toBe('_acme-challenge.refused.home.test');
    expect(c.status.failures).toBe(1);
    // The next try waits the back-off's first step (5 minutes).
    expect(Date.parse(c.status.nextRenewalAt) - Date.parse(c.status.lastAttemptAt)).toBeGreaterThanOrEqual(299_000);
    // The admin fixes the secret: the certificate tries again at once, not after the back-off.
    const { key: _k, status: _s, ...input } = c;
    const put = await s.call('PUT', `/api/acme/certificates/${key}`, {
      ...input,
      dns: { ...input.dns, secret: pdns.apiKey },
    });
    expect(put.body.ret, JSON.stringify(put.body)).toBe(0);
    const fixed = await s.until(key, 'valid');
    expect(fixed.status.failures).toBe(0);
    expect(fixed.status.lastError).toBeUndefined();
  });

  it('a TXT that never shows at the name server asked fails with propagationTimeout, and is removed', async () => {
    const account = await s.addAccount(viaPdns);
    const key = await s.addCertificate({
      name: 'unseen',
      account,
      names: ['unseen.home.test'],
      challenge: 'dns-01',
      // Written to PowerDNS, looked for at BIND (which never gets it).
      dns: pdnsDns({ nameservers: [`127.0.0.1:${bind.port}`], propagationTimeout: 5 }),
    });
    const c = await s.until(key, 'failing', 25_000);
    expect(c.status.lastError.code).toBe('propagationTimeout');
    expect(c.status.lastError.params).toMatchObject({ record: '_acme-challenge.unseen.home.test', seconds: 5 });
    expect(await queryTxt(pdns.dnsPort, '_acme-challenge.unseen.home.test')).toEqual([]);
  });
});
