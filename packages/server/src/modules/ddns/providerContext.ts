// How a task's provider calls travel: HTTP through the task's proxy and API network with the
// task's time limit, and the provider's API base (overridable for tests, never by the user: see
// DdnsModuleOptions.endpoints). The providers themselves are the core's (`ctx.dns`).
import { DDNS_PROVIDER_INFO, type DdnsProvider, type DdnsTask } from '@lucky/shared';
import type { DnsClientOptions } from '../../core/dns/index.js';
import type { HttpClients, ProxySpec } from '../../core/outbound/client.js';

export interface ProviderEnv {
  http: HttpClients;
  endpoints?: Partial<Record<DdnsProvider, string>>;
  signal?: AbortSignal;
  now?: () => Date;
}

export function proxyOf(p: DdnsTask['proxy']): ProxySpec | undefined {
  return p.type === 'none' ? undefined : { type: p.type, address: p.address, user: p.user, password: p.password };
}

export function clientOptions(task: DdnsTask, env: ProviderEnv): DnsClientOptions {
  return {
    http: env.http,
    proxy: proxyOf(task.proxy),
    family: task.apiNetwork === 'ipv4' ? 4 : task.apiNetwork === 'ipv6' ? 6 : undefined,
    timeoutMs: task.httpTimeout * 1000,
    signal: env.signal,
    now: env.now,
    endpoint: env.endpoints?.[task.dns.provider],
  };
}

/** The task's TTL, or the provider's default for 0, raised to the provider's minimum. */
export function ttlFor(task: DdnsTask): number {
  const info = DDNS_PROVIDER_INFO[task.dns.provider];
  const ttl = task.ttl || info.defaultTtl;
  return Math.max(ttl, info.minTtl);
}
