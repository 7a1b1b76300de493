// Every cloud provider against a local HTTPS stub that checks its credentials or recomputes
// its signature independently (test/dns-provider-stubs.ts) and answers in the provider's
// shapes: create, no-op on the same value (no write call), update, and the provider's refusal.
// Each one goes through the core's service, as modules use it. TXT: values added beside
// someone else's value on the same name, a second add and a remove that find nothing to do
// (no write call), removal of only our value, and concurrent adds to one name (the service
// runs them one after another, so a read-then-replace API keeps both).
import { type DdnsTask, ddnsTaskSchema } from '@lucky/shared';
import { afterAll, describe, expect, it } from 'vitest';
import * as S from '../../../../test/dns-provider-stubs.js';
import { HttpClients } from '../../outbound/client.js';
import { createDnsService, providerContext } from '../service.js';
import type { DnsName, DnsProvider } from '../types.js';
import { PROVIDERS, ProviderError, type RecordTarget } from './index.js';

interface Case {
  provider: DdnsTask['dns']['provider'];
  stub: S.StubHandler;
  /** Path of the API base on the stub (the provider's real base path). */
  base: string;
  dns: Partial<DdnsTask['dns']>;
  bad: Partial<DdnsTask['dns']>;
  error: RegExp;
  target?: Partial<RecordTarget>;
  /** The ACME-style name for the TXT tests (default _acme-challenge.nas.example.com). */
  txtName?: DnsName;
  /** Calls that change something (the no-op check counts them). */
  isWrite(r: S.StubRequest): boolean;
  created?: 'created' | 'updated';
}

const methodWrite = (r: S.StubRequest) => r.method !== 'GET';
const CASES: Case[] = [
  {
    provider: 'cloudflare',
    stub: S.cloudflareStub,
    base: '/client/v4',
    dns: { secret: S.CF_TOKEN },
    bad: { secret: 'nope' },
    error: /403: 9109 Invalid access token/,
    isWrite: methodWrite,
  },
  {
    provider: 'alidns',
    stub: S.alidnsStub,
    base: '',
    dns: { id: S.ALI.id, secret: S.ALI.secret },
    bad: { id: S.ALI.id, secret: 'wrong' },
    error: /SignatureDoesNotMatch/,
    isWrite: (r) => r.query.get('Action') !== 'DescribeSubDomainRecords',
  },
  {
    provider: 'dnspod',
    stub: S.dnspodStub,
    base: '',
    dns: { id: S.TC.id, secret: S.TC.secret },
    bad: { id: S.TC.id, secret: 'wrong' },
    error: /AuthFailure\.SignatureFailure/,
    isWrite: (r) => r.headers['x-tc-action'] !== 'DescribeRecordList',
  },
  {
    provider: 'huaweicloud',
    stub: S.huaweiStub,
    base: '',
    dns: { id: S.HW.id, secret: S.HW.secret },
    bad: { id: S.HW.id, secret: 'wrong' },
    error: /401: APIGW\.0301/,
    isWrite: methodWrite,
  },
  {
    provider: 'baiducloud',
    stub: S.baiduStub,
    base: '',
    dns: { id: S.BD.id, secret: S.BD.secret },
    bad: { id: S.BD.id, secret: 'wrong' },
    error: /403: AccessDenied/,
    isWrite: (r) => !r.path.endsWith('/list'),
  },
  {
    provider: 'godaddy',
    stub: S.godaddyStub,
    base: '',
    dns: { id: S.GD.id, secret: S.GD.secret },
    bad: { id: S.GD.id, secret: 'wrong' },
    error: /401: UNABLE_TO_AUTHENTICATE/,
    isWrite: methodWrite,
  },
  {
    provider: 'porkbun',
    stub: S.porkbunStub,
    base: '/api/json/v3',
    dns: { id: S.PB.id, secret: S.PB.secret },
    bad: { id: S.PB.id, secret: 'wrong' },
    error: /Invalid API key/,
    isWrite: (r) => !r.path.includes('/retrieveByNameType/'),
  },
  {
    provider: 'dynv6',
    stub: S.dynv6Stub,
    base: '/api/v2',
    dns: { secret: S.DV6_TOKEN },
    bad: { secret: 'wrong' },
    error: /401/,
    target: { fqdn: 'nas.home.dynv6.net', sub: 'nas.home', root: 'dynv6.net' },
    txtName: { fqdn: '_acme-challenge.nas.home.dynv6.net', sub: '_acme-challenge.nas.home', root: 'dynv6.net' },
    isWrite: methodWrite,
  },
  {
    provider: 'desec',
    stub: S.desecStub,
    base: '/api/v1',
    dns: { secret: S.DS_TOKEN },
    bad: { secret: 'wrong' },
    error: /401: Invalid token/,
    target: { fqdn: 'nas.me.dedyn.io', sub: 'nas.me', root: 'dedyn.io', ttl: 3600 },
    txtName: { fqdn: '_acme-challenge.nas.me.dedyn.io', sub: '_acme-challenge.nas.me', root: 'dedyn.io' },
    isWrite: methodWrite,
  },
  {
    provider: 'duckdns',
    stub: S.duckdnsStub,
    base: '',
    dns: { secret: S.DUCK_TOKEN },
    bad: { secret: 'wrong' },
    error: /KO/,
    target: { fqdn: 'myhome.duckdns.org', sub: 'myhome', root: 'duckdns.org' },
    // DuckDNS has no read call: the one update call answers UPDATED or NOCHANGE.
    isWrite: () => false,
    created: 'updated',
  },
  {
    provider: 'namecom',
    stub: S.namecomStub,
    base: '/core/v1',
    dns: { id: S.NC.id, secret: S.NC.secret },
    bad: { id: S.NC.id, secret: 'wrong' },
    error: /401: Unauthenticated/,
    isWrite: methodWrite,
  },
  {
    provider: 'namesilo',
    stub: S.namesiloStub,
    base: '/api',
    dns: { secret: S.NS_KEY },
    bad: { secret: 'wrong' },
    error: /110: Invalid API Key/,
    isWrite: (r) => !r.path.endsWith('dnsListRecords'),
  },
  {
    provider: 'vercel',
    stub: S.vercelStub,
    base: '',
    dns: { id: S.VC.team, secret: S.VC.token },
    bad: { id: S.VC.team, secret: 'wrong' },
    error: /403: Not authorized/,
    isWrite: methodWrite,
  },
];

const service = createDnsService();
const clients: HttpClients[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

function options(c: Case, stub: S.Stub, dns: Partial<DdnsTask['dns']>) {
  const task = ddnsTaskSchema.parse({
    key: 'k',
    domains: ['x.example.com'],
    ipSource: { urls: ['http://127.0.0.1:9/'] },
    dns: { provider: c.provider, ...dns },
  });
  const http = new HttpClients({ ca: stub.ca });
  clients.push(http);
  return { account: task.dns, options: { http, timeoutMs: 10_000, endpoint: stub.url + c.base } };
}

function setup(c: Case, stub: S.Stub, dns: Partial<DdnsTask['dns']>): DnsProvider {
  const o = options(c, stub, dns);
  return service.create(o.account, o.options);
}

const set = (p: DnsProvider, t: RecordTarget) => p.setAddress(t, t.type, t.value, t.ttl);

for (const c of CASES) {
  describe(`provider ${c.provider}`, () => {
    const target: RecordTarget = {
      fqdn: 'nas.example.com',
      sub: 'nas',
      root: 'example.com',
      type: 'A',
      value: '192.0.2.1',
      ttl: 600,
      params: {},
      ...c.target,
    };

    it('creates, leaves the same value alone (no write call), updates', async () => {
      const stub = await S.startStub(c.stub);
      try {
        const p = setup(c, stub, c.dns);
        expect(await set(p, target)).toBe(c.created ?? 'created');
        expect(stub.store.map((r) => [r.name, r.type, r.value])).toEqual([[target.fqdn, 'A', '192.0.2.1']]);
        const before = stub.calls.length;
        expect(await set(p, target)).toBe('same');
        expect(stub.calls.slice(before).filter(c.isWrite)).toEqual([]);
        expect(await set(p, { ...target, value: '192.0.2.2' })).toBe('updated');
        expect(stub.store.map((r) => r.value)).toEqual(['192.0.2.2']);
        // An AAAA record is its own record.
        expect(await set(p, { ...target, type: 'AAAA', value: '2001:db8::5' })).toBe(c.created ?? 'created');
        expect(stub.store.find((r) => r.type === 'AAAA')?.value).toBe('2001:db8::5');
      } finally {
        await stub.close();
      }
    });

    it('reports the provider’s refusal of wrong credentials', async () => {
      const stub = await S.startStub(c.stub);
      try {
        const err = await set(setup(c, stub, c.bad), target).catch((e: Error) => e);
        expect(err).toBeInstanceOf(ProviderError);
        expect((err as Error).message).toMatch(c.error);
        expect(stub.store).toEqual([]);
      } finally {
        await stub.close();
      }
    });
  });
}

const txtOf = (stub: S.Stub, name: string) =>
  stub.store
    .filter((r) => r.name === name && r.type === 'TXT')
    .map((r) => r.value)
    .sort();

for (const c of CASES.filter((x) => x.provider !== 'duckdns')) {
  describe(`provider ${c.provider}: TXT`, () => {
    const n: DnsName = c.txtName ?? {
      fqdn: '_acme-challenge.nas.example.com',
      sub: '_acme-challenge.nas',
      root: 'example.com',
    };
    // Another name of the zone holding the same value must not be touched either.
    const elsewhere = n.fqdn.replace(/^_acme-challenge\./, '');

    it('adds beside other values, removes only its own, and writes nothing when there is nothing to do', async () => {
      const stub = await S.startStub(c.stub);
      try {
        const p = setup(c, stub, c.dns);
        expect(p.capabilities).toEqual({ txt: true, txtMany: true });
        stub.store.push(
          { id: S.newId(), name: n.fqdn, type: 'TXT', value: 'someone-else', ttl: 3600 },
          { id: S.newId(), name: elsewhere, type: 'TXT', value: 'token-one', ttl: 3600 },
        );
        expect(await p.addTxt(n, 'token-one', 120)).toBe('created');
        expect(txtOf(stub, n.fqdn)).toEqual(['someone-else', 'token-one']);
        let before = stub.calls.length;
        expect(await p.addTxt(n, 'token-one', 120)).toBe('same');
        expect(stub.calls.slice(before).filter(c.isWrite)).toEqual([]);
        expect(await p.addTxt(n, 'token-two', 120)).toBe('created');
        expect(txtOf(stub, n.fqdn)).toEqual(['someone-else', 'token-one', 'token-two']);

        expect(await p.removeTxt(n, 'token-one')).toBe('removed');
        expect(txtOf(stub, n.fqdn)).toEqual(['someone-else', 'token-two']);
        before = stub.calls.length;
        expect(await p.removeTxt(n, 'token-one')).toBe('absent');
        expect(stub.calls.slice(before).filter(c.isWrite)).toEqual([]);
        expect(await p.removeTxt(n, 'token-two')).toBe('removed');
        expect(txtOf(stub, n.fqdn)).toEqual(['someone-else']);
        expect(txtOf(stub, elsewhere)).toEqual(['token-one']);
      } finally {
        await stub.close();
      }
    });

    it('two adds to one name at once both land; the last value out leaves no empty record', async () => {
      const stub = await S.startStub(c.stub);
      try {
        const p = setup(c, stub, c.dns);
        expect(await Promise.all([p.addTxt(n, 'wildcard', 120), p.addTxt(n, 'apex', 120)])).toEqual([
          'created',
          'created',
        ]);
        expect(txtOf(stub, n.fqdn)).toEqual(['apex', 'wildcard']);
        expect(await Promise.all([p.removeTxt(n, 'wildcard'), p.removeTxt(n, 'apex')])).toEqual(['removed', 'removed']);
        expect(stub.store).toEqual([]);
      } finally {
        await stub.close();
      }
    });

    it('reports the provider’s refusal of wrong credentials', async () => {
      const stub = await S.startStub(c.stub);
      try {
        const err = await setup(c, stub, c.bad)
          .addTxt(n, 'token-one', 120)
          .catch((e: Error) => e);
        expect(err).toBeInstanceOf(ProviderError);
        expect((err as Error).message).toMatch(c.error);
        expect(stub.store).toEqual([]);
      } finally {
        await stub.close();
      }
    });
  });
}

describe('TXT through the service', () => {
  it('DuckDNS keeps one TXT value per domain: an add replaces it, a remove clears it', async () => {
    const stub = await S.startStub(S.duckdnsStub);
    try {
      const c = CASES.find((x) => x.provider === 'duckdns')!;
      const p = setup(c, stub, c.dns);
      expect(p.capabilities).toEqual({ txt: true, txtMany: false });
      const n = { fqdn: '_acme-challenge.myhome.duckdns.org', sub: '_acme-challenge.myhome', root: 'duckdns.org' };
      expect(await p.addTxt(n, 'token-one', 60)).toBe('created');
      expect(stub.calls.at(-1)?.query.get('domains')).toBe('myhome');
      expect(await p.addTxt(n, 'token-one', 60)).toBe('same');
      expect(await p.addTxt(n, 'token-two', 60)).toBe('created');
      expect(txtOf(stub, 'myhome.duckdns.org')).toEqual(['token-two']);
      expect(await p.removeTxt(n, 'token-two')).toBe('removed');
      expect(stub.calls.at(-1)?.query.get('clear')).toBe('true');
      expect(stub.store).toEqual([]);
      expect(await p.removeTxt(n, 'token-two')).toBe('absent');
    } finally {
      await stub.close();
    }
  });

  it('lists every provider API with its capabilities; the DDNS callback is not one', () => {
    const kinds = service.kinds();
    expect(kinds.map((k) => k.kind).sort()).toEqual(Object.keys(PROVIDERS).sort());
    expect(kinds.filter((k) => !k.capabilities.txt)).toEqual([]);
    expect(kinds.filter((k) => !k.capabilities.txtMany).map((k) => k.kind)).toEqual(['duckdns']);
    expect(service.capabilities('callback')).toBeUndefined();
    expect(() =>
      service.create(
        { provider: 'callback', id: '', secret: '', server: '', zone: '', tsigAlgorithm: 'hmac-sha256' },
        {
          http: new HttpClients(),
          timeoutMs: 1000,
        },
      ),
    ).toThrow(/unknown DNS provider "callback"/);
  });

  it('refuses TXT values a provider could mangle, before any call', async () => {
    const stub = await S.startStub(S.cloudflareStub);
    try {
      const c = CASES.find((x) => x.provider === 'cloudflare')!;
      const p = setup(c, stub, c.dns);
      const n = service.name('_acme-challenge.example.com');
      for (const bad of ['', 'line\nbreak', 'ü', 'x'.repeat(2049)])
        await expect(p.addTxt(n, bad, 60)).rejects.toThrow(/printable ASCII/);
      expect(stub.calls).toEqual([]);
    } finally {
      await stub.close();
    }
  });

  it('splits a name at its registered domain, multi-level suffixes included', () => {
    expect(service.name('_acme-challenge.www.Example.COM.')).toEqual({
      fqdn: '_acme-challenge.www.example.com',
      sub: '_acme-challenge.www',
      root: 'example.com',
    });
    expect(service.name('_acme-challenge.shop.com.cn')).toMatchObject({ sub: '_acme-challenge', root: 'shop.com.cn' });
    expect(service.name('_acme-challenge.a.home.arpa', ['home.arpa'])).toMatchObject({ root: 'a.home.arpa' });
    expect(() => service.name('bad..name')).toThrow(ProviderError);
  });
});

describe('provider details', () => {
  it('dynv6 sets the apex address on the zone itself', async () => {
    const stub = await S.startStub(S.dynv6Stub);
    try {
      const c = CASES.find((x) => x.provider === 'dynv6')!;
      const p = setup(c, stub, c.dns);
      const apex = {
        fqdn: 'home.dynv6.net',
        sub: 'home',
        root: 'dynv6.net',
        type: 'A' as const,
        value: '192.0.2.9',
        ttl: 0,
        params: {},
      };
      expect(await set(p, apex)).toBe('updated');
      expect(S.dynv6Zone.ipv4address).toBe('192.0.2.9');
      expect(await set(p, apex)).toBe('same');
    } finally {
      await stub.close();
    }
  });

  it('alidns writes the apex as RR "@" and honours ?RecordId=', async () => {
    const stub = await S.startStub(S.alidnsStub);
    try {
      const c = CASES.find((x) => x.provider === 'alidns')!;
      const p = setup(c, stub, c.dns);
      const apex = {
        fqdn: 'example.com',
        sub: '',
        root: 'example.com',
        type: 'A' as const,
        value: '192.0.2.3',
        ttl: 600,
        params: {},
      };
      expect(await set(p, apex)).toBe('created');
      expect(stub.calls.at(-1)?.query.get('RR')).toBe('@');
      await expect(set(p, { ...apex, params: { RecordId: 'nope' } })).rejects.toThrow(/record nope not found/);
    } finally {
      await stub.close();
    }
  });

  it('godaddy refuses a TTL below its minimum, which the service raises to it', async () => {
    const stub = await S.startStub(S.godaddyStub);
    try {
      const c = CASES.find((x) => x.provider === 'godaddy')!;
      const o = options(c, stub, c.dns);
      const ctx = providerContext(o.account, o.options);
      const t = {
        fqdn: 'nas.example.com',
        sub: 'nas',
        root: 'example.com',
        type: 'A' as const,
        value: '192.0.2.3',
        ttl: 60,
        params: {},
      };
      await expect(PROVIDERS.godaddy.setAddress(t, ctx)).rejects.toThrow(/422: INVALID_BODY/);
      expect(await set(service.create(o.account, o.options), t)).toBe('created');
      expect(stub.store[0].ttl).toBe(600);
    } finally {
      await stub.close();
    }
  });
});
