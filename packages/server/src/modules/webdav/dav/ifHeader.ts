// The WebDAV `If` header (RFC 4918 §10.4): lists of conditions, each a lock token (`<urn:…>`)
// or an entity tag (`[…]`), either of them negated by `Not`; lists apply to the request URI
// (no-tag form) or to the resource named before them (tagged form).
import { DavError } from './errors.js';

export interface IfCondition {
  not: boolean;
  kind: 'token' | 'etag';
  /** The token URI without `<>`, or the entity tag as written (quotes, `W/`). */
  value: string;
}

export interface IfList {
  /** The resource tag (a URL, without `<>`); undefined: the request URI. */
  tag?: string;
  conditions: IfCondition[];
}

/** More lists than any client sends (each tagged one may cost a stat): refused. */
const MAX_LISTS = 64;

/** Parse an If header; anything that does not follow the grammar is a 400. */
export function parseIf(header: string): IfList[] {
  const lists: IfList[] = [];
  let i = 0;
  let tag: string | undefined;
  let tagged = false;
  const bad = () => new DavError(400);
  const skip = () => {
    while (i < header.length && (header[i] === ' ' || header[i] === '\t')) i++;
  };
  const until = (close: string): string => {
    const end = header.indexOf(close, i + 1);
    if (end < 0) throw bad();
    const v = header.slice(i + 1, end);
    i = end + 1;
    return v;
  };
  for (;;) {
    skip();
    if (i >= header.length) break;
    const c = header[i];
    if (c === '<') {
      tag = until('>');
      if (!tag) throw bad();
      tagged = true;
      skip();
      if (header[i] !== '(') throw bad(); // a tag needs at least one list
      continue;
    }
    if (c !== '(') throw bad();
    if (tagged && tag === undefined) throw bad();
    i++;
    const conditions: IfCondition[] = [];
    for (;;) {
      skip();
      if (i >= header.length) throw bad();
      if (header[i] === ')') {
        i++;
        break;
      }
      let not = false;
      if (header.slice(i, i + 3).toLowerCase() === 'not') {
        not = true;
        i += 3;
        skip();
      }
      if (header[i] === '<') {
        const value = until('>');
        if (!value) throw bad();
        conditions.push({ not, kind: 'token', value });
      } else if (header[i] === '[') {
        const value = until(']');
        if (!/^(W\/)?"[^"]*"$/.test(value)) throw bad();
        conditions.push({ not, kind: 'etag', value });
      } else throw bad();
    }
    if (conditions.length === 0) throw bad();
    lists.push({ tag: tagged ? tag : undefined, conditions });
    if (lists.length > MAX_LISTS) throw bad();
  }
  if (lists.length === 0) throw bad();
  return lists;
}

/** Every lock token the header names (RFC 4918 §10.4.1: naming one submits it). */
export function tokensOf(lists: readonly IfList[]): Set<string> {
  const out = new Set<string>();
  for (const l of lists) for (const c of l.conditions) if (c.kind === 'token' && !c.not) out.add(c.value);
  return out;
}

/** Entity tags compared the weak way (a `W/` prefix ignored), as If lists do for `[etag]`. */
export function sameEtag(a: string, b: string): boolean {
  return a.replace(/^W\//, '') === b.replace(/^W\//, '');
}
