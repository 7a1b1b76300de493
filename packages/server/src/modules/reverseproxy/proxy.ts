import type http from 'node:http';
import type net from 'node:net';
import type { ReverseproxyService } from '@lucky/shared';
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header.js';
import { peerIsTrusted } from './filters.js';
import type { AnyRequest, AnyResponse } from './listener.js';
import { sendPage } from './pages.js';

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
  // Node has already answered "100 Continue" to the client; undici refuses to send `expect` on.
  'expect',
]);
const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

type Headers = Record<string, string | string[] | undefined>;

/** Copy without hop-by-hop headers, HTTP/2 pseudo-headers and what `Connection` lists. */
export function stripHopByHop(headers: Headers | IncomingHttpHeaders): Record<string, string | string[]> {
  const listed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (v === undefined || name.startsWith(':') || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = v;
  }
  return out;
}

interface Target {
  origin: string;
  basePath: string;
  hostPort: string;
}

const targets = new WeakMap<ReverseproxyService, { list: Target[]; next: number }>();

function targetsOf(s: ReverseproxyService): { list: Target[]; next: number } {
  let t = targets.get(s);
  if (!t) {
    t = {
      list: s.targets.map((raw) => {
        const u = new URL(raw);
        return { origin: u.origin, basePath: u.pathname.replace(/\/$/, ''), hostPort: u.host };
      }),
      next: 0,
    };
    targets.set(s, t);
  }
  return t;
}

/** Round robin: each request starts at the next back end and fails over along the list. */
function order(s: ReverseproxyService): Target[] {
  const t = targetsOf(s);
  if (t.list.length === 1) return t.list;
  const start = t.next % Math.max(1, t.list.length);
  t.next = (t.next + 1) % 1_000_000;
  return [...t.list.slice(start), ...t.list.slice(0, start)];
}

/** One undici Pool per back end (origin + TLS verification), kept across requests and reloads. */
export class Backends {
  private pools = new Map<string, Pool>();

  pool(origin: string, skipVerify: boolean): Pool {
    const id = `${skipVerify ? 'insecure' : 'verify'} ${origin}`;
    let p = this.pools.get(id);
    if (!p) {
      p = new Pool(origin, {
        connections: 256,
        headersTimeout: 60_000,
        bodyTimeout: 0,
        connect: { rejectUnauthorized: !skipVerify, timeout: 5_000 },
      });
      this.pools.set(id, p);
    }
    return p;
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(all.map((p) => p.destroy().catch(() => undefined)));
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
  onError(text: string): void;
}

/** Headers towards the back end: forwarded ones per the client-IP settings, custom ones last. */
export function upstreamHeaders(
  req: { headers: Headers },
  ctx: ProxyContext,
  target: Target,
): Record<string, string | string[]> {
  const s = ctx.service;
  const h = stripHopByHop(req.headers);
  const trusted = peerIsTrusted(s, ctx.peer);
  const incoming = {
    xff: h['x-forwarded-for'],
    proto: h['x-forwarded-proto'],
    host: h['x-forwarded-host'],
  };
  if (!trusted) {
    // Only a trusted proxy may tell us who the client is.
    delete h['x-forwarded-for'];
    delete h['x-forwarded-proto'];
    delete h['x-forwarded-host'];
    delete h['x-real-ip'];
    delete h.forwarded;
  }
  if (s.clientIp.addForwardedHeaders) {
    h['x-forwarded-for'] = trusted && incoming.xff ? `${String(incoming.xff)}, ${ctx.peer}` : ctx.peer;
    h['x-forwarded-proto'] = trusted && incoming.proto ? String(incoming.proto) : ctx.scheme;
    h['x-forwarded-host'] = trusted && incoming.host ? String(incoming.host) : ctx.host;
    h['x-real-ip'] = ctx.clientIp;
  }
  h.host = s.keepHost && ctx.host ? ctx.host : target.hostPort;
  for (const { name, value } of s.requestHeaders) h[name.toLowerCase()] = value;
  return h;
}

const pathOf = (req: AnyRequest) => (req.url?.startsWith('/') ? req.url : '/');

/** Answer headers from undici's raw list: names lower-case, hop-by-hop dropped, repeated names as lists. */
export function responseHeadersOf(
  raw: Buffer[],
  extra: Record<string, string> = {},
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toString('latin1').toLowerCase();
    const value = raw[i + 1].toString('latin1');
    const had = out[name];
    if (had === undefined) out[name] = value;
    else if (Array.isArray(had)) had.push(value);
    else out[name] = [had, value];
  }
  const listed = out.connection;
  for (const name of HOP_BY_HOP) delete out[name];
  if (listed) for (const name of String(listed).split(',')) delete out[name.trim().toLowerCase()];
  for (const name in extra) out[name] = extra[name];
  return out;
}

/**
 * One attempt against one back end, as an undici dispatch handler: the answer is written
 * straight into the client's response (no intermediate stream, no AbortController — the two
 * cost about half of the proxy's time per small request). Back-pressure: `onData` returns
 * false while the client is slow and the back end's socket resumes on `drain`.
 * `done` gets undefined when the answer went through, else the error.
 */
class Attempt {
  abort?: (err: Error) => void;
  answered = false;
  private settled = false;

  constructor(
    private readonly res: AnyResponse,
    private readonly extra: Record<string, string>,
    private readonly done: (err?: Error) => void,
  ) {}

  onConnect(abort: (err: Error) => void): void {
    this.abort = abort;
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void): boolean {
    if (status < 200) return true; // 1xx: Node answers 100-continue to the client itself
    const res = this.res as http.ServerResponse;
    this.answered = true;
    res.writeHead(status, responseHeadersOf(raw, this.extra));
    // A small answer arrives with its headers: send both in one write.
    if (typeof res.cork === 'function') {
      res.cork();
      process.nextTick(() => res.uncork());
    }
    this.onDrain = resume;
    return true;
  }

  private onDrain: () => void = () => undefined;

  private waitingForDrain = false;

  onData(chunk: Buffer): boolean {
    const ok = (this.res as http.ServerResponse).write(chunk);
    if (!ok && !this.waitingForDrain) {
      // undici may still hand over what it had already parsed: wait for one drain only.
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

/** Stream the request to a back end and the answer back; fail over on connect errors; 502 page at the end. */
export async function proxyRequest(req: AnyRequest, res: AnyResponse, ctx: ProxyContext): Promise<void> {
  const s = ctx.service;
  const hasBody =
    req.method !== 'GET' &&
    req.method !== 'HEAD' &&
    (req.headers['content-length'] !== '0' || !!req.headers['transfer-encoding']);
  let clientGone = false;
  let attempt: Attempt | undefined;
  res.once('close', () => {
    if (res.writableFinished) return;
    clientGone = true;
    attempt?.abort?.(new Error('the client went away'));
  });
  let lastError = 'no back end';
  for (const target of order(s)) {
    if (clientGone) return;
    const pool = ctx.backends.pool(target.origin, s.backendSkipVerify);
    const err = await new Promise<Error | undefined>((resolve) => {
      attempt = new Attempt(res, ctx.responseHeaders, resolve);
      pool.dispatch(
        {
          path: target.basePath + pathOf(req),
          method: (req.method ?? 'GET') as 'GET',
          headers: upstreamHeaders(req, ctx, target),
          body: hasBody ? (req as NodeJS.ReadableStream as import('node:stream').Readable) : null,
        },
        attempt,
      );
    });
    if (!err || clientGone) return; // answered, or nobody is left to answer
    const e = err as NodeJS.ErrnoException;
    lastError = `${target.origin}: ${e.code ?? ''} ${e.message}`.trim();
    ctx.onError(`proxy error ${lastError}`);
    // Fail over only while nothing was answered and nothing of the request body was read.
    const bodyUntouched = !hasBody || !(req as { readableDidRead?: boolean }).readableDidRead;
    if (attempt?.answered || res.headersSent || !bodyUntouched || !CONNECT_ERRORS.has(String(e.code))) break;
  }
  if (res.headersSent) res.destroy();
  else sendPage(res, 502, 'The back end did not answer.', ctx.responseHeaders, req.method === 'HEAD');
}

/** WebSocket (or other Upgrade) through to the back end: 101 back to the client, then raw bytes both ways. */
export async function proxyUpgrade(
  req: http.IncomingMessage,
  socket: net.Socket,
  head: Buffer,
  ctx: ProxyContext,
): Promise<void> {
  const s = ctx.service;
  let lastError = 'no back end';
  for (const target of order(s)) {
    try {
      const headers = upstreamHeaders(req, ctx, target);
      const up = await ctx.backends.pool(target.origin, s.backendSkipVerify).upgrade({
        path: target.basePath + (req.url ?? '/'),
        method: 'GET',
        headers,
        protocol: String(req.headers.upgrade ?? 'websocket'),
      });
      const lines = [
        'HTTP/1.1 101 Switching Protocols',
        'Connection: Upgrade',
        `Upgrade: ${req.headers.upgrade ?? 'websocket'}`,
      ];
      for (const [k, v] of Object.entries(up.headers)) {
        if (k === 'connection' || k === 'upgrade' || v === undefined) continue;
        for (const one of Array.isArray(v) ? v : [v]) lines.push(`${k}: ${one}`);
      }
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.socket.write(head);
      up.socket.on('error', () => socket.destroy());
      socket.on('error', () => up.socket.destroy());
      up.socket.on('close', () => socket.destroy());
      socket.on('close', () => up.socket.destroy());
      up.socket.pipe(socket);
      socket.pipe(up.socket);
      return;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      lastError = `${target.origin}: ${e.code ?? ''} ${e.message}`.trim();
      ctx.onError(`websocket proxy error ${lastError}`);
      if (!CONNECT_ERRORS.has(String(e.code))) break;
    }
  }
  socket.end(
    'HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: 12\r\nConnection: close\r\n\r\nBad Gateway\n',
  );
}
