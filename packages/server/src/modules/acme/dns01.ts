// DNS-01: the TXT record goes in through the core DNS providers (ctx.dns) at
// `_acme-challenge.<name>` — or where that name is delegated to (CNAME delegation: `delegateTo`,
// else a CNAME found by lookup) — and is checked at every authoritative server of its zone before
// the CA is told; it is removed after validation, also when the order failed.
import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import type { AcmeCertificate } from '@lucky/shared';
import type { DnsName, DnsProvider } from '../../core/dns/types.js';
import { detailOf, OrderFailure, reason } from './reasons.js';

type DnsSettings = AcmeCertificate['dns'];

/** `_acme-challenge.<name>` of a name (a wildcard's base). */
export function challengeName(name: string): string {
  return `_acme-challenge.${name.replace(/^\*\./, '')}`;
}

/** `host[:port]` / `[v6]:port` / bare v6 → what Resolver.setServers takes; undefined when not an address. */
export function serverSpec(token: string): string | undefined {
  const t = token.trim();
  if (net.isIP(t)) return t;
  const v6 = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(t);
  if (v6 && net.isIPv6(v6[1])) return v6[2] ? `[${v6[1]}]:${v6[2]}` : v6[1];
  const v4 = /^([\d.]+):(\d{1,5})$/.exec(t);
  if (v4 && net.isIPv4(v4[1]) && Number(v4[2]) > 0 && Number(v4[2]) < 65536) return t;
  return undefined;
}

function resolver(servers?: string[], timeoutMs = 2000): Resolver {
  const r = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers?.length) r.setServers(servers);
  return r;
}

/**
 * Where the TXT of `name` is written: `delegateTo` when set, else the CNAME target of
 * `_acme-challenge.<name>` when it has one (asked of the configured name servers, else the system's).
 */
export async function recordName(name: string, dns: DnsSettings): Promise<string> {
  if (dns.delegateTo) return dns.delegateTo.toLowerCase().replace(/\.$/, '');
  const own = challengeName(name);
  try {
    const servers = dns.nameservers.map(serverSpec).filter((s): s is string => !!s);
    const [target] = await resolver(servers).resolveCname(own);
    if (target) return target.toLowerCase().replace(/\.$/, '');
  } catch {
    // No CNAME (NXDOMAIN / NODATA / no answer): the record is the name's own.
  }
  return own;
}

/**
 * The authoritative servers of the zone holding `record`: the configured `nameservers`, else the
 * NS of the closest enclosing zone (walking up the labels with the system resolver), each
 * resolved to its addresses.
 */
export async function authoritativeServers(
  record: string,
  dns: DnsSettings,
  /** Tests only: the resolver the walk asks (else the system's) and the port the NS answer on (else 53). */
  lab: { resolvers?: string[]; port?: number } = {},
): Promise<string[]> {
  if (dns.nameservers.length) return dns.nameservers.map(serverSpec).filter((s): s is string => !!s);
  const r = resolver(lab.resolvers, 4000);
  const at = (ip: string) => (lab.port ? (ip.includes(':') ? `[${ip}]:${lab.port}` : `${ip}:${lab.port}`) : ip);
  const labels = record.split('.');
  let lastError = 'no NS record above the name';
  for (let i = 0; i < labels.length - 1; i++) {
    const zone = labels.slice(i).join('.');
    let ns: string[];
    try {
      ns = await r.resolveNs(zone);
    } catch (err) {
      lastError = detailOf(err);
      continue;
    }
    if (!ns.length) continue;
    const addresses: string[] = [];
    for (const host of ns) {
      for (const family of ['resolve4', 'resolve6'] as const) {
        try {
          addresses.push(...(await r[family](host)));
        } catch {
          // A name server without an address of this family.
        }
      }
    }
    if (addresses.length) return [...new Set(addresses.map(at))];
    lastError = `the name servers of ${zone} (${ns.join(', ')}) have no address`;
  }
  throw new OrderFailure(reason('authoritativeUnknown', { record, detail: lastError }));
}

/** Whether `server` answers `value` among the TXT values of `record`. */
async function hasTxt(server: string, record: string, value: string): Promise<boolean> {
  try {
    const answers = await resolver([server]).resolveTxt(record);
    return answers.some((chunks) => chunks.join('') === value);
  } catch {
    return false;
  }
}

/**
 * Waits until every server answers the value, asking every `interval` s for at most `timeout` s.
 * `sleep` is the runtime's (cleared on stop; aborted with the order).
 */
export async function waitForPropagation(
  servers: string[],
  record: string,
  value: string,
  dns: DnsSettings,
  sleep: (ms: number) => Promise<void>,
  now: () => number = Date.now,
): Promise<void> {
  const deadline = now() + dns.propagationTimeout * 1000;
  let missing = servers;
  for (;;) {
    const seen = await Promise.all(missing.map((s) => hasTxt(s, record, value)));
    missing = missing.filter((_, i) => !seen[i]);
    if (!missing.length) return;
    if (now() + dns.propagationInterval * 1000 > deadline)
      throw new OrderFailure(
        reason('propagationTimeout', { record, servers: missing.join(', '), seconds: dns.propagationTimeout }),
      );
    await sleep(dns.propagationInterval * 1000);
  }
}

/** One published TXT value, for removal. */
export interface PublishedTxt {
  provider: DnsProvider;
  name: DnsName;
  value: string;
}

export async function publishTxt(
  provider: DnsProvider,
  name: DnsName,
  value: string,
  ttl: number,
): Promise<PublishedTxt> {
  try {
    await provider.addTxt(name, value, ttl);
  } catch (err) {
    throw new OrderFailure(reason('dnsWriteFailed', { record: name.fqdn, detail: detailOf(err) }));
  }
  return { provider, name, value };
}
