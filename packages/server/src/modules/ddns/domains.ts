// Domain lines of a task: `name.example.com`, `sub:example.com` (explicit split, `@` or empty
// sub = the apex) and `…?key=value&…` provider options. Without an explicit split the root is
// the last two labels, or three when the last two are a multi-level suffix (built-in list plus
// the user's, longest match wins).
import { isDomainLine } from '@lucky/shared';
import { splitRoot, toAscii } from '../../core/dns/names.js';

export { splitRoot, suffixSet } from '../../core/dns/names.js';

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
