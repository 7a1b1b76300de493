// LAN devices' addresses from OpenWrt odhcpd's lease file (`option leasefile`, by default
// /tmp/hosts/odhcpd), chosen by MAC address or host name. Lease lines, as odhcpd writes them:
//   # <iface> <DUID hex> <IAID hex> <hostname|-> <valid-until unix|-1|0> <id hex> <len> <addr/len> …
//   # <iface> <MAC hex> ipv4 <hostname|-> <valid-until> <addr hex> 32 <addr/32>
// A DHCPv6 lease carries no MAC, but DUID-LLT/DUID-LL end with it; a device's DHCPv4 lease also
// ties its MAC to its host name, which then finds its DHCPv6 lease.
import { readFile } from 'node:fs/promises';
import { ddnsReason } from '@lucky/shared';
import { NO_MATCH, selectIp } from '../../../core/net/ipSelect.js';
import { formatIp, parseIp } from '../../../core/net/lan.js';
import { fail, type IpResult, type IpSourceEnv } from './types.js';

const MAX_FILE = 4 * 1024 * 1024;

export interface OdhcpdLease {
  family: 4 | 6;
  iface: string;
  /** Lower-case hex without separators ('' when the DUID holds none). */
  mac: string;
  hostname: string;
  /** Unix seconds; -1 = infinite, 0 = expired. */
  validUntil: number;
  addresses: string[];
}

const normMac = (m: string) => m.toLowerCase().replace(/[^0-9a-f]/g, '');

/** The MAC inside a DUID-LLT (type 1) or DUID-LL (type 3) of Ethernet (hardware type 1). */
export function macFromDuid(duid: string): string {
  const d = duid.toLowerCase();
  if (d.startsWith('00010001') && d.length === 28) return d.slice(16);
  if (d.startsWith('00030001') && d.length === 20) return d.slice(8);
  return '';
}

export function parseOdhcpdLeases(text: string): OdhcpdLease[] {
  const out: OdhcpdLease[] = [];
  for (const raw of text.split('\n')) {
    const f = raw.trim().split(/\s+/);
    if (f[0] !== '#' || f.length < 8) continue;
    const [, iface, id, kind, host, valid] = f;
    const v4 = kind === 'ipv4';
    const hostname = host === '-' ? '' : host.replace(/^broken\\x20/, '');
    const addresses = f
      .slice(8)
      .map((a) => a.split('/')[0])
      .map((a) => parseIp(a))
      .filter((p) => p !== null && p.family === (v4 ? 4 : 6))
      .map((p) => formatIp(p!));
    out.push({
      family: v4 ? 4 : 6,
      iface,
      mac: v4 ? normMac(id) : macFromDuid(id),
      hostname,
      validUntil: Number(valid),
      addresses,
    });
  }
  return out;
}

/** Global unicast first (2000::/3), then the rest: a DDNS record wants the public address. */
function rankV6(a: string): number {
  const p = parseIp(a);
  if (!p) return 9;
  const top = Number(p.value >> 125n);
  return top === 1 ? 0 : 1;
}

export function selectFromLeases(
  leases: OdhcpdLease[],
  sel: { macs: string[]; hostnames: string[]; rule: string; family: 4 | 6; nowSec: number },
): IpResult {
  const macs = new Set(sel.macs.map(normMac).filter(Boolean));
  const hosts = new Set(sel.hostnames.map((h) => h.trim().toLowerCase()).filter(Boolean));
  const live = leases.filter((l) => l.validUntil === -1 || l.validUntil > sel.nowSec);
  // Host names of the chosen MACs, learnt from any lease that carries both.
  for (const l of live) if (l.mac && macs.has(l.mac) && l.hostname) hosts.add(l.hostname.toLowerCase());
  const picked = live.filter(
    (l) => l.family === sel.family && ((l.mac && macs.has(l.mac)) || hosts.has(l.hostname.toLowerCase())),
  );
  let addrs = [...new Set(picked.flatMap((l) => l.addresses))];
  if (sel.family === 6) addrs = addrs.sort((a, b) => rankV6(a) - rankV6(b));
  if (addrs.length === 0) return fail('odhcpdNoLease', { family: sel.family });
  const r = selectIp(addrs, sel.rule);
  if ('ip' in r) return { ok: true, ip: r.ip, from: 'odhcpd' };
  return r.error === NO_MATCH
    ? fail('ipSelectNoMatch')
    : fail('ipSelectNoMatch', { cause: ddnsReason('ipRuleInvalid', { rule: sel.rule, detail: r.error }) });
}

export async function ipFromOdhcpd(
  s: { odhcpdFile: string; odhcpdMacs: string[]; odhcpdHostnames: string[]; ipReg: string },
  family: 4 | 6,
  env: IpSourceEnv,
): Promise<IpResult> {
  let text: string;
  try {
    const buf = await readFile(s.odhcpdFile);
    text = buf.subarray(0, MAX_FILE).toString('utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return fail('odhcpdReadError', { file: s.odhcpdFile, detail: e.code ?? e.message });
  }
  return selectFromLeases(parseOdhcpdLeases(text), {
    macs: s.odhcpdMacs,
    hostnames: s.odhcpdHostnames,
    rule: s.ipReg,
    family,
    nowSec: Math.floor((env.now?.() ?? Date.now()) / 1000),
  });
}
