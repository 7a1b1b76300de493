import type { StunProtocol } from '@lucky/shared';
import type { MappingHost } from './host.js';
import { type Endpoint, MappingError, stunReason } from './mapping.js';
import { AllServersFailed, withFailover } from './protocol/servers.js';

export { resolveServer } from './protocol/servers.js';

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
    const r = await withFailover(host.servers(), (s) => attempt({ address: s.address, port: s.port }), {
      signal: host.signal,
    });
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
