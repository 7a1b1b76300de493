// IP address parsing, CIDR matching and the "is this client on the LAN" rule used by the admin
// access gate and the trusted-proxy check. Pure functions; IPv6 values are BigInt.

export type IpFamily = 4 | 6;

export interface ParsedIp {
  family: IpFamily;
  /** The address as an unsigned integer (32 bits for IPv4, 128 for IPv6). */
  value: bigint;
}

export interface ParsedCidr {
  family: IpFamily;
  /** Network address with the host bits cleared. */
  network: bigint;
  prefix: number;
}

const V4_MAPPED_PREFIX = 0xffffn; // ::ffff:0:0/96

function parseIpv4(s: string): bigint | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    // Decimal only, no leading zeros (0177.0.0.1 is octal to some parsers: refuse it).
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseIpv6(input: string): bigint | null {
  let s = input;
  const zone = s.indexOf('%');
  if (zone >= 0) {
    if (zone === s.length - 1) return null;
    s = s.slice(0, zone);
  }
  if (!s.includes(':')) return null;
  let tailGroups: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIpv4(tail);
    if (v4 === null) return null;
    tailGroups = [Number(v4 >> 16n), Number(v4 & 0xffffn)];
    s = s.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::"; "1::1.2.3.4" leaves "1::"; "1:2:3:4:5:6:1.2.3.4" leaves "…6:".
    if (s.endsWith(':') && !s.endsWith('::')) s = s.slice(0, -1);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string): number[] | null => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if (left === null || right === null) return null;
  let all: number[];
  if (halves.length === 2) {
    const missing = 8 - left.length - right.length - tailGroups.length;
    if (missing < 1) return null;
    all = [...left, ...new Array<number>(missing).fill(0), ...right, ...tailGroups];
  } else {
    all = [...left, ...tailGroups];
    if (all.length !== 8) return null;
  }
  let v = 0n;
  for (const g of all) v = (v << 16n) | BigInt(g);
  return v;
}

/** Parses a literal IPv4 or IPv6 address (an IPv6 zone such as `%eth0` is accepted and ignored). */
export function parseIp(ip: string): ParsedIp | null {
  if (typeof ip !== 'string') return null;
  const s = ip.trim();
  if (s.includes(':')) {
    const v = parseIpv6(s);
    return v === null ? null : { family: 6, value: v };
  }
  const v = parseIpv4(s);
  return v === null ? null : { family: 4, value: v };
}

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) becomes the IPv4 address; everything else is unchanged. */
export function unmapIp(p: ParsedIp): ParsedIp {
  if (p.family === 6 && p.value >> 32n === V4_MAPPED_PREFIX) {
    return { family: 4, value: p.value & 0xffffffffn };
  }
  return p;
}

/** Canonical text: dotted quad, or RFC 5952 IPv6 (lower case, longest zero run as `::`). */
export function formatIp(p: ParsedIp): string {
  if (p.family === 4) {
    const v = p.value;
    return [24n, 16n, 8n, 0n].map((s) => String(Number((v >> s) & 0xffn))).join('.');
  }
  const g: number[] = [];
  for (let i = 7; i >= 0; i--) g.push(Number((p.value >> BigInt(i * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (a: number[]) => a.map((x) => x.toString(16)).join(':');
  if (bestLen < 2) return hex(g);
  return `${hex(g.slice(0, bestStart))}::${hex(g.slice(bestStart + bestLen))}`;
}

/** An address literal in its canonical text (see `formatIp`); anything else unchanged. */
export function canonicalIp(ip: string): string {
  const p = parseIp(ip);
  return p ? formatIp(p) : ip;
}

function bitsOf(family: IpFamily): number {
  return family === 4 ? 32 : 128;
}

function maskOf(family: IpFamily, prefix: number): bigint {
  const bits = bitsOf(family);
  if (prefix === 0) return 0n;
  return ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
}

/**
 * Parses `addr/prefix` (IPv4 or IPv6). A bare address means a single host (/32 or /128).
 * Host bits are cleared (`192.168.1.5/24` → 192.168.1.0/24). An IPv4-mapped IPv6 network with a
 * prefix of 96 or more (`::ffff:10.0.0.0/104`) becomes the IPv4 network (10.0.0.0/8), so it
 * matches both spellings of the client address. Invalid input → null.
 */
export function parseCidr(cidr: string): ParsedCidr | null {
  if (typeof cidr !== 'string') return null;
  const s = cidr.trim();
  const slash = s.indexOf('/');
  const ip = parseIp(slash < 0 ? s : s.slice(0, slash));
  if (!ip) return null;
  let prefix = bitsOf(ip.family);
  if (slash >= 0) {
    const bits = s.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(bits)) return null;
    prefix = Number(bits);
    if (prefix > bitsOf(ip.family)) return null;
  }
  let family = ip.family;
  let value = ip.value;
  if (family === 6 && prefix >= 96 && value >> 32n === V4_MAPPED_PREFIX) {
    family = 4;
    value &= 0xffffffffn;
    prefix -= 96;
  }
  return { family, network: value & maskOf(family, prefix), prefix };
}

function contains(net: ParsedCidr, ip: ParsedIp): boolean {
  return net.family === ip.family && (ip.value & maskOf(net.family, net.prefix)) === net.network;
}

/**
 * True when `ip` lies in `cidr`. IPv4-mapped IPv6 client addresses are compared as IPv4.
 * Note `::/0` covers native IPv6 only; use `0.0.0.0/0` for IPv4 (mapped or not).
 */
export function cidrContains(cidr: string, ip: string): boolean {
  const net = parseCidr(cidr);
  const addr = parseIp(ip);
  if (!net || !addr) return false;
  return contains(net, unmapIp(addr));
}

/**
 * Compiles a list of IPs / CIDRs (e.g. trusted proxies) into a matcher. Blank and invalid
 * entries are ignored (validate them when the setting is saved).
 */
export function createIpMatcher(list: readonly string[]): (ip: string) => boolean {
  const nets: ParsedCidr[] = [];
  for (const entry of list) {
    const n = typeof entry === 'string' && entry.trim() !== '' ? parseCidr(entry) : null;
    if (n) nets.push(n);
  }
  return (ip: string) => {
    if (nets.length === 0) return false;
    const addr = parseIp(ip);
    if (!addr) return false;
    const a = unmapIp(addr);
    return nets.some((n) => contains(n, a));
  };
}

/** True when `ip` equals one of the listed IPs or lies in one of the listed CIDRs. */
export function ipInList(ip: string, list: readonly string[]): boolean {
  return createIpMatcher(list)(ip);
}

function builtIn(cidr: string): ParsedCidr {
  const n = parseCidr(cidr);
  if (!n) throw new Error(`bad built-in network ${cidr}`);
  return n;
}

const LAN_NETS: ParsedCidr[] = [
  '127.0.0.0/8', // loopback
  '10.0.0.0/8', // RFC 1918
  '172.16.0.0/12', // RFC 1918
  '192.168.0.0/16', // RFC 1918
  '169.254.0.0/16', // IPv4 link-local
  '::1/128', // IPv6 loopback
  'fe80::/10', // IPv6 link-local
  'fc00::/7', // IPv6 unique local (ULA)
].map(builtIn);

/**
 * Carrier-grade NAT (RFC 6598): on the ISP's side of the router, so other subscribers share it.
 * LAN only by the admin's choice (overlay networks such as Tailscale number their peers here).
 */
const CGNAT_NET = builtIn('100.64.0.0/10');

/** The `cgnatIsLan` setting, set by the core whenever the config changes; off until then. */
let cgnatIsLanSetting = false;

/** Makes 100.64.0.0/10 count as LAN (or not) for every later `isLanAddress` call in this process. */
export function setCgnatIsLan(on: boolean): void {
  cgnatIsLanSetting = on;
}

export interface LanOptions {
  /** Count 100.64.0.0/10 as LAN; default: the `cgnatIsLan` setting (`setCgnatIsLan`). */
  cgnat?: boolean;
}

/**
 * The admin "LAN" rule: loopback, RFC 1918, link-local (169.254/16, fe80::/10) and IPv6 ULA
 * fc00::/7, including IPv4-mapped IPv6 forms of the IPv4 ranges; CGNAT 100.64/10 only when the
 * `cgnatIsLan` setting (or `opts.cgnat`) says so. Anything unparsable is not LAN.
 */
export function isLanAddress(ip: string, opts?: LanOptions): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  const a = unmapIp(addr);
  if (LAN_NETS.some((n) => contains(n, a))) return true;
  return (opts?.cgnat ?? cgnatIsLanSetting) && contains(CGNAT_NET, a);
}

/** Loopback (127/8, ::1, mapped forms included). */
export function isLoopbackAddress(ip: string): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  const a = unmapIp(addr);
  return contains(LAN_NETS[0], a) || contains(LAN_NETS[5], a);
}
