// System test of the core's DNS providers against real servers: TXT records added and removed
// through the service (as ACME DNS-01 will) on PowerDNS (HTTP API) and BIND 9 (RFC 2136 +
// TSIG), read back with DNS queries to the server's port. Someone else's value on the same
// name stays, a value that needs escaping or several strings arrives whole, a second add or a
// remove of a missing value changes nothing, and the last value out leaves no RRset behind.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsService, type DnsAccount, type DnsProvider, ProviderError } from '../src/core/dns/index.js';
import { HttpClients } from '../src/core/outbound/client.js';
import { type BindPeer, type PdnsPeer, queryTxt, startBind, startPdns } from './dns-peers.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

const dns = createDnsService();
const http = new HttpClients();
const token = () => randomBytes(32).toString('base64url');
const TRICKY = 'say "hi" \\o/ ; (x)';
const LONG = `${'a'.repeat(255)}${'b'.repeat(45)}`;

afterAll(() => http.close());

const account = (a: Partial<DnsAccount>): DnsAccount => ({
  provider: 'powerdns',
  id: '',
  secret: '',
  server: '',
  zone: '',
  tsigAlgorithm: 'hmac-sha256',
  ...a,
});

/** The same walk on either server: `read` asks the server's DNS port. */
function txtWalk(provider: () => DnsProvider, read: (name: string) => Promise<string[]>) {
  const n = dns.name('_acme-challenge.home.test');

  it('adds a wildcard and an apex value beside someone else’s, then removes only its own', async () => {
    const p = provider();
    expect(p.capabilities).toEqual({ txt: true, txtMany: true });
    expect(await read(n.fqdn)).toEqual(['someone-else']);
    const [wildcard, apex] = [token(), token()];
    expect(await p.addTxt(n, wildcard, 60)).toBe('created');
    expect(await read(n.fqdn)).toEqual(['someone-else', wildcard].sort());
    expect(await p.addTxt(n, wildcard, 60)).toBe('same');
    expect(await p.addTxt(n, apex, 60)).toBe('created');
    expect(await read(n.fqdn)).toEqual(['someone-else', wildcard, apex].sort());

    expect(await p.removeTxt(n, wildcard)).toBe('removed');
    expect(await read(n.fqdn)).toEqual(['someone-else', apex].sort());
    expect(await p.removeTxt(n, wildcard)).toBe('absent');
    expect(await p.removeTxt(n, apex)).toBe('removed');
    expect(await read(n.fqdn)).toEqual(['someone-else']);
  });

  it('concurrent adds to one name both land', async () => {
    const p = provider();
    const [a, b] = [token(), token()];
    await Promise.all([p.addTxt(n, a, 60), p.addTxt(n, b, 60)]);
    expect(await read(n.fqdn)).toEqual(['someone-else', a, b].sort());
    await Promise.all([p.removeTxt(n, a), p.removeTxt(n, b)]);
    expect(await read(n.fqdn)).toEqual(['someone-else']);
  });

  it('values with quotes, backslashes and spaces, and longer than one string, arrive whole', async () => {
    const p = provider();
    const m = dns.name('_acme-challenge.www.home.test');
    expect(await read(m.fqdn)).toEqual([]);
    expect(await p.addTxt(m, TRICKY, 60)).toBe('created');
    expect(await p.addTxt(m, LONG, 60)).toBe('created');
    expect(await read(m.fqdn)).toEqual([LONG, TRICKY].sort());
    expect(await p.addTxt(m, TRICKY, 60)).toBe('same');
    expect(await p.removeTxt(m, TRICKY)).toBe('removed');
    expect(await p.removeTxt(m, LONG)).toBe('removed');
    expect(await read(m.fqdn)).toEqual([]);
  });
}

describe('TXT on PowerDNS (HTTP API)', () => {
  let pdns: PdnsPeer;
  const provider = () =>
    dns.create(account({ provider: 'powerdns', server: pdns.apiUrl, secret: pdns.apiKey }), {
      http,
      timeoutMs: 5000,
    });

  beforeAll(async () => {
    pdns = await startPdns();
    // Someone else's value, set through the API as another client would.
    const r = await pdns.api('PATCH', '/zones/home.test.', {
      rrsets: [
        {
          name: '_acme-challenge.home.test.',
          type: 'TXT',
          ttl: 300,
          changetype: 'REPLACE',
          records: [{ content: '"someone-else"', disabled: false }],
        },
      ],
    });
    expect(r.status).toBe(204);
  });
  afterAll(() => pdns?.stop());

  txtWalk(provider, (name) => queryTxt(pdns.dnsPort, name));

  it('keeps the other value’s TTL and removes the emptied RRset from the zone', async () => {
    const rrsets = async () => ((await pdns.api('GET', '/zones/home.test.')).body as Json).rrsets as Json[];
    const txt = (all: Json[]) => all.filter((x) => x.type === 'TXT');
    expect(txt(await rrsets())).toEqual([expect.objectContaining({ name: '_acme-challenge.home.test.', ttl: 300 })]);
    const p = provider();
    const n = dns.name('_acme-challenge.home.test');
    await p.addTxt(n, 'x', 60);
    expect(txt(await rrsets())).toEqual([
      expect.objectContaining({
        ttl: 300,
        records: expect.arrayContaining([
          { content: '"someone-else"', disabled: false },
          { content: '"x"', disabled: false },
        ]),
      }),
    ]);
    await p.removeTxt(n, 'x');
    await p.addTxt(dns.name('_acme-challenge.cam.home.test'), 'y', 60);
    await p.removeTxt(dns.name('_acme-challenge.cam.home.test'), 'y');
    expect(txt(await rrsets()).map((x) => x.name)).toEqual(['_acme-challenge.home.test.']);
  });

  it('a wrong API key is refused and changes nothing', async () => {
    const p = dns.create(account({ provider: 'powerdns', server: pdns.apiUrl, secret: 'wrong' }), {
      http,
      timeoutMs: 5000,
    });
    const err = await p.addTxt(dns.name('_acme-challenge.home.test'), 'z', 60).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toMatch(/401/);
    expect(await queryTxt(pdns.dnsPort, '_acme-challenge.home.test')).toEqual(['someone-else']);
  });
});

describe('TXT on BIND 9 (RFC 2136 + TSIG)', () => {
  let bind: BindPeer;
  const provider = (secret = bind.secret) =>
    dns.create(account({ provider: 'rfc2136', server: `127.0.0.1:${bind.port}`, id: bind.keyName, secret }), {
      http,
      timeoutMs: 5000,
    });

  beforeAll(async () => {
    bind = await startBind(['_acme-challenge IN TXT "someone-else"']);
  });
  afterAll(() => bind?.stop());

  txtWalk(provider, (name) => queryTxt(bind.port, name));

  it('a wrong TSIG key is refused (NOTAUTH/BADSIG) and changes nothing', async () => {
    const err = await provider(Buffer.alloc(32, 7).toString('base64'))
      .addTxt(dns.name('_acme-challenge.home.test'), 'z', 60)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toMatch(/NOTAUTH \(BADSIG\)/);
    expect(await queryTxt(bind.port, '_acme-challenge.home.test')).toEqual(['someone-else']);
  });
});
