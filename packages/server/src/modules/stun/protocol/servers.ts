// The STUN server list: entries `host[:port]` (IPv4 literal or DNS name, port 3478 by default),
// resolved to IPv4, tried in order until one answers. Every failure is kept per server so the
// screen can say which servers failed and why.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIpv4, isIpv6, parseStunServer } from '@lucky/shared';
import { StunError, toStunError } from './errors.js';
import type { StunEndpoint } from './udp.js';

export interface StunServerEntry {
  /** The entry as written (trimmed). */
  text: string;
  host: string;
  port: number;
}

/** A server with the IPv4 address its name resolved to. */
export interface ResolvedStunServer extends StunEndpoint {
  text: string;
  host: string;
}

export interface ServerFailure {
  /** The entry as written. */
  server: string;
  error: StunError;
}

export interface FailoverResult<T> {
  server: ResolvedStunServer;
  result: T;
  /** The servers tried before, each with why it failed. */
  errors: ServerFailure[];
}

/**
 * `host[:port]`: the config schema's rule (shared parseStunServer), with coded refusals; IPv6 gets
 * its own code so the screen can say it is not supported yet rather than malformed.
 */
export function parseServer(entry: string): StunServerEntry {
  const text = entry.trim();
  if (text.startsWith('[') || isIpv6(text)) {
    throw new StunError('ipv6NotSupported', `IPv6 STUN servers are not supported yet: "${text}"`, { server: text });
  }
  const parsed = parseStunServer(text);
  if (!parsed) throw new StunError('badServer', `"${text}" is not a STUN server (host or host:port)`, { server: text });
  return { text, host: parsed.host.replace(/\.$/, ''), port: parsed.port };
}

export type Lookup = (host: string, opts: { family: 4 }) => Promise<{ address: string }>;

/** The entry with its IPv4 address (an IPv4 literal as it is; a name via the system resolver). */
export async function resolveServer(
  entry: string | StunServerEntry,
  lookup: Lookup = dnsLookup,
): Promise<ResolvedStunServer> {
  const s = typeof entry === 'string' ? parseServer(entry) : entry;
  if (isIpv4(s.host)) return { ...s, address: s.host };
  try {
    const { address } = await lookup(s.host, { family: 4 });
    return { ...s, address };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new StunError('resolveFailed', `cannot resolve STUN server ${s.host}: ${code}`, {
      server: s.text,
      host: s.host,
      error: code,
    });
  }
}

/**
 * Tries the servers in order (parse, resolve, then `attempt`) and returns the first success
 * with the failures before it. When every server fails it throws 'allServersFailed' whose
 * params.errors lists each one (`{ server, code, message }`); `errors` holds the StunErrors.
 * An abort stops at once with 'aborted'.
 */
export async function withFailover<T>(
  servers: readonly string[],
  attempt: (server: ResolvedStunServer) => Promise<T>,
  opts: { signal?: AbortSignal; lookup?: Lookup } = {},
): Promise<FailoverResult<T>> {
  if (servers.length === 0) throw new StunError('noServers', 'no STUN server is configured');
  const errors: ServerFailure[] = [];
  for (const text of servers) {
    if (opts.signal?.aborted) throw new StunError('aborted', 'the STUN request was cancelled');
    try {
      const server = await resolveServer(text, opts.lookup);
      const result = await attempt(server);
      return { server, result, errors };
    } catch (err) {
      const error = toStunError(err);
      if (error.code === 'aborted') throw error;
      errors.push({ server: text.trim(), error });
    }
  }
  throw new AllServersFailed(errors);
}

export class AllServersFailed extends StunError {
  constructor(readonly errors: ServerFailure[]) {
    super(
      'allServersFailed',
      `every STUN server failed: ${errors.map((e) => `${e.server}: ${e.error.message}`).join('; ')}`,
      { errors: errors.map((e) => ({ server: e.server, code: e.error.code, message: e.error.message })) },
    );
  }
}
