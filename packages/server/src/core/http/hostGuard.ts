// DNS rebinding defence for the admin listener. A web page on evil.example can re-point its own
// name at the box (or at 127.0.0.1) and then, being "same origin" with itself, drive the admin
// API from a LAN user's browser. The browser still sends `Host: evil.example`, so the admin
// answers only to names it knows: IP literals, localhost, the machine's own names (hostname,
// hostname.local), the names of enabled certificates in the store, and `adminHostNames`.
// Anything else gets a 421 page naming the setting. A request without Host (HTTP/1.0) is not
// from a browser and passes. Also, a state-changing request whose Origin names another site
// is refused (a cross-site form POST from a LAN page).
import os from 'node:os';
import { isIpv4, isIpv6 } from '@lucky/shared';

export interface HostPolicy {
  /** Exact names, lower case, no trailing dot. */
  exact: Set<string>;
  /** `*.example.com` entries as `.example.com`: one label below matches. */
  wildcard: string[];
}

/** The machine's own names: hostname, its short form and `.local` forms, localhost. */
export function ownHostNames(hostname = os.hostname()): string[] {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  const short = h.split('.')[0];
  return [...new Set(['localhost', h, short, `${short}.local`, `${h}.local`].filter(Boolean))];
}

/** Compiles the allowed names (own names, certificate names, the setting). */
export function hostPolicy(names: Iterable<string>): HostPolicy {
  const exact = new Set<string>();
  const wildcard: string[] = [];
  for (const raw of names) {
    const n = raw.trim().toLowerCase().replace(/\.$/, '');
    if (!n) continue;
    if (n.startsWith('*.')) wildcard.push(n.slice(1));
    else exact.add(n);
  }
  return { exact, wildcard };
}

/**
 * The host name of a Host header value (`name`, `name:port`, `1.2.3.4:port`, `[v6]:port`),
 * lower case, without a trailing dot; the IPv6 literal without brackets. Undefined when the value
 * is not a well-formed authority (userinfo, spaces, bad port, unbracketed IPv6 …).
 */
export function hostOf(value: string): string | undefined {
  let host = value.trim().toLowerCase();
  if (!host) return undefined;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return undefined;
    const rest = host.slice(end + 1);
    if (rest && !/^:\d{1,5}$/.test(rest)) return undefined;
    const v6 = host.slice(1, end);
    return isIpv6(v6) && !v6.includes('%') ? v6 : undefined;
  }
  const colon = host.indexOf(':');
  if (colon >= 0) {
    if (!/^:\d{1,5}$/.test(host.slice(colon))) return undefined;
    host = host.slice(0, colon);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (!/^[a-z0-9.-]{1,253}$/.test(host)) return undefined;
  return host;
}

/** True when the admin may answer a request with this Host header (missing Host: yes). */
export function hostAllowed(value: string | undefined, policy: HostPolicy): boolean {
  if (value === undefined) return true;
  const host = hostOf(value);
  if (host === undefined) return false;
  if (host.includes(':') || isIpv4(host)) return true; // IP literal (v6 only comes bracketed)
  if (policy.exact.has(host)) return true;
  const dot = host.indexOf('.');
  return dot > 0 && policy.wildcard.includes(host.slice(dot));
}

/**
 * A state-changing request (not GET / HEAD / OPTIONS) whose Origin names another site: refused.
 * The Origin's host:port must equal Host, or its name must be one the admin answers to.
 * No Origin header (curl, scripts, older browsers on same-origin requests): allowed.
 */
export function originAllowed(
  method: string,
  origin: string | undefined,
  host: string | undefined,
  policy: HostPolicy,
): boolean {
  if (origin === undefined || method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  if (origin === 'null') return false;
  let authority: string;
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    authority = u.host;
  } catch {
    return false;
  }
  if (host !== undefined && authority === host.trim().toLowerCase()) return true;
  return hostAllowed(authority, policy);
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The refusal page, in both languages (the browser's language is unknown to the server here). */
export function refusalPage(host: string, reason: 'host' | 'origin'): string {
  const h = esc(host.slice(0, 255));
  const zh =
    reason === 'host'
      ? `控制台不响应主机名 <b>${h}</b>（防 DNS 重绑定）。请用 IP 地址或本机名访问，或在 设置 → 管理主机名（adminHostNames）中添加此名称。`
      : '已拒绝来自其他网站的修改请求（Origin 与 Host 不符）。请直接在控制台页面操作，或在 设置 → 管理主机名（adminHostNames）中添加该网站的名称。';
  const en =
    reason === 'host'
      ? `The console does not answer to the host name <b>${h}</b> (DNS rebinding defence). Use its IP address or the machine's name, or add this name under Settings → Admin host names (adminHostNames).`
      : "A change request from another site was refused (Origin does not match Host). Use the console's own page, or add that site's name under Settings → Admin host names (adminHostNames).";
  return `<!doctype html><html><head><meta charset="utf-8"><title>421</title></head><body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>421</h1><p lang="zh-CN">${zh}</p><p lang="en">${en}</p></body></html>`;
}
