// The optional DNS check before asking the provider: resolve the name through the task's DNS
// servers (or the built-in public ones) and skip the provider when DNS already answers the IP.
// One server at a time, in order; the first one that answers (an address list or "no such
// record") decides. A wildcard name is asked with a random label in place of the `*`.
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { DDNS_DEFAULT_IPV4_RESOLVERS, DDNS_DEFAULT_IPV6_RESOLVERS } from '@lucky/shared';
import { canonicalIp } from './ipSources/index.js';

export interface ResolverAnswer {
  /** The server that answered ('' when none did). */
  server: string;
  addresses: string[];
  error?: string;
}

const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

export async function resolveOnServers(
  fqdn: string,
  family: 4 | 6,
  servers: readonly string[],
  timeoutMs: number,
): Promise<ResolverAnswer> {
  const list = servers.filter(Boolean);
  const use = list.length ? list : family === 4 ? DDNS_DEFAULT_IPV4_RESOLVERS : DDNS_DEFAULT_IPV6_RESOLVERS;
  const name = fqdn.startsWith('*.') ? `${randomBytes(4).toString('hex')}${fqdn.slice(1)}` : fqdn;
  const errors: string[] = [];
  for (const server of use) {
    const r = new Resolver({ timeout: Math.max(500, Math.min(timeoutMs, 5000)), tries: 2 });
    try {
      r.setServers([server]);
      const addrs = family === 4 ? await r.resolve4(name) : await r.resolve6(name);
      return { server, addresses: addrs.map(canonicalIp) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (NO_RECORD.has(code)) return { server, addresses: [] };
      errors.push(`${server}: ${code || (err as Error).message}`);
    } finally {
      r.cancel();
    }
  }
  return { server: '', addresses: [], error: errors.join('; ') };
}
