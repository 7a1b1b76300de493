import { isIpv4, type StunProtocol } from '@lucky/shared';
import type { MappingHost } from './host.js';
import { type Endpoint, MappingError, stunReason } from './mapping.js';
import { StunError } from './protocol/errors.js';
import { AllServersFailed, withFailover } from './protocol/servers.js';

export { resolveServer } from './protocol/servers.js';

/**
 * The mapped address a server reported, when it can be this mapping's public address. The
 * mappings are IPv4 (the sockets are), so an IPv6 XOR-MAPPED-ADDRESS is a wrong answer: taken, it
 * would be shown, sent to scripts and webhooks and written into a DDNS A record.
 */
export function publicEndpoint(mapped: Endpoint, server: string): Endpoint {
  if (!isIpv4(mapped.address))
    throw new StunError('invalidAnswer', `the STUN server reported ${mapped.address}, not an IPv4 address`, {
      server,
      reason: 'notIpv4',
    });
  return mapped;
}

/**
 * Asks the rule's servers in order (the one that answered last first) until one answers; each
 * server that failed on the way is logged with its reason. When none answers, the mapping's
 * error names every server and why.
 */
export async function failover(
  host: MappingHost,
  proto: StunProtocol,
  attempt: (server: Endpoint) => Promise<Endpoint>,
): Promise<{ mapped: Endpoint; server: string }> {
  try {
    const r = await withFailover(
      host.servers(),
      async (s) => publicEndpoint(await attempt({ address: s.address, port: s.port }), s.text),
      { signal: host.signal },
    );
    for (const e of r.errors) host.line(5, 'serverFailed', { proto, server: e.server, detail: e.error.message });
    host.serverWorked(r.server.text);
    return { mapped: r.result, server: r.server.text };
  } catch (err) {
    if (err instanceof AllServersFailed) {
      for (const e of err.errors) host.line(5, 'serverFailed', { proto, server: e.server, detail: e.error.message });
      const detail = err.errors.map((e) => `${e.server}: ${e.error.message}`).join('; ');
      throw new MappingError(stunReason('allServersFailed', { detail }));
    }
    throw err;
  }
}

/**
 * RFC 8489 §6.2.1 retransmission cut to the rule's time-out: requests at 0, RTO, 3 RTO, 7 RTO …
 * (RTO 500 ms) while they start before the time-out, then a wait up to it. 39.5 s is the RFC's
 * full schedule (7 requests, then 16 RTO).
 */
export function rfcSchedule(timeoutMs: number): { rtoMs: number; rc: number; rm: number } {
  const rtoMs = 500;
  let rc = 1;
  let last = 0;
  while (rc < 7) {
    const next = rtoMs * (2 ** rc - 1);
    if (next >= timeoutMs) break;
    last = next;
    rc++;
  }
  return { rtoMs, rc, rm: Math.max(1, Math.round((timeoutMs - last) / rtoMs)) };
}
