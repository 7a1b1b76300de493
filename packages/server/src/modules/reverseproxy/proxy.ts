import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';
import type net from 'node:net';
import type { ReverseproxyLogCode, ReverseproxyService } from '@lucky/shared';
import { isAdminTarget, RELAY_HEADER, relayValue } from '../../core/http/adminRelay.js';
import type { RuleLogLevel } from '../../core/logs/ruleLog.js';
import { DirectResponse } from '../../core/serve/directHttp1.js';
import { peerIsTrusted } from '../../core/serve/filters.js';
import { StreamRequest, type StreamResponse } from '../../core/serve/h2/stream.js';
import { llhttpProblem } from '../../core/serve/llhttp.js';
import { sendPage } from '../../core/serve/pages.js';
import { bodyOf, type ServeRequest, type ServeResponse } from '../../core/serve/request.js';
import { BackendPool } from './backendClient.js';
import { type BackendConnections, NodeHttpBackend } from './nodeHttpBackend.js';
import type { ServedService } from './router.js';
import { noteAnswer, noteFailure, order, type Target } from './targets.js';

/** Hop-by-hop headers (RFC 9110 §7.6.1) never go through; plus those named in `Connection`. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'host',
  // Node has already answered "100 Continue" to the client: the back end gets the body at once.
  'expect',
  // Who the client is, for our own admin listener only (adminRelay.ts): never taken from a client.
  RELAY_HEADER,
]);
/**
 * Not passed from the client's head to the back end: hop-by-hop, and Content-Length, as the
 * back-end client states the framing of the body it actually sends (backendClient.ts headOf).
 * (An answer's Content-Length is passed on: llhttp hands over exactly that many bytes.)
 */
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'content-length']);
const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
]);

type Headers = Record<string, string | string[] | undefined>;

/** Headers only a trusted proxy may send us (who the client is); dropped from anyone else. */
const FORWARDED = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-real-ip', 'forwarded']);

/**
 * Names a `Connection` field may not remove (issue 12 §1): the message's framing and Host, the
 * upgrade handshake (handled on its own), and the forwarded fields (a client listing
 * X-Forwarded-For would strip what a trusted proxy in front of us added, and pass for it).
 */
const NEVER_LISTED = new Set(['content-length', 'transfer-encoding', 'host', 'upgrade', ...FORWARDED]);

/** Further hop-by-hop names a `Connection` header lists (undefined when it lists none). */
function connectionListed(value: string | string[] | undefined): Set<string> | undefined {
  if (value === undefined || value === 'keep-alive' || value === 'close') return undefined;
  let listed: Set<string> | undefined;
  for (const n of String(value).split(',')) {
    const name = n.trim().toLowerCase();
    if (!name || name === 'keep-alive' || name === 'close' || NEVER_LISTED.has(name)) continue;
    listed ??= new Set();
    listed.add(name);
  }
  return listed;
}

/** One connection pool per back end (origin + TLS verification), kept across requests and reloads. */
export class Backends {
  private pools = new Map<string, BackendConnections>();
  /** The pool of each target of the current configs: found without making a key per request. */
  private byTarget = new WeakMap<Target, BackendConnections>();

  private pool(origin: string, skipVerify: boolean): BackendConnections {
    const id = `${skipVerify ? 'insecure' : 'verify'} ${origin}`;
    let p = this.pools.get(id);
    if (!p) {
      // node:http's client when node's parser failed its start-up self-test (core/serve/llhttp.ts).
      p = llhttpProblem ? new NodeHttpBackend(origin, skipVerify) : new BackendPool(origin, skipVerify);
      this.pools.set(id, p);
    }
    return p;
  }

  /** The pool for a target of service `s` (its TLS verification setting goes with the target list). */
  poolOf(target: Target, s: ReverseproxyService): BackendConnections {
    let p = this.byTarget.get(target);
    if (!p) {
      p = this.pool(target.origin, s.backendSkipVerify);
      this.byTarget.set(target, p);
    }
    return p;
  }

  async close(): Promise<void> {
    for (const p of this.pools.values()) p.close();
    this.pools.clear();
    this.byTarget = new WeakMap();
  }
}

export interface ProxyContext {
  service: ReverseproxyService;
  backends: Backends;
  peer: string;
  clientIp: string;
  scheme: 'http' | 'https';
  /** Host header as the client sent it (with port). */
  host: string;
  /** Added to the answer (CORS, cache, custom headers). */
  responseHeaders: Record<string, string>;
  /** A line in the site's log, as code + params (REVERSEPROXY_LOG; accessLog.ts logLine). */
  log(level: RuleLogLevel, code: ReverseproxyLogCode, params: Record<string, unknown>): void;
}

/**
 * A failed attempt on `target`, logged as `what`. A back end that did not answer and cannot be
 * reached goes to the back of the line (targets.ts), and the log says so. Returns the error code.
 */
function attemptFailed(
  ctx: ProxyContext,
  target: Target,
  err: Error,
  what: 'proxyError' | 'websocketError',
  answered = false,
): string | undefined {
  const { code, message } = err as NodeJS.ErrnoException;
  ctx.log(2, what, { origin: target.origin, detail: `${code ?? ''} ${message}`.trim() });
  const pause = answered ? 0 : noteFailure(target, code);
  if (pause && ctx.service.targets.length > 1)
    ctx.log(2, 'backendUnreachable', { origin: target.origin, errno: code, seconds: pause / 1000 });
  return code;
}

/** The back end answered: if it had been unreachable, it takes its turn again. */
function backendAnswered(ctx: ProxyContext, target: Target): void {
  if (noteAnswer(target) && ctx.service.targets.length > 1) ctx.log(4, 'backendBack', { origin: target.origin });
}

/**
 * Headers towards the back end, made in one pass: the client's without hop-by-hop ones, HTTP/2
 * pseudo-headers, what `Connection` lists, and forwarded ones from an untrusted peer; then
 * forwarded ones per the client-IP settings, Host, and the custom ones last. (No deletes: an
 * object that loses properties turns slow in V8.)
 */
export function upstreamHeaders(
  req: { headers: Headers },
  ctx: ProxyContext,
  target: Target,
): Record<string, string | string[]> {
  const s = ctx.service;
  const incoming = req.headers;
  const trusted = peerIsTrusted(s, ctx.peer);
  const listed = connectionListed(incoming.connection);
  const h: Record<string, string | string[]> = {};
  for (const key in incoming) {
    const v = incoming[key];
    if (v === undefined) continue;
    const name = key.toLowerCase();
    if (name.charCodeAt(0) === 58 /* ':' */ || NOT_FORWARDED.has(name) || listed?.has(name)) continue;
    if (!trusted && FORWARDED.has(name)) continue;
    h[name] = v;
  }
  if (s.clientIp.addForwardedHeaders) {
    const xff = trusted ? incoming['x-forwarded-for'] : undefined;
    const proto = trusted ? incoming['x-forwarded-proto'] : undefined;
    const host = trusted ? incoming['x-forwarded-host'] : undefined;
    h['x-forwarded-for'] = xff ? `${String(xff)}, ${ctx.peer}` : ctx.peer;
    h['x-forwarded-proto'] = proto ? String(proto) : ctx.scheme;
    h['x-forwarded-host'] = host ? String(host) : ctx.host;
    h['x-real-ip'] = ctx.clientIp;
  }
  h.host = s.keepHost && ctx.host ? ctx.host : target.hostPort;
  for (const { name, value } of s.requestHeaders) h[name.toLowerCase()] = value;
  // `proxy_set_header Name ""` of the custom config (rare: the deletes cost only such a service).
  const drop = (s as ServedService).dropRequestHeaders;
  if (drop) for (const name of drop) delete h[name];
  // The console published through its own web service: tell it who the client really is.
  if (isAdminTarget(target)) h[RELAY_HEADER] = relayValue(ctx.clientIp, ctx.host);
  return h;
}

const pathOf = (req: ServeRequest) => (req.url?.startsWith('/') ? req.url : '/');

/** Answer headers from the parser's [name, value, …] list: names lower-case, hop-by-hop dropped, repeated names as lists. */
export function responseHeadersOf(
  raw: string[],
  extra: Record<string, string> = {},
  hide?: ReadonlySet<string>,
): Record<string, string | string[]> {
  // Names the Connection header lists are hop-by-hop too; "keep-alive" and "close" already are.
  let connection: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (raw[i].length === 10 && raw[i].toLowerCase() === 'connection')
      connection = connection === undefined ? raw[i + 1] : `${connection}, ${raw[i + 1]}`;
  const listed = connectionListed(connection);
  // Built without deletes: an object that loses properties turns slow in V8.
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || listed?.has(name) || hide?.has(name)) continue;
    const value = raw[i + 1];
    const had = out[name];
    if (had === undefined) out[name] = value;
    else if (Array.isArray(had)) had.push(value);
    else out[name] = [had, value];
  }
  for (const name in extra) out[name] = extra[name];
  return out;
}

/**
 * One attempt against one back end, as the back-end client's answer handler: the answer is
 * written straight into the client's response (no intermediate stream). Back-pressure: `onData`
 * returns false while the client is slow and the back end's socket resumes on `drain`.
 * `done` gets undefined when the answer went through, else the error.
 */
class Attempt {
  abort?: (err: Error) => void;
  answered = false;
  private settled = false;

  constructor(
    private readonly res: ServeResponse,
    private readonly extra: Record<string, string>,
    private readonly done: (err?: Error) => void,
    /** Names the custom config hides from the back end's answer. */
    private readonly hide?: ReadonlySet<string>,
  ) {}

  onConnect(abort: (err: Error) => void): void {
    this.abort = abort;
  }

  onHeaders(status: number, raw: string[], resume: () => void): void {
    const res = this.res;
    this.answered = true;
    res.writeHead(status, responseHeadersOf(raw, this.extra, this.hide));
    // A small answer arrives with its headers: send both in one write (the direct path's
    // response does this itself, without a tick per request).
    if (!(res instanceof DirectResponse) && res.cork) {
      res.cork();
      process.nextTick(() => res.uncork?.());
    }
    this.onDrain = resume;
  }

  private onDrain: () => void = () => undefined;

  private waitingForDrain = false;

  onData(chunk: Buffer): boolean {
    const ok = this.res.write(chunk);
    if (!ok && !this.waitingForDrain) {
      // The parser may still hand over the rest of a chunk it had read: wait for one drain only.
      this.waitingForDrain = true;
      this.res.once('drain', () => {
        this.waitingForDrain = false;
        this.onDrain();
      });
    }
    return ok;
  }

  onComplete(): void {
    this.res.end();
    this.settle();
  }

  onError(err: Error): void {
    this.settle(err);
  }

  private settle(err?: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.done(err);
  }
}

/** A request body as the proxy will frame it towards the back end, or why it is refused. */
interface BodyFraming {
  hasBody: boolean;
  /** Content-Length to send (the body must bring exactly that); undefined = chunked, or no body. */
  bodyLength?: number;
  refused?: [status: number, text: string];
}

const NO_BODY: BodyFraming = { hasBody: false };
const CHUNKED_BODY: BodyFraming = { hasBody: true };

/**
 * How the client framed its body (the parsers have already refused what is ambiguous: CL with
 * TE, two lengths, obs-fold, bare LF, bad chunks). Only "chunked" is a transfer coding we pass
 * on, as nginx does (501 for others: we would have to forward the coding, and a back end that
 * reads "gzip, chunked" otherwise than we do is a smuggling vector); HTTP/1.0 has no chunked
 * (RFC 9112 §6.1: faulty framing, 400). HTTP/2 frames with DATA: a length, if given, was checked
 * against the DATA by the engine, and without one a body other than on GET / HEAD goes chunked.
 */
export function bodyFraming(req: ServeRequest): BodyFraming {
  const { headers } = req;
  const length = headers['content-length'];
  const te = headers['transfer-encoding'];
  if (te !== undefined) {
    if (req.httpVersion === '1.0')
      return { hasBody: false, refused: [400, 'Transfer-Encoding in an HTTP/1.0 request.'] };
    if (String(te).trim().toLowerCase() !== 'chunked')
      return { hasBody: false, refused: [501, 'Transfer-Encoding other than chunked is not supported.'] };
    return CHUNKED_BODY;
  }
  if (length !== undefined) {
    if (typeof length !== 'string' || !/^\d{1,15}$/.test(length))
      return { hasBody: false, refused: [400, 'Invalid Content-Length.'] };
    return length === '0' ? { hasBody: false, bodyLength: 0 } : { hasBody: true, bodyLength: Number(length) };
  }
  if (req instanceof StreamRequest && req.method !== 'GET' && req.method !== 'HEAD') return CHUNKED_BODY;
  return NO_BODY;
}

/** Failures that are the request's fault: 400, not 502. */
const REQUEST_ERRORS = new Set(['EBODYLENGTH', 'EINVALIDREQUEST']);

/** Stream the request to a back end and the answer back; fail over on connect errors; 502 page at the end. */
export async function proxyRequest(req: ServeRequest, res: ServeResponse, ctx: ProxyContext): Promise<void> {
  const s = ctx.service;
  const { hasBody, bodyLength, refused } = bodyFraming(req);
  if (refused) {
    ctx.log(2, 'refusedBody', { status: refused[0], reason: refused[1] });
    return sendPage(res, refused[0], refused[1], ctx.responseHeaders, req.method === 'HEAD');
  }
  let clientGone = false;
  let requestFault = false;
  let attempt: Attempt | undefined;
  // 'close' comes once per response: `on` spares the once-wrapper and its removal per request.
  res.on('close', () => {
    if (res.writableFinished) return;
    clientGone = true;
    attempt?.abort?.(new Error('the client went away'));
  });
  for (const target of order(s)) {
    if (clientGone) return;
    const pool = ctx.backends.poolOf(target, s);
    const err = await new Promise<Error | undefined>((resolve) => {
      attempt = new Attempt(res, ctx.responseHeaders, resolve, (s as ServedService).hideHeaders);
      const headers = upstreamHeaders(req, ctx, target);
      pool.request(
        {
          path: target.basePath + pathOf(req),
          method: req.method ?? 'GET',
          headers,
          body: hasBody ? bodyOf(req) : null,
          bodyLength,
        },
        attempt,
      );
    });
    if (attempt?.answered) backendAnswered(ctx, target);
    if (!err || clientGone) return; // answered, or nobody is left to answer
    const code = attemptFailed(ctx, target, err, 'proxyError', attempt?.answered);
    requestFault = REQUEST_ERRORS.has(String(code));
    // Fail over only while nothing was answered and nothing of the request body was read.
    const bodyUntouched = !hasBody || !req.readableDidRead;
    if (attempt?.answered || res.headersSent || !bodyUntouched || !CONNECT_ERRORS.has(String(code))) break;
  }
  if (res.headersSent) res.destroy();
  else if (requestFault) {
    // (A body left unread closes the client's connection after this: the direct path and node:http see to it.)
    sendPage(res, 400, 'The request body does not match its framing.', ctx.responseHeaders, req.method === 'HEAD');
  } else sendPage(res, 502, 'The back end did not answer.', ctx.responseHeaders, req.method === 'HEAD');
}

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The Sec-WebSocket-Accept that answers `key` (RFC 6455 §4.2.2). */
const acceptFor = (key: string) =>
  createHash('sha1')
    .update(key + WEBSOCKET_GUID)
    .digest('base64');

/** The accept field of a back end's 101, if it matches `key`. */
function acceptMatches(raw: string[], key: string): boolean {
  const i = raw.findIndex((v, n) => n % 2 === 0 && v.toLowerCase() === 'sec-websocket-accept');
  return i >= 0 && raw[i + 1] === acceptFor(key);
}

/**
 * WebSocket through to the back end: 101 back to the client, then raw bytes both ways. Only
 * WebSocket, and only a 101 that answers the client's key: after a 101 the bytes are no longer
 * read by us, so an upgrade the back end did not really make (another protocol such as h2c, or a
 * 101 from a back end that goes on speaking HTTP) would let the client send requests that skip
 * the rule's filters ("h2c / WebSocket smuggling").
 */
export async function proxyUpgrade(
  req: http.IncomingMessage,
  socket: net.Socket,
  head: Buffer,
  ctx: ProxyContext,
): Promise<void> {
  const s = ctx.service;
  const key = req.headers['sec-websocket-key'];
  if (String(req.headers.upgrade).toLowerCase() !== 'websocket' || typeof key !== 'string' || !key) {
    ctx.log(2, 'refusedUpgradeType', { upgrade: JSON.stringify(String(req.headers.upgrade)).slice(0, 40) });
    socket.end(
      'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 39\r\nConnection: close\r\n\r\nOnly WebSocket upgrades are passed on.\n',
    );
    return;
  }
  for (const target of order(s)) {
    try {
      const headers = upstreamHeaders(req, ctx, target);
      headers.connection = 'upgrade';
      headers.upgrade = 'websocket';
      const up = await ctx.backends.poolOf(target, s).upgrade(target.basePath + (req.url ?? '/'), headers);
      backendAnswered(ctx, target);
      if (!acceptMatches(up.raw, key)) {
        up.socket.destroy();
        const e = new Error('the back end answered the upgrade without the right Sec-WebSocket-Accept');
        (e as NodeJS.ErrnoException).code = 'EBADANSWER';
        throw e;
      }
      const lines = ['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', 'Upgrade: websocket'];
      for (let i = 0; i + 1 < up.raw.length; i += 2) {
        const k = up.raw[i].toLowerCase();
        if (k === 'connection' || k === 'upgrade') continue;
        lines.push(`${up.raw[i]}: ${up.raw[i + 1]}`);
      }
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (up.head.length) socket.write(up.head);
      if (head.length) up.socket.write(head);
      up.socket.on('error', () => socket.destroy());
      socket.on('error', () => up.socket.destroy());
      up.socket.on('close', () => socket.destroy());
      socket.on('close', () => up.socket.destroy());
      up.socket.pipe(socket);
      socket.pipe(up.socket);
      return;
    } catch (err) {
      if (!CONNECT_ERRORS.has(String(attemptFailed(ctx, target, err as Error, 'websocketError')))) break;
    }
  }
  socket.end(
    'HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: 12\r\nConnection: close\r\n\r\nBad Gateway\n',
  );
}

/**
 * WebSocket over HTTP/2 (RFC 8441): the client's extended CONNECT stream becomes an HTTP/1.1
 * upgrade towards the back end, which never sees HTTP/2. The key the back end's accept must
 * match is ours (HTTP/2 clients send none), so a back end that is not speaking WebSocket is
 * caught here. Then the stream's DATA and the back end's bytes flow both ways, each side
 * ending on its own; flow control on the stream holds back whichever side is faster.
 */
export async function proxyTunnel(req: StreamRequest, res: StreamResponse, ctx: ProxyContext): Promise<void> {
  const s = ctx.service;
  for (const target of order(s)) {
    if (res.closed) return; // the client gave up while we were connecting
    try {
      const key = randomBytes(16).toString('base64');
      const headers = upstreamHeaders(req, ctx, target);
      headers.connection = 'upgrade';
      headers.upgrade = 'websocket';
      headers['sec-websocket-key'] = key;
      headers['sec-websocket-version'] ??= '13';
      const up = await ctx.backends.poolOf(target, s).upgrade(target.basePath + req.url, headers);
      backendAnswered(ctx, target);
      if (!acceptMatches(up.raw, key)) {
        up.socket.destroy();
        const e = new Error('the back end answered the upgrade without the right Sec-WebSocket-Accept');
        (e as NodeJS.ErrnoException).code = 'EBADANSWER';
        throw e;
      }
      if (res.closed) {
        up.socket.destroy();
        return;
      }
      const answer: Record<string, string | string[]> = {};
      for (let i = 0; i + 1 < up.raw.length; i += 2) {
        const name = up.raw[i].toLowerCase();
        if (HOP_BY_HOP.has(name) || name === 'sec-websocket-accept') continue;
        const had = answer[name];
        answer[name] = had === undefined ? up.raw[i + 1] : [had, up.raw[i + 1]].flat();
      }
      res.writeHead(200, answer);
      const upstream = up.socket;
      const body = req.body;
      if (up.head.length) res.write(up.head);
      upstream.on('data', (chunk: Buffer) => {
        if (!res.write(chunk)) upstream.pause();
      });
      res.on('drain', () => upstream.resume());
      upstream.on('end', () => res.end());
      upstream.on('error', () => res.destroy());
      upstream.on('close', () => {
        if (!res.writableEnded) res.destroy();
      });
      // Client gone (stream reset or connection lost): the back end's side goes too.
      res.on('close', () => upstream.destroy());
      body.on('aborted', () => upstream.destroy());
      body.pipe(upstream);
      upstream.resume();
      return;
    } catch (err) {
      if (!CONNECT_ERRORS.has(String(attemptFailed(ctx, target, err as Error, 'websocketError')))) break;
    }
  }
  if (!res.closed) sendPage(res, 502, 'The back end did not answer.', ctx.responseHeaders);
}
