// Domain lines of a task: `name.example.com`, `sub:example.com` (explicit split, `@` or empty
// sub = the apex) and `…?key=value&…` provider options. Without an explicit split the root is
// the last two labels, or three when the last two are a multi-level suffix (built-in list plus
// the user's, longest match wins).
import { domainToASCII } from 'node:url';
import { DDNS_BUILTIN_SUFFIXES, isDomainLine } from '@lucky/shared';

export interface ParsedDomain {
  line: string;
  /** Full name in ASCII (IDNA), lower case, no trailing dot. */
  fqdn: string;
  /** '' = the apex. */
  sub: string;
  root: string;
  params: Record<string, string>;
}

export type DomainParse = { ok: true; domain: ParsedDomain } | { ok: false; line: string; error: string };

function toAscii(name: string): string {
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

export function parseDomainLine(raw: string, suffixes: Set<string>): DomainParse {
  const line = raw.trim();
  if (!isDomainLine(line)) return { ok: false, line, error: `"${line}" is not a domain name` };
  const q = line.indexOf('?');
  const host = (q >= 0 ? line.slice(0, q) : line).trim();
  const params: Record<string, string> = {};
  if (q >= 0) for (const [k, v] of new URLSearchParams(line.slice(q + 1))) if (k) params[k] = v;
  const colon = host.indexOf(':');
  let sub: string;
  let root: string;
  if (colon >= 0) {
    const s = host.slice(0, colon).trim();
    sub = s === '@' ? '' : toAscii(s);
    root = toAscii(host.slice(colon + 1).trim());
    if ((s !== '' && s !== '@' && sub === '') || root === '')
      return { ok: false, line, error: `"${line}" is not valid` };
  } else {
    const fqdn = toAscii(host);
    if (!fqdn) return { ok: false, line, error: `"${line}" is not a valid domain name` };
    ({ sub, root } = splitRoot(fqdn, suffixes));
  }
  const fqdn = sub ? `${sub}.${root}` : root;
  return { ok: true, domain: { line, fqdn, sub, root, params } };
}

/** Parses the non-empty lines; duplicates (same full name) are kept once. */
export function parseDomains(lines: readonly string[], suffixes: Set<string>): DomainParse[] {
  const seen = new Set<string>();
  const out: DomainParse[] = [];
  for (const l of lines) {
    if (l.trim() === '') continue;
    const p = parseDomainLine(l, suffixes);
    const id = p.ok ? `${p.domain.fqdn}?${JSON.stringify(p.domain.params)}` : p.line;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(p);
  }
  return out;
}
