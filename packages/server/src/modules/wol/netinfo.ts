// The machine's IPv4 interfaces with their subnets and broadcast addresses: where a magic packet
// leaves, which subnet a scan may probe (its own, never beyond).
import os from 'node:os';
import type { WolInterfaceView } from '@lucky/shared';

const toInt = (ip: string) => ip.split('.').reduce((n, p) => (n << 8) + Number(p), 0) >>> 0;
export const toIp = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');

/** Every up, non-loopback IPv4 address (the first of an interface that has several). */
export function ipv4Interfaces(): WolInterfaceView[] {
  const out: WolInterfaceView[] = [];
  for (const [name, addrs] of Object.entries(os.networkInterfaces())) {
    const a = addrs?.find((x) => x.family === 'IPv4' && !x.internal);
    if (!a) continue;
    const mask = toInt(a.netmask);
    const prefix = a.cidr ? Number(a.cidr.split('/')[1]) : 32 - Math.log2((~mask >>> 0) + 1);
    const network = toInt(a.address) & mask;
    out.push({
      name,
      address: a.address,
      cidr: `${toIp(network)}/${prefix}`,
      broadcast: toIp((network | (~mask >>> 0)) >>> 0),
      mac: a.mac,
    });
  }
  return out;
}

export function ipv4Interface(name: string): WolInterfaceView | undefined {
  return ipv4Interfaces().find((i) => i.name === name);
}

/**
 * The hosts a scan of `i` probes: its own subnet without the network, broadcast and own
 * addresses; in a subnet larger than `max` hosts, the `max`-sized block around its own address
 * (still inside the subnet, never beyond it).
 */
export function scanHosts(i: WolInterfaceView, max: number): { range: string; hosts: string[] } {
  const [net, bits] = i.cidr.split('/');
  const prefix = Number(bits);
  const own = toInt(i.address);
  let start = toInt(net);
  let size = 2 ** (32 - prefix);
  if (size > max) {
    const blockBits = Math.log2(max);
    start = (own >>> blockBits) << blockBits;
    start >>>= 0;
    size = max;
  }
  const first = toInt(net);
  const last = toInt(i.broadcast);
  const hosts: string[] = [];
  for (let n = start; n < start + size; n++) {
    if (prefix < 31 && (n === first || n === last)) continue;
    if (n === own) continue;
    hosts.push(toIp(n >>> 0));
  }
  const blockPrefix = 32 - Math.log2(size);
  return { range: `${toIp(start)}/${blockPrefix}`, hosts };
}
