// The DDNS "IP selection rule" (ipreg) and /api/ipregtest.
import { type ListNetInterfacesOptions, listNetInterfaces, type NetInterfaces } from './interfaces.js';

export type IpSelectResult = { ip: string } | { error: string };

/** Message from the spec's error catalogue. */
export const NO_MATCH = 'IP selection does not match any IP';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A pattern where only `*` is special (any run of characters) and the whole address must match. */
export function wildcardToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 'i');
}

/**
 * Picks one address by rule:
 * - empty → the first address;
 * - integer n ≥ 1 → the n-th (1-based); −n → the n-th from the end; 0 or out of range → no match;
 * - contains `*` → wildcard over the whole address (case-insensitive, everything else literal);
 * - anything else → a JavaScript regular expression, first address it matches (anywhere).
 */
export function selectIp(addresses: readonly string[], rule: string): IpSelectResult {
  const r = (rule ?? '').trim();
  if (r === '') {
    return addresses.length > 0 ? { ip: addresses[0] } : { error: NO_MATCH };
  }
  if (/^[+-]?\d+$/.test(r)) {
    const n = Number(r);
    const idx = n > 0 ? n - 1 : n < 0 ? addresses.length + n : -1;
    return idx >= 0 && idx < addresses.length ? { ip: addresses[idx] } : { error: NO_MATCH };
  }
  let re: RegExp;
  if (r.includes('*')) {
    re = wildcardToRegExp(r);
  } else {
    try {
      re = new RegExp(r);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return { error: `invalid regular expression "${r}": ${why}` };
    }
  }
  const hit = addresses.find((a) => re.test(a));
  return hit === undefined ? { error: NO_MATCH } : { ip: hit };
}

export interface IpregTestOptions extends ListNetInterfacesOptions {
  /** Test hook: the interface table to search instead of listing the machine's. */
  interfaces?: NetInterfaces;
}

/** /api/ipregtest: the address `ipreg` selects among the addresses of `netinterface`. */
export function ipregTest(
  iptype: 'IPv4' | 'IPv6',
  netinterface: string,
  ipreg: string,
  options: IpregTestOptions = {},
): IpSelectResult {
  if (iptype !== 'IPv4' && iptype !== 'IPv6') {
    return { error: `iptype must be IPv4 or IPv6, got "${String(iptype)}"` };
  }
  const name = (netinterface ?? '').trim();
  if (name === '') return { error: 'choose a network interface' };
  const table = options.interfaces ?? listNetInterfaces(options);
  const list = iptype === 'IPv4' ? table.IPv4NewInterfaces : table.IPv6NewInterfaces;
  const iface = list.find((i) => i.NetInterfaceName === name);
  if (!iface) {
    return { error: `network interface "${name}" not found or has no usable ${iptype} address` };
  }
  return selectIp(iface.AddressList, ipreg);
}
