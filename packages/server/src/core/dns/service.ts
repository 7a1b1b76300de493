// The DNS service modules get as `ctx.dns`: binds a provider implementation to an account and
// the caller's HTTP options, applies the provider's TTL rules, checks TXT values, and runs the
// TXT changes of one name one after another (most APIs replace a name's whole TXT set, so two
// overlapping read-then-write changes — a wildcard and its apex — would lose one value).
import { DDNS_PROVIDER_INFO } from '@lucky/shared';
import { dnsName, suffixSet } from './names.js';
import { PROVIDERS } from './providers/index.js';
import type { DnsProviderImpl, ProviderContext } from './providers/types.js';
import { checkTxtValue } from './txt.js';
import {
  type DnsAccount,
  type DnsCapabilities,
  type DnsClientOptions,
  type DnsName,
  type DnsProvider,
  type DnsProviderKind,
  type DnsService,
  ProviderError,
} from './types.js';

export function providerContext(account: DnsAccount, o: DnsClientOptions): ProviderContext {
  const client = { proxy: o.proxy, family: o.family };
  return {
    dns: account,
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    now: o.now ?? (() => new Date()),
    endpoint: (base) => o.endpoint?.replace(/\/+$/, '') ?? base,
    http: (req) => o.http.request(client, { ...req, timeoutMs: req.timeoutMs ?? o.timeoutMs, signal: o.signal }),
  };
}

/** The provider's TTL for a wish: 0 = the provider's default, raised to its minimum. */
export function providerTtl(kind: DnsProviderKind, ttl: number): number {
  const info = DDNS_PROVIDER_INFO[kind];
  return Math.max(ttl || info.defaultTtl, info.minTtl);
}

const isKind = (kind: string): kind is DnsProviderKind => Object.hasOwn(PROVIDERS, kind);

function capabilitiesOf(impl: DnsProviderImpl): DnsCapabilities {
  return { txt: impl.txt !== undefined, txtMany: impl.txt?.many ?? false };
}

export function createDnsService(): DnsService {
  // Tail of the TXT changes per provider kind and name.
  const tails = new Map<string, Promise<unknown>>();
  const serial = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };

  return {
    kinds: () => Object.values(PROVIDERS).map((p) => ({ kind: p.name, capabilities: capabilitiesOf(p) })),
    capabilities: (kind) => (isKind(kind) ? capabilitiesOf(PROVIDERS[kind]) : undefined),
    name: (fqdn, extra = []) => {
      const n = dnsName(fqdn, suffixSet(extra));
      if (!n) throw new ProviderError(`"${fqdn}" is not a valid domain name`);
      return n;
    },
    create(account, options): DnsProvider {
      const kind = account.provider;
      if (!isKind(kind)) throw new ProviderError(`unknown DNS provider "${kind}"`);
      const impl = PROVIDERS[kind];
      const ctx = providerContext(account, options);
      const txt = impl.txt;
      const target = (n: DnsName, value: string, ttl: number) => {
        checkTxtValue(value);
        return { fqdn: n.fqdn, sub: n.sub, root: n.root, params: n.params ?? {}, value, ttl };
      };
      const noTxt = () => new ProviderError(`${kind} cannot write TXT records`);
      return {
        kind,
        capabilities: capabilitiesOf(impl),
        setAddress: (n, type, ip, ttl) =>
          impl.setAddress(
            {
              fqdn: n.fqdn,
              sub: n.sub,
              root: n.root,
              params: n.params ?? {},
              type,
              value: ip,
              ttl: providerTtl(kind, ttl),
            },
            ctx,
          ),
        async addTxt(n, value, ttl) {
          if (!txt) throw noTxt();
          const t = target(n, value, providerTtl(kind, ttl));
          return serial(`${kind} ${n.fqdn}`, () => txt.add(t, ctx));
        },
        async removeTxt(n, value) {
          if (!txt) throw noTxt();
          const t = target(n, value, providerTtl(kind, 0));
          return serial(`${kind} ${n.fqdn}`, () => txt.remove(t, ctx));
        },
      };
    },
  };
}
