import type { ProxySpec } from '@lucky/shared';
import { hostPort } from './ruleRuntime.js';

/** A port that could not be bound because it is taken or the address is missing is tried again this often. */
export const RETRY_BIND_MS = 10_000;

export interface BindOptions {
  host: string;
  port: number;
  ipv6Only: boolean;
}

/**
 * Binds as the spec says; a dual-stack `::` on a machine without IPv6 falls back to `0.0.0.0`
 * (what `tcp`/`udp` with an empty address mean there).
 */
export async function listenWithFallback(spec: ProxySpec, bind: (opts: BindOptions) => Promise<void>): Promise<void> {
  const opts = { host: spec.host, port: spec.port, ipv6Only: spec.ipv6Only };
  try {
    await bind(opts);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (spec.host !== '::' || spec.ipv6Only || (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL')) throw err;
    await bind({ ...opts, host: '0.0.0.0' });
  }
}

/** The reason shown on the port, in words a home-lab admin knows. */
export function bindFailure(err: NodeJS.ErrnoException, spec: ProxySpec): string {
  const where = hostPort(spec.host, spec.port);
  switch (err.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is in use by another program or rule (EADDRINUSE)`;
    case 'EACCES':
    case 'EPERM':
      return `cannot listen on ${where}: permission denied (${err.code}; ports below 1024 need root or CAP_NET_BIND_SERVICE)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: this machine has no such address (EADDRNOTAVAIL)`;
    default:
      return `cannot listen on ${where}: ${err.code ?? err.message}`;
  }
}

/** Worth trying again later: the port may be freed, the address may come up. */
export function retryable(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL';
}
