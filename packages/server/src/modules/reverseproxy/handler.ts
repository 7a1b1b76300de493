import type http from 'node:http';
import type net from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ReverseproxyService } from '@lucky/shared';
import {
  canonicalPath,
  decisionPath,
  PathRefusal,
  sameSiteLocation,
  splitTarget,
} from '../../core/http/canonicalPath.js';
import { normalizeIp } from '../../core/http/clientIp.js';
import { peerAddress } from '../../core/http/proxyProtocol.js';
import { serveFiles } from '../../core/serve/fileServer.js';
import {
  basicAuthFails,
  cacheControl,
  clientIpOf,
  corsHeaders,
  ipAllowed,
  uaAllowed,
} from '../../core/serve/filters.js';
import { StreamRequest, StreamResponse } from '../../core/serve/h2/stream.js';
import { sendPage } from '../../core/serve/pages.js';
import type { ServeRequest, ServeResponse } from '../../core/serve/request.js';
import { logLine, type SiteLog, type SiteLogs } from './accessLog.js';
import { type Backends, type ProxyContext, proxyRequest, proxyTunnel, proxyUpgrade } from './proxy.js';
import { hostOf, hostValid, mountFor, type RouteTable, type Site } from './router.js';
import { expandVars, type RequestVars } from './vars.js';

/** What a rule's handlers read per request; replaced whole on reload. */
export interface RuleState {
  table: RouteTable;
  logs: SiteLogs;
  backends: Backends;
}

interface Prepared {
  site: Site;
  s: ReverseproxyService;
  log: SiteLog | undefined;
  vars: RequestVars;
  peer: string;
  host: string;
  scheme: 'http' | 'https';
  /** The path routing, filters and auth compare (canonical, `;` parameters cut; see core/http/canonicalPath.ts). */
  match: string;
  /** Why the request target is refused with 400 (then nothing else is decided on it). */
  bad: PathRefusal | undefined;
}

const BAD_HOST = new PathRefusal('Host: not a host name or address');

/**
 * A request's values for templates and logs. A class, not an object literal: a literal with a
 * getter is built through V8's runtime on every request; here `time` sits on the prototype.
 */
class Vars implements RequestVars {
  constructor(
    readonly clientIP: string,
    readonly remoteIP: string,
    readonly host: string,
    readonly port: string,
    readonly hostAndPort: string,
    readonly method: string,
    readonly path: string,
    readonly url: string,
    readonly scheme: string,
    readonly userAgent: string,
  ) {}
  /** Made only when a template asks for it: most requests never do. */
  get time(): string {
    return new Date().toISOString();
  }
}

function prepare(state: RuleState, req: ServeRequest): Prepared {
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const host = String(req.headers.host ?? req.headers[':authority'] ?? '');
  const hostname = hostOf(host);
  // One canonical path per request (issue 12 §2): routing, filters, auth, the file server and
  // the back end all see it. A plain path comes back as the same string (no allocation).
  let url = req.url ?? '/';
  let raw: string;
  /** Where the query starts in `url` (it is cut only when the path changed: no slice per request). */
  let q = -1;
  let query = '';
  let bad: PathRefusal | undefined = hostValid(host) ? undefined : BAD_HOST;
  if (url.charCodeAt(0) === 0x2f) {
    q = url.indexOf('?');
    raw = q < 0 ? url : url.slice(0, q);
  } else {
    const t = splitTarget(url, hostname);
    if (t instanceof PathRefusal) {
      bad ??= t;
      raw = '/';
    } else {
      raw = t.path;
      query = t.query;
    }
  }
  const canon = canonicalPath(raw);
  let path: string;
  if (typeof canon === 'string') path = canon;
  else {
    bad ??= canon;
    path = '/';
  }
  if (q >= 0 && (bad || path !== raw)) query = url.slice(q);
  if (bad) url = path + query;
  else if (path !== raw || url.charCodeAt(0) !== 0x2f) {
    // What we checked is what the back end gets (proxy.ts forwards req.url); the query stays as sent.
    url = path + query;
    req.url = url;
  }
  const match = decisionPath(path);
  // A refused target is decided on nothing: the rule's default answers the 400.
  const site = bad ? state.table.fallback : state.table.match(hostname, match);
  const s = site.service;
  // The client a PROXY protocol header named (listed proxies only), else the socket's peer.
  const peer = normalizeIp(peerAddress(req.socket));
  const clientIP = clientIpOf(s, peer, req.headers);
  const port = String(req.socket.localPort ?? '');
  return {
    site,
    s,
    log: state.logs.get(site.key),
    peer,
    host,
    scheme,
    match,
    bad,
    vars: new Vars(
      clientIP,
      peer,
      hostname,
      port,
      host || `${hostname}:${port}`,
      req.method ?? 'GET',
      path,
      url,
      scheme,
      String(req.headers['user-agent'] ?? ''),
    ),
  };
}

/** The first filter that refuses the request: [status, detail, headers], or undefined. */
function refusal(p: Prepared, req: ServeRequest): [number, string, Record<string, string>] | undefined {
  if (p.bad) return [400, p.bad.reason, {}];
  if (!p.s.enabled) return [404, '', {}];
  if (!ipAllowed(p.s, p.vars.clientIP)) return [403, 'Your address may not use this site.', {}];
  if (!uaAllowed(p.s, p.vars.userAgent)) return [403, 'Your client may not use this site.', {}];
  if (basicAuthFails(p.s, p.match, req.headers.authorization))
    return [401, '', { 'www-authenticate': 'Basic realm="Authorization Required", charset="UTF-8"' }];
  return undefined;
}

/** A service's own answer headers (custom, cache), made once per config; frozen, as they are shared. */
const ownAnswerHeaders = new WeakMap<ReverseproxyService, Readonly<Record<string, string>>>();

function answerHeaders(s: ReverseproxyService, origin: string | undefined): Record<string, string> {
  let own = ownAnswerHeaders.get(s);
  if (!own) {
    const h: Record<string, string> = {};
    for (const { name, value } of s.responseHeaders) {
      const lower = name.toLowerCase();
      // The answer's framing is the server's to state (a custom Content-Length would split answers).
      if (lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') continue;
      h[lower] = value;
    }
    const cache = cacheControl(s);
    if (cache) h['cache-control'] = cache;
    own = Object.freeze(h);
    ownAnswerHeaders.set(s, own);
  }
  const cors = corsHeaders(s, origin);
  // CORS headers win over custom ones of the same name.
  return cors ? { ...own, ...cors } : own;
}

/** What the handlers tell the security lists (core/safe) through the module's `ctx.safe`. */
export interface HandlerSafety {
  /** Asked at accept by the listener (the server process only: a helper's sockets were asked there). */
  admits?(ip: string): boolean;
  /** A request brought basic-auth credentials that were wrong (auto-ban counts it). */
  authFailed(ip: string): void;
}

export function createHandlers(getState: () => RuleState, safety?: HandlerSafety) {
  /** Requests handled (HTTP/2 streams and upgrades included), for the rule's live figures. */
  let requests = 0;
  const onRequest = (req: ServeRequest, res: ServeResponse): void => {
    requests++;
    const p = prepare(getState(), req);
    const started = Date.now();
    res.on('close', () => {
      if (!p.log?.wants(4)) return;
      const status = res.headersSent ? res.statusCode : 0;
      p.log.info(
        `[${p.vars.clientIP}][${p.peer}] ${p.vars.method} ${p.vars.scheme}://${p.host}${p.vars.url} ${status || 'aborted'} ${Date.now() - started}ms "${p.vars.userAgent}"`,
      );
    });
    handle(p, req, res).catch((err: Error) => {
      logLine(p.log, 2, 'handlerError', { detail: err.message });
      if (!res.headersSent) sendPage(res, 500, '');
      else res.destroy();
    });
  };

  const handle = async (p: Prepared, req: ServeRequest, res: ServeResponse): Promise<void> => {
    // Only HTTP/2's extended CONNECT gets here (core/serve/h2/session.ts answers a plain one
    // itself; node:http emits HTTP/1's as 'connect', which nothing listens to).
    if (req.method === 'CONNECT' && req instanceof StreamRequest && res instanceof StreamResponse)
      return tunnel(p, req, res);
    const head = req.method === 'HEAD';
    const extra = answerHeaders(p.s, req.headers.origin);
    const refused = refusal(p, req);
    if (refused) {
      const banned = noteAuthFailure(refused, p, req);
      // A refused target is logged as sent (cut short) with the reason, so the admin sees what was tried.
      const at = { status: refused[0], client: p.vars.clientIP, method: p.vars.method, host: p.host };
      if (p.bad)
        logLine(p.log, 3, 'refusedTarget', { ...at, url: (req.url ?? '').slice(0, 256), reason: p.bad.reason });
      else logLine(p.log, 3, 'refused', { ...at, url: p.vars.url });
      sendPage(res, refused[0], refused[1], { ...extra, ...refused[2] }, head);
      // The guess that banned its sender: the connection ends after this answer, or a kept-alive
      // one would go on guessing past the ban, which is only asked at accept.
      if (banned) req.socket.end();
      return;
    }
    if (req.method === 'OPTIONS' && p.s.cors.enabled && req.headers['access-control-request-method']) {
      const cors = corsHeaders(p.s, req.headers.origin);
      if (!cors) return sendPage(res, 403, 'Origin not allowed.');
      res.writeHead(204, { ...extra, 'content-length': '0' });
      res.end();
      return;
    }
    if (p.s.robots.enabled && p.match === '/robots.txt') {
      if (req.method === 'OPTIONS') {
        res.writeHead(200, { allow: 'GET, HEAD, OPTIONS', 'content-length': '0' });
        res.end();
        return;
      }
      if (req.method !== 'GET' && !head) return sendPage(res, 405, '', { allow: 'GET, HEAD, OPTIONS' });
      return sendText(res, p.s.robots.text, 'text/plain; charset=utf-8', extra, head);
    }
    const s = p.s;
    switch (s.serviceType) {
      case 'proxy': {
        if (s.targets.length === 0) return sendPage(res, 404, 'No site is configured for this address.', extra, head);
        return proxyRequest(req, res, proxyContext(getState(), p, extra));
      }
      case 'redirect': {
        res.writeHead(s.redirectCode, {
          ...extra,
          location: redirectTarget(s, p),
          'content-length': '0',
        });
        res.end();
        return;
      }
      case 'jump': {
        const to = redirectTarget(s, p);
        const html = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${escAttr(to)}"><title>Redirecting</title></head><body><script>location.replace(${JSON.stringify(to).replace(/</g, '\\u003c')})</script><a href="${escAttr(to)}">${escAttr(to)}</a></body></html>\n`;
        return sendText(res, html, 'text/html; charset=utf-8', extra, head);
      }
      case 'files':
        return serveFiles(
          req,
          res,
          mountFor(s, p.vars.path),
          s,
          extra,
          p.vars.path,
          p.vars.url.slice(p.vars.path.length),
        );
      case 'text':
        return sendText(res, expandVars(s.text, p.vars), s.textContentType, extra, head);
      case 'close':
        logLine(p.log, 5, 'closed', { client: p.vars.clientIP });
        if (res.stream) res.stream.close();
        else req.socket.destroy();
        return;
    }
  };

  /** WebSocket over HTTP/2: the same checks as an HTTP/1.1 upgrade (onUpgrade), answered on the stream. */
  const tunnel = async (p: Prepared, req: StreamRequest, res: StreamResponse): Promise<void> => {
    const refused = refusal(p, req);
    const banned = noteAuthFailure(refused, p, req);
    const notHere = p.s.serviceType !== 'proxy' || !p.s.websocket || p.s.targets.length === 0;
    const status = refused?.[0] ?? (req.headers[':protocol'] !== 'websocket' ? 501 : notHere ? 404 : 0);
    if (status) {
      logLine(p.log, 3, 'refusedWebsocket', { status, client: p.vars.clientIP, host: p.host, url: p.vars.url });
      sendPage(res, status, refused?.[1] ?? '', refused?.[2] ?? {});
      if (banned) req.socket.end();
      return;
    }
    return proxyTunnel(req, res, proxyContext(getState(), p, {}));
  };

  const onUpgrade = (req: http.IncomingMessage, socket: net.Socket, head: Buffer): void => {
    requests++;
    const state = getState();
    const p = prepare(state, req);
    socket.on('error', () => socket.destroy());
    const refused = refusal(p, req);
    noteAuthFailure(refused, p, req);
    const status =
      refused?.[0] ?? (p.s.serviceType !== 'proxy' || !p.s.websocket || p.s.targets.length === 0 ? 404 : 0);
    if (status) {
      logLine(p.log, 3, 'refusedUpgrade', { status, client: p.vars.clientIP, host: p.host, url: p.vars.url });
      const extraHeader = status === 401 ? 'WWW-Authenticate: Basic realm="Authorization Required"\r\n' : '';
      socket.end(
        `HTTP/1.1 ${status} ${UPGRADE_TITLES[status] ?? 'Not Found'}\r\n${extraHeader}Content-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    p.log?.info(`[${p.vars.clientIP}][${p.peer}] UPGRADE ${p.vars.scheme}://${p.host}${p.vars.url}`);
    proxyUpgrade(req, socket, head, proxyContext(state, p, {})).catch(() => socket.destroy());
  };

  /**
   * A 401 to a request that brought credentials is a wrong guess; one without them is the
   * browser's first ask, not a failure. The address is the rule's client address: a forwarded
   * one only from the peers its client-IP settings trust. True when that guess got the peer
   * itself refused by the lists (never a proxy speaking for the client), so its connection ends.
   */
  const noteAuthFailure = (refused: ReturnType<typeof refusal>, p: Prepared, req: ServeRequest): boolean => {
    if (refused?.[0] !== 401 || req.headers.authorization === undefined || !safety) return false;
    const ip = p.vars.clientIP;
    safety.authFailed(ip);
    return ip === p.peer && safety.admits !== undefined && !safety.admits(ip);
  };

  return { onRequest, onUpgrade, admits: safety?.admits, requestCount: () => requests };
}

const UPGRADE_TITLES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden' };

function proxyContext(state: RuleState, p: Prepared, extra: Record<string, string>): ProxyContext {
  return {
    service: p.s,
    backends: state.backends,
    peer: p.peer,
    clientIp: p.vars.clientIP,
    scheme: p.scheme,
    host: p.host,
    responseHeaders: extra,
    log: (level, code, params) => logLine(p.log, level, code, params),
  };
}

/** Where a redirect / jump sends the client; a path-only result never becomes `//host` or `/\\host`. */
function redirectTarget(s: ReverseproxyService, p: Prepared): string {
  const base = expandVars(s.redirectTarget, p.vars);
  return sameSiteLocation(s.keepPath ? base.replace(/\/$/, '') + p.vars.url : base);
}

const escAttr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sendText(res: ServeResponse, text: string, type: string, extra: Record<string, string>, head: boolean): void {
  res.writeHead(200, {
    'content-type': type,
    'content-length': String(Buffer.byteLength(text)),
    ...extra,
  });
  if (head) res.end();
  else res.end(text);
}
