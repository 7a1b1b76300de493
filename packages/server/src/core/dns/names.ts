// Names as providers address them: ASCII (IDNA), lower case, split into the registered domain
// (the last two labels, or three when the last two are a multi-level suffix such as com.cn —
// built-in list plus the user's, longest match wins) and the part below it.
import { domainToASCII } from 'node:url';
import { DDNS_BUILTIN_SUFFIXES } from '@lucky/shared';
import type { DnsName } from './types.js';

/** ASCII form of a name ('' when a label is not valid); the wildcard label `*` is kept. */
export function toAscii(name: string): string {
  // domainToASCII refuses "*", so the wildcard label is kept apart.
  const labels = name.toLowerCase().replace(/\.$/, '').split('.');
  const out = labels.map((l) => (l === '*' ? '*' : domainToASCII(l) || ''));
  return out.some((l) => l === '') ? '' : out.join('.');
}

/** A suffix set with the built-in list and the user's extra suffixes. */
export function suffixSet(extra: readonly string[] = []): Set<string> {
  const s = new Set(DDNS_BUILTIN_SUFFIXES);
  for (const x of extra) {
    const a = toAscii(x.trim().replace(/^\.+/, ''));
    if (a) s.add(a);
  }
  return s;
}

/** Root of a full name: the longest known suffix plus one label, else the last two labels. */
export function splitRoot(fqdn: string, suffixes: Set<string>): { sub: string; root: string } {
  const labels = fqdn.split('.');
  let rootLabels = 2;
  for (let n = labels.length - 1; n >= 2; n--) {
    if (suffixes.has(labels.slice(-n).join('.'))) {
      rootLabels = n + 1;
      break;
    }
  }
  if (labels.length <= rootLabels) return { sub: '', root: fqdn };
  return { sub: labels.slice(0, -rootLabels).join('.'), root: labels.slice(-rootLabels).join('.') };
}

/** The DnsName of a full name; undefined when it is not a valid name. */
export function dnsName(fqdn: string, suffixes: Set<string>): DnsName | undefined {
  const ascii = toAscii(fqdn.trim());
  if (!ascii) return undefined;
  return { fqdn: ascii, ...splitRoot(ascii, suffixes) };
}
