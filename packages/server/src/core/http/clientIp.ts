import { isIp } from '@lucky/shared';
import { ipInList } from '../net/lan.js';

/** `::ffff:10.0.0.1` → `10.0.0.1`, so one address has one spelling everywhere. */
export function normalizeIp(ip: string | undefined): string {
  if (!ip) return '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/**
 * The client's address. Forwarded headers are believed only when the socket
 * peer is a configured trusted proxy; then X-Forwarded-For is read right to
 * left, skipping further trusted proxies, and X-Real-IP is the fallback.
 */
export function resolveClientIp(
  peer: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  trusted: readonly string[],
): string {
  const socketIp = normalizeIp(peer);
  if (trusted.length === 0 || !ipInList(socketIp, trusted as string[])) return socketIp;
  const xff = headers['x-forwarded-for'];
  const hops = (Array.isArray(xff) ? xff.join(',') : (xff ?? ''))
    .split(',')
    .map((s) => normalizeIp(s.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (!isIp(hop)) return socketIp;
    if (!ipInList(hop, trusted as string[])) return hop;
  }
  const real = headers['x-real-ip'];
  const realIp = normalizeIp(Array.isArray(real) ? real[0] : real);
  if (realIp && isIp(realIp)) return realIp;
  return hops[0] ?? socketIp;
}
