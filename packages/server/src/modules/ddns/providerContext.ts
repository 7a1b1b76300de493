// What a provider gets for one task: HTTP through the task's proxy and API network with the
// task's time limit, and its API base (overridable for tests, never by the user: see
// DdnsModuleOptions.endpoints).
import { DDNS_PROVIDER_INFO, type DdnsProvider, type DdnsTask } from '@lucky/shared';
import type { ClientOptions, HttpClients, ProxySpec } from './http/client.js';
import type { ProviderContext } from './providers/types.js';

export interface ProviderEnv {
  http: HttpClients;
  endpoints?: Partial<Record<DdnsProvider, string>>;
  signal?: AbortSignal;
  now?: () => Date;
}

export function proxyOf(p: DdnsTask['proxy']): ProxySpec | undefined {
  return p.type === 'none' ? undefined : { type: p.type, address: p.address, user: p.user, password: p.password };
}

export function providerContext(task: DdnsTask, env: ProviderEnv): ProviderContext {
  const opts: ClientOptions = {
    proxy: proxyOf(task.proxy),
    family: task.apiNetwork === 'ipv4' ? 4 : task.apiNetwork === 'ipv6' ? 6 : undefined,
  };
  const timeoutMs = task.httpTimeout * 1000;
  return {
    dns: task.dns,
    timeoutMs,
    signal: env.signal,
    now: env.now ?? (() => new Date()),
    endpoint: (base) => env.endpoints?.[task.dns.provider]?.replace(/\/+$/, '') ?? base,
    http: (req) => env.http.request(opts, { ...req, timeoutMs: req.timeoutMs ?? timeoutMs, signal: env.signal }),
  };
}

/** The task's TTL, or the provider's default for 0, raised to the provider's minimum. */
export function ttlFor(task: DdnsTask): number {
  const info = DDNS_PROVIDER_INFO[task.dns.provider];
  const ttl = task.ttl || info.defaultTtl;
  return Math.max(ttl, info.minTtl);
}
