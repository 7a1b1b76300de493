/**
 * One canonical form of a request path, so that what routing, filters, basic auth and the file
 * server decide on is what the back end or the disk gets (issue 12 §2). The rule:
 *
 * - percent-escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) are decoded, every other
 *   escape is kept with upper-case hex (`%c3%a9` → `%C3%A9`);
 * - repeated slashes are merged, `.` and `..` segments resolved (RFC 3986 §5.2.4);
 * - what stays ambiguous after that is refused (the caller answers 400): an escaped `/` or `\`,
 *   a raw `\`, NUL (raw or `%00`), a malformed escape, an overlong UTF-8 escape (`%c0%ae`, which
 *   lax decoders read as `.`), a `..` that would climb above the root, a dot segment carrying
 *   `;` parameters (`..;x`, which Java back ends read as `..`), a control or non-ASCII byte.
 *
 * The common path (no `%`, `\`, `;`, no `//`, no segment starting with `.`) is only scanned and
 * comes back as the same string: no allocation on the hot path.
 */

/** Why a path was refused: the caller answers 400 with this text. */
export class PathRefusal {
  constructor(readonly reason: string) {}
}

const refused = {
  escape: new PathRefusal('request path: malformed percent-escape'),
  slash: new PathRefusal('request path: encoded "/" or "\\" is not allowed'),
  backslash: new PathRefusal('request path: "\\" is not allowed'),
  nul: new PathRefusal('request path: NUL is not allowed'),
  overlong: new PathRefusal('request path: overlong UTF-8 escape'),
  above: new PathRefusal('request path: ".." above the root'),
  dotParams: new PathRefusal('request path: dot segments together with ";" parameters'),
  byte: new PathRefusal('request path: control, non-ASCII or "#" byte'),
  form: new PathRefusal('request target: must be a path starting with "/"'),
  host: new PathRefusal('request target: its host differs from the Host header'),
} as const;

export const PATH_REFUSALS = refused;

const HEX = '0123456789ABCDEF';

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

function unreserved(b: number): boolean {
  const l = b | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2e || b === 0x5f || b === 0x7e;
}

/**
 * Does `path` need the slow path? One pass of charCodeAt, no allocation: true on `%`, `\`, `;`,
 * `#`, a byte outside visible ASCII, `//`, or a segment starting with `.` (a possible dot segment).
 */
function needsWork(path: string): boolean {
  const len = path.length;
  if (len === 0 || path.charCodeAt(0) !== 0x2f) return true;
  let prev = 0x2f;
  for (let i = 1; i < len; i++) {
    const c = path.charCodeAt(i);
    if (prev === 0x2f && (c === 0x2f || c === 0x2e)) return true;
    if (c === 0x25 || c === 0x5c || c === 0x3b || c === 0x23 || c < 0x21 || c > 0x7e) return true;
    prev = c;
  }
  return false;
}

/**
 * The canonical form of `path` (the request target without its query), or why it is refused.
 * `path` must be in origin form (start with `/`); see `splitTarget` for the other forms.
 */
export function canonicalPath(path: string): string | PathRefusal {
  if (!needsWork(path)) return path;
  if (path.charCodeAt(0) !== 0x2f) return refused.form;
  // 1. Decode unreserved escapes, normalise the rest; refuse what stays ambiguous.
  let out = '';
  let from = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x25) {
      const hi = hexValue(path.charCodeAt(i + 1));
      const lo = hexValue(path.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) return refused.escape;
      const b = hi * 16 + lo;
      if (b === 0x2f || b === 0x5c) return refused.slash;
      if (b === 0) return refused.nul;
      if (b === 0xc0 || b === 0xc1) return refused.overlong;
      // E0 80–9F and F0 80–8F are overlong three- and four-byte forms.
      if ((b === 0xe0 || b === 0xf0) && path.charCodeAt(i + 3) === 0x25) {
        const h2 = hexValue(path.charCodeAt(i + 4));
        const l2 = hexValue(path.charCodeAt(i + 5));
        const next = h2 * 16 + l2;
        if (h2 >= 0 && l2 >= 0 && next >= 0x80 && next < (b === 0xe0 ? 0xa0 : 0x90)) return refused.overlong;
      }
      out += path.slice(from, i);
      out += unreserved(b) ? String.fromCharCode(b) : `%${HEX[hi]}${HEX[lo]}`;
      i += 2;
      from = i + 1;
    } else if (c === 0x5c) return refused.backslash;
    else if (c === 0) return refused.nul;
    else if (c < 0x21 || c > 0x7e || c === 0x23) return refused.byte;
  }
  out += path.slice(from);
  // 2. Merge slashes and resolve dot segments.
  const parts = out.split('/');
  const kept: string[] = [];
  // A path ending in `/`, `/.` or `/..` keeps its trailing slash (a directory stays a directory).
  let trailing = false;
  let dots = false;
  for (let i = 1; i < parts.length; i++) {
    const seg = parts[i];
    const last = i === parts.length - 1;
    if (seg === '' || seg === '.') {
      if (last) trailing = true;
      dots ||= seg === '.';
      continue;
    }
    if (seg === '..') {
      if (kept.length === 0) return refused.above;
      kept.pop();
      if (last) trailing = true;
      dots = true;
      continue;
    }
    // `..;x` is `..` to a back end that cuts parameters.
    if (seg.charCodeAt(0) === 0x2e && (seg.startsWith('.;') || seg.startsWith('..;'))) return refused.dotParams;
    kept.push(seg);
  }
  // Java back ends cut `;` parameters before resolving dots (`/x/;y/../admin` is `/admin` to
  // them, `/x/admin` to us): with both present no single reading is safe.
  if (dots && out.includes(';')) return refused.dotParams;
  if (kept.length === 0) return '/';
  return `/${kept.join('/')}${trailing ? '/' : ''}`;
}

/**
 * The path filters and routing compare: the canonical path with `;` parameters cut from each
 * segment (`/admin;jsessionid=1/x` → `/admin/x`), since Java back ends (Tomcat, Jetty, Spring)
 * drop them before they route. The path forwarded or served keeps them. Same string when there is no `;`.
 */
export function decisionPath(canonical: string): string {
  if (canonical.indexOf(';') < 0) return canonical;
  // Segments left empty (`/;x/admin`) merge away, as the back end merges the `//` they leave.
  const parts = canonical.split('/');
  const kept: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const semi = parts[i].indexOf(';');
    const seg = semi < 0 ? parts[i] : parts[i].slice(0, semi);
    if (seg !== '') kept.push(seg);
  }
  const trailing = canonical.endsWith('/') || /\/;[^/]*$/.test(canonical);
  return kept.length === 0 ? '/' : `/${kept.join('/')}${trailing ? '/' : ''}`;
}

/** A request target split into its path and query (`?…`, kept exactly as sent, or ''). */
export interface Target {
  path: string;
  query: string;
}

/**
 * The origin-form path and query of a request target. Absolute form (`http://host/p?q`, RFC 9112
 * §3.2.2) is accepted when its host is the Host header's (else refused: two hosts are ambiguous);
 * asterisk form (`*`) and anything else not starting with `/` are refused.
 * `hostname` is the Host header's host as `hostOf` makes it (lower case, no port).
 */
export function splitTarget(url: string, hostname: string): Target | PathRefusal {
  let path = url;
  if (url.charCodeAt(0) !== 0x2f) {
    const m = /^https?:\/\/([^/?#]*)/i.exec(url);
    if (!m) return refused.form;
    if (authorityHost(m[1]) !== hostname) return refused.host;
    path = url.slice(m[0].length);
    if (path === '' || path.charCodeAt(0) === 0x3f) path = `/${path}`;
  }
  const q = path.indexOf('?');
  return q < 0 ? { path, query: '' } : { path: path.slice(0, q), query: path.slice(q) };
}

/** The host of an authority (`user@host:port`), lower case, brackets and port removed. */
function authorityHost(authority: string): string {
  if (authority.includes('@')) return '\0';
  let h = authority.toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  if (h.indexOf(':') === h.lastIndexOf(':')) h = h.replace(/:\d*$/, '');
  return h.replace(/\.$/, '');
}

/**
 * A Host header value a redirect may carry: a reg-name, IPv4 or bracketed IPv6, optional port.
 * `/`, `\`, `@`, `?`, `#`, spaces and controls would let a `https://{host}…` target point elsewhere.
 */
export function hostHeaderOk(host: string): boolean {
  return /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]*)(:\d*)?$/.test(host);
}

/**
 * A Location value that cannot leave the site when it is a path: a leading `//` or `/\` (read by
 * browsers as another host) collapses to one `/`. Absolute URLs (the admin's own targets) pass as they are.
 */
export function sameSiteLocation(location: string): string {
  if (location.charCodeAt(0) !== 0x2f) return location;
  let i = 0;
  while (i < location.length && (location.charCodeAt(i) === 0x2f || location.charCodeAt(i) === 0x5c)) i++;
  return i > 1 ? `/${location.slice(i)}` : location;
}
