// The IPv4 default gateway, read from the kernel's routing table (/proc/net/route, which shows the
// calling process's network namespace): NAT-PMP and PCP talk to it when the user names none.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { PortMapError } from './errors.js';

export interface DefaultRoute {
  iface: string;
  gateway: string;
  metric: number;
}

/** /proc/net/route holds addresses as little-endian hex words ("0101A8C0" = 192.168.1.1). */
const hexToIPv4 = (hex: string): string | undefined => {
  if (!/^[0-9A-Fa-f]{8}$/.test(hex)) return undefined;
  const n = Number.parseInt(hex, 16);
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24].join('.');
};

const RTF_UP = 0x1;
const RTF_GATEWAY = 0x2;

/** The default routes (destination and mask 0, up, via a gateway) of a /proc/net/route text, lowest metric first. */
export function parseDefaultRoutes(text: string): DefaultRoute[] {
  const routes: DefaultRoute[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    const [iface, dest, gw, flags, , , metric, mask] = f;
    const flagBits = Number.parseInt(flags, 16);
    const gateway = hexToIPv4(gw);
    if (dest !== '00000000' || mask !== '00000000' || !gateway || gateway === '0.0.0.0') continue;
    if ((flagBits & RTF_UP) === 0 || (flagBits & RTF_GATEWAY) === 0) continue;
    routes.push({ iface, gateway, metric: Number(metric) || 0 });
  }
  return routes.sort((a, b) => a.metric - b.metric);
}

/**
 * The gateway of the default route; with `localAddress`, of the route on the interface that holds
 * that address when there is one (a box with two uplinks maps on the one the rule uses).
 */
export async function defaultGateway(localAddress?: string): Promise<string> {
  let text = '';
  try {
    text = await readFile('/proc/net/route', 'utf8');
  } catch {
    // no procfs (not Linux): no route known
  }
  const routes = parseDefaultRoutes(text);
  if (localAddress && localAddress !== '0.0.0.0') {
    const ifaces = os.networkInterfaces();
    const own = routes.find((r) => ifaces[r.iface]?.some((a) => a.address === localAddress));
    if (own) return own.gateway;
  }
  if (routes.length === 0) throw new PortMapError('noDefaultGateway', {});
  return routes[0].gateway;
}
