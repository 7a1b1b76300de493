// Figures of the port-forwarding screen: sizes in base 1000 with three
// significant digits (spec §9), rates per second, listen/target addresses.
import { formatSize, isIpv6 } from '@lucky/shared';

export const size = (bytes: number): string => formatSize(bytes);

export const rate = (bytesPerSecond: number): string => `${formatSize(Math.round(bytesPerSecond))}/s`;

/** `[::1]` for IPv6 literals so `host:port` stays readable. */
export function bracket(host: string): string {
  return isIpv6(host) ? `[${host}]` : host;
}

/** `address:ports` — the address may be empty ("any", shown by the caller). */
export function hostPorts(host: string, ports: string): string {
  return `${bracket(host)}:${ports.replace(/\s+/g, '')}`;
}
