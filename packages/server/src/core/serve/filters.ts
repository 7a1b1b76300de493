// Who may use a site and how its answers are marked, on the settings a server keeps per site (the
// web service's sub rules, ReverseproxyService, have these fields; so can a WebDAV share's).
import { timingSafeEqual } from 'node:crypto';
import { normalizeIp, resolveClientIp } from '../http/clientIp.js';
import { createIpMatcher } from '../net/lan.js';
import { prefixForm, underPrefix } from './pathPrefix.js';

export type FilterMode = 'off' | 'whitelist' | 'blacklist';

/** Which client address the filters and logs see. */
export interface ClientIpSettings {
  clientIp: {
    /** Believe forwarded headers when the peer is one of `trustedProxies`. */
    fromHeaders: boolean;
    trustedProxies: readonly string[];
  };
}

/** Who may use a site: the client address, IP and UA lists, basic auth. */
export interface AccessSettings extends ClientIpSettings {
  ipFilter: { mode: FilterMode; list: readonly string[] };
  uaFilter: { mode: FilterMode; list: readonly string[] };
  basicAuth: {
    enabled: boolean;
    user: string;
    password: string;
    /** Path prefixes it covers; empty = the whole site. */
    paths: readonly string[];
  };
}

export interface CorsSettings {
  cors: { enabled: boolean; origins: readonly string[]; methods: readonly string[] };
}

export interface CacheSettings {
  cache: { mode: 'default' | 'noStore' | 'maxAge'; maxAge: number };
}

interface Compiled {
  trusted: (ip: string) => boolean;
  ipList: (ip: string) => boolean;
  ua: string[];
  /** Basic-auth paths in the canonical form requests are compared in. */
  authPaths: string[];
}

const compiled = new WeakMap<AccessSettings, Compiled>();

/** Matchers of one site's settings, built once per config (the settings object is replaced on change). */
function compile(s: AccessSettings): Compiled {
  let c = compiled.get(s);
  if (!c) {
    c = {
      trusted: createIpMatcher(s.clientIp.trustedProxies),
      ipList: createIpMatcher(s.ipFilter.list),
      ua: s.uaFilter.list.map((x) => x.toLowerCase()).filter(Boolean),
      authPaths: s.basicAuth.paths.map(prefixForm),
    };
    compiled.set(s, c);
  }
  return c;
}

/** Is the socket peer a trusted proxy of this site (forwarded headers from it are believed)? */
export function peerIsTrusted(s: AccessSettings, peer: string): boolean {
  return s.clientIp.fromHeaders && s.clientIp.trustedProxies.length > 0 && compile(s).trusted(normalizeIp(peer));
}

/** The client address: the peer, or the forwarded one when the peer is a trusted proxy. */
export function clientIpOf(
  s: ClientIpSettings,
  peer: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): string {
  if (!s.clientIp.fromHeaders) return normalizeIp(peer);
  return resolveClientIp(peer, headers, s.clientIp.trustedProxies);
}

/** IP filter: `whitelist` lets only listed addresses in, `blacklist` keeps listed ones out, `off` lets all in. */
export function ipAllowed(s: AccessSettings, ip: string): boolean {
  if (s.ipFilter.mode === 'off') return true;
  const listed = compile(s).ipList(ip);
  return s.ipFilter.mode === 'whitelist' ? listed : !listed;
}

/** UA filter: case-insensitive substrings; an empty list filters nothing (unlike the ancestor, §6.6). */
export function uaAllowed(s: AccessSettings, ua: string | undefined): boolean {
  const list = compile(s).ua;
  if (s.uaFilter.mode === 'off' || list.length === 0) return true;
  const u = (ua ?? '').toLowerCase();
  const hit = list.some((x) => u.includes(x));
  return s.uaFilter.mode === 'whitelist' ? hit : !hit;
}

const eq = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Basic auth: true when the request must be answered 401. `path` is the request's decision path
 * (canonical, `;` parameters cut: core/http/canonicalPath.ts decisionPath), compared with the listed
 * paths in the same form (pathPrefix.ts prefixForm).
 */
export function basicAuthFails(s: AccessSettings, path: string, authorization: string | undefined): boolean {
  const a = s.basicAuth;
  if (!a.enabled || !a.user) return false;
  const paths = a.paths.length > 0 ? compile(s).authPaths : a.paths;
  if (paths.length > 0 && !paths.some((p) => underPrefix(path, p))) return false;
  const m = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  if (!m) return true;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return true;
  // Both compared, always: no early exit that tells which one was wrong.
  const userOk = eq(text.slice(0, colon), a.user);
  const passOk = eq(text.slice(colon + 1), a.password);
  return !(userOk && passOk);
}

/** CORS: the headers to add for `origin` (undefined when CORS is off or the origin is not allowed). */
export function corsHeaders(s: CorsSettings, origin: string | undefined): Record<string, string> | undefined {
  if (!s.cors.enabled || !origin) return undefined;
  const any = s.cors.origins.includes('*');
  if (!any && !s.cors.origins.includes(origin)) return undefined;
  return {
    'access-control-allow-origin': any ? '*' : origin,
    'access-control-allow-methods': s.cors.methods.join(', '),
    'access-control-allow-headers': '*',
    'access-control-max-age': '600',
    ...(any ? {} : { vary: 'Origin', 'access-control-allow-credentials': 'true' }),
  };
}

/** Cache-Control of the site's answers (undefined: leave the back end's). */
export function cacheControl(s: CacheSettings): string | undefined {
  if (s.cache.mode === 'noStore') return 'no-store';
  if (s.cache.mode === 'maxAge') return `public, max-age=${s.cache.maxAge}`;
  return undefined;
}
