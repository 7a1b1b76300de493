// Network interfaces for /api/netinterfaces (ancestor shape) and IPv6 address flags from
// /proc/net/if_inet6 (node:os does not expose temporary / deprecated / tentative).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { formatIp, parseIp } from './lan.js';

export interface NetIf {
  NetInterfaceName: string;
  /** MAC address; always empty in the IPv6 list (as the ancestor). */
  HardwareAddr: string;
  AddressList: string[];
}

export interface NetInterfaces {
  IPv4NewInterfaces: NetIf[];
  IPv6NewInterfaces: NetIf[];
}

export type InterfaceSource = () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;

export interface ListNetInterfacesOptions {
  /** Include link-local addresses (fe80::/10 and 169.254/16). Default false. */
  includeLinkLocal?: boolean;
  /** Include loopback interfaces/addresses (127/8, ::1). Default false. */
  includeLoopback?: boolean;
  /** Skip interfaces that are administratively down (IFF_UP clear in /sys/class/net). Default true. */
  upOnly?: boolean;
  /** Test hook: replaces os.networkInterfaces(). */
  source?: InterfaceSource;
  /** Test hook: replaces the /sys/class/net/<name>/flags check. */
  isUp?: (name: string) => boolean;
}

const ZERO_MAC = '00:00:00:00:00:00';

/** IFF_UP from /sys/class/net/<name>/flags; unknown (non-Linux, unreadable) counts as up. */
export function interfaceIsUp(name: string, sysRoot = '/sys'): boolean {
  if (!/^[^/\0]+$/.test(name) || name === '.' || name === '..') return true;
  try {
    const flags = Number.parseInt(readFileSync(`${sysRoot}/class/net/${name}/flags`, 'utf8').trim(), 16);
    return Number.isNaN(flags) ? true : (flags & 0x1) !== 0;
  } catch {
    return true;
  }
}

function keepAddress(address: string, family: 4 | 6, internal: boolean, o: ListNetInterfacesOptions): boolean {
  const p = parseIp(address);
  if (!p || p.family !== family) return false;
  if (p.value === 0n) return false; // unspecified
  const loopback = internal || (family === 4 ? p.value >> 24n === 127n : p.value === 1n);
  if (loopback && !o.includeLoopback) return false;
  const linkLocal = family === 4 ? p.value >> 16n === 0xa9fen : p.value >> 118n === 0x3fan;
  if (linkLocal && !o.includeLinkLocal) return false;
  const multicast = family === 4 ? p.value >> 28n === 0xen : p.value >> 120n === 0xffn;
  return !multicast;
}

/**
 * Interfaces with their addresses per family, for the DDNS "network interface" source and the
 * IP-selection test. An interface appears in a family's list only when it has at least one
 * address of that family left after filtering. Addresses keep the OS order (the IP-selection
 * rule indexes into it).
 */
export function listNetInterfaces(options: ListNetInterfacesOptions = {}): NetInterfaces {
  const o = { upOnly: true, ...options };
  const all = (o.source ?? os.networkInterfaces)();
  const isUp = o.isUp ?? ((n: string) => interfaceIsUp(n));
  const v4: NetIf[] = [];
  const v6: NetIf[] = [];
  for (const [name, infos] of Object.entries(all)) {
    if (!infos || infos.length === 0) continue;
    if (o.upOnly && !isUp(name)) continue;
    const mac = infos.find((i) => i.mac && i.mac !== ZERO_MAC)?.mac ?? '';
    const a4: string[] = [];
    const a6: string[] = [];
    for (const info of infos) {
      // Node 18.0–18.3 reported family as a number.
      const fam = String(info.family) === '4' || info.family === 'IPv4' ? 4 : 6;
      if (!keepAddress(info.address, fam, info.internal, o)) continue;
      const list = fam === 4 ? a4 : a6;
      if (!list.includes(info.address)) list.push(info.address);
    }
    if (a4.length > 0) v4.push({ NetInterfaceName: name, HardwareAddr: mac, AddressList: a4 });
    if (a6.length > 0) v6.push({ NetInterfaceName: name, HardwareAddr: '', AddressList: a6 });
  }
  return { IPv4NewInterfaces: v4, IPv6NewInterfaces: v6 };
}

export type Ipv6Scope = 'global' | 'host' | 'link' | 'site' | 'compat' | 'unknown';

export interface Ipv6AddressFlags {
  /** Canonical (RFC 5952) address. */
  address: string;
  ifname: string;
  ifindex: number;
  prefixLength: number;
  scope: Ipv6Scope;
  /** Raw flag byte (IFA_F_*, low 8 bits as the kernel prints them). */
  flags: number;
  /** Privacy extension address (IFA_F_TEMPORARY). */
  temporary: boolean;
  /** Preferred lifetime expired (IFA_F_DEPRECATED). */
  deprecated: boolean;
  /** Duplicate address detection still running (IFA_F_TENTATIVE). */
  tentative: boolean;
  /** Duplicate address detection failed (IFA_F_DADFAILED). */
  dadFailed: boolean;
  /** Static address (IFA_F_PERMANENT); false for SLAAC/DHCPv6 ones. */
  permanent: boolean;
}

const IFA_F_TEMPORARY = 0x01;
const IFA_F_DADFAILED = 0x08;
const IFA_F_DEPRECATED = 0x20;
const IFA_F_TENTATIVE = 0x40;
const IFA_F_PERMANENT = 0x80;

function scopeName(scope: number): Ipv6Scope {
  switch (scope) {
    case 0x00:
      return 'global';
    case 0x10:
      return 'host';
    case 0x20:
      return 'link';
    case 0x40:
      return 'site';
    case 0x80:
      return 'compat';
    default:
      return 'unknown';
  }
}

/**
 * Parses /proc/net/if_inet6: `<32 hex address> <ifindex> <prefixlen> <scope> <flags> <ifname>`,
 * all numbers in hex. Malformed lines are skipped.
 */
export function parseIfInet6(text: string): Ipv6AddressFlags[] {
  const out: Ipv6AddressFlags[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 6 || !/^[0-9a-fA-F]{32}$/.test(f[0])) continue;
    const nums = f.slice(1, 5).map((x) => Number.parseInt(x, 16));
    if (nums.some((n) => Number.isNaN(n))) continue;
    const [ifindex, prefixLength, scope, flags] = nums;
    out.push({
      address: formatIp({ family: 6, value: BigInt(`0x${f[0]}`) }),
      ifname: f[5],
      ifindex,
      prefixLength,
      scope: scopeName(scope),
      flags,
      temporary: (flags & IFA_F_TEMPORARY) !== 0,
      deprecated: (flags & IFA_F_DEPRECATED) !== 0,
      tentative: (flags & IFA_F_TENTATIVE) !== 0,
      dadFailed: (flags & IFA_F_DADFAILED) !== 0,
      permanent: (flags & IFA_F_PERMANENT) !== 0,
    });
  }
  return out;
}

/** IPv6 addresses with their kernel flags; [] where /proc/net/if_inet6 is absent (non-Linux, no IPv6). */
export async function ipv6Flags(path = '/proc/net/if_inet6'): Promise<Ipv6AddressFlags[]> {
  try {
    return parseIfInet6(await readFile(path, 'utf8'));
  } catch {
    return [];
  }
}
