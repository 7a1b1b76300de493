// Outbound HTTP for providers, IP echo URLs and webhooks: undici dispatchers per
// (proxy, address family, TLS verification) tuple, cached and closed with the module.
import type net from 'node:net';
import tls from 'node:tls';
import type { Dispatcher } from 'undici';

// undici is ~20 MB resident: loaded on the first request, not when the module is listed.
const loadUndici = () => import('undici');

import { socks5Connector } from './socks5.js';

export interface ProxySpec {
  type: 'http' | 'https' | 'socks5';
  /** host:port */
  address: string;
  user: string;
  password: string;
}

export interface ClientOptions {
  proxy?: ProxySpec;
  /** Connect over this address family only (IP echo URLs, the task's API network). */
  family?: 4 | 6;
  /** false skips certificate checks (webhook option only). */
  verify?: boolean;
  /** A new connection per request: an IP echo must see the address in use now. */
  fresh?: boolean;
}

export interface HttpRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Answers larger than this fail (default 1 MiB). */
  maxBytes?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** An HTTP status error with the answer's body, so providers can show the provider's message. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    message?: string,
  ) {
    super(message ?? `HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ''}`);
  }
}

function splitHostPort(address: string): { host: string; port: number } {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(address) ?? /^([^:]+):(\d+)$/.exec(address);
  if (!m) throw new Error(`proxy address "${address}" is not host:port`);
  return { host: m[1], port: Number(m[2]) };
}

export interface HttpClientsOptions {
  /** Extra trusted CA certificates (PEM) besides the system's; tests pass their stub's CA here. */
  ca?: string;
  /** Connection limit per origin. */
  connections?: number;
  /** Test hook: name resolution (e.g. one test name with both an IPv4 and an IPv6 address). */
  lookup?: net.LookupFunction;
}

/**
 * The module's HTTP clients. One undici dispatcher per option tuple, so keep-alive pools are
 * shared by every task with the same proxy; `close()` ends them all when the module stops.
 */
export class HttpClients {
  private readonly dispatchers = new Map<string, Dispatcher>();

  constructor(private readonly options: HttpClientsOptions = {}) {}

  private tlsOptions(verify: boolean): tls.ConnectionOptions {
    const ca = this.options.ca ? [...tls.rootCertificates, this.options.ca] : undefined;
    return { rejectUnauthorized: verify, ...(ca ? { ca } : {}) };
  }

  private async dispatcher(o: ClientOptions = {}): Promise<Dispatcher> {
    const verify = o.verify !== false;
    const key = JSON.stringify([o.proxy ?? null, o.family ?? 0, verify, Boolean(o.fresh)]);
    let d = this.dispatchers.get(key);
    if (d) return d;
    const { Agent, ProxyAgent } = await loadUndici();
    // Another request may have made it while undici was loading.
    d = this.dispatchers.get(key);
    if (d) return d;
    const tlsOpts = this.tlsOptions(verify);
    const connections = this.options.connections ?? 16;
    const perRequest = o.fresh ? { maxRequestsPerClient: 1 } : {};
    if (!o.proxy) {
      const lookup = this.options.lookup ? { lookup: this.options.lookup } : {};
      d = new Agent({
        connect: { ...tlsOpts, ...lookup, ...(o.family ? { family: o.family } : {}) },
        connections,
        ...perRequest,
      });
    } else if (o.proxy.type === 'socks5') {
      const { host, port } = splitHostPort(o.proxy.address);
      d = new Agent({
        connect: socks5Connector({
          host,
          port,
          user: o.proxy.user,
          password: o.proxy.password,
          tls: tlsOpts,
          timeoutMs: 10_000,
        }),
        connections,
        ...perRequest,
      });
    } else {
      const { host, port } = splitHostPort(o.proxy.address);
      const uri = `${o.proxy.type}://${host.includes(':') ? `[${host}]` : host}:${port}`;
      const token = o.proxy.user
        ? `Basic ${Buffer.from(`${o.proxy.user}:${o.proxy.password}`).toString('base64')}`
        : undefined;
      d = new ProxyAgent({ uri, token, requestTls: tlsOpts, proxyTls: this.tlsOptions(true), connections });
    }
    this.dispatchers.set(key, d);
    return d;
  }

  /** One request; the whole exchange (connect, answer, body) must fit in `timeoutMs`. */
  async request(o: ClientOptions, req: HttpRequest): Promise<HttpResponse> {
    // A controller of its own instead of AbortSignal.any(): on Node 20 every any() signal
    // stays referenced by its long-lived source (the module's stop signal), a leak per request.
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, req.timeoutMs);
    const onStop = () => ac.abort();
    req.signal?.addEventListener('abort', onStop, { once: true });
    const max = req.maxBytes ?? 1 << 20;
    try {
      const { request } = await loadUndici();
      const res = await request(req.url, {
        dispatcher: await this.dispatcher(o),
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        signal: ac.signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > max) {
          res.body.destroy();
          throw new Error(`answer larger than ${max} bytes`);
        }
        chunks.push(chunk);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      return { status: res.statusCode, headers, text: Buffer.concat(chunks).toString('utf8') };
    } catch (err) {
      if (timedOut) throw new Error(`no answer within ${Math.round(req.timeoutMs / 1000)} s`);
      if (req.signal?.aborted) throw new Error('stopped');
      throw describeNetError(err);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onStop);
    }
  }

  async close(): Promise<void> {
    const all = [...this.dispatchers.values()];
    this.dispatchers.clear();
    await Promise.allSettled(all.map((d) => d.close()));
  }
}

/** undici wraps the socket error; the cause ("connect ECONNREFUSED 127.0.0.1:9") is what helps. */
function describeNetError(err: unknown): Error {
  const e = err as Error & { cause?: Error & { code?: string } };
  if (e?.message === 'fetch failed' || (e?.cause && e.message !== e.cause.message)) {
    const cause = e.cause;
    if (cause?.message) return new Error(cause.message);
  }
  return e instanceof Error ? e : new Error(String(err));
}

/** The answer as JSON, or an error naming the status and the start of the body. */
export function jsonOf<T>(res: HttpResponse): T {
  try {
    return JSON.parse(res.text) as T;
  } catch {
    throw new HttpStatusError(res.status, res.text, `HTTP ${res.status}: not JSON: ${res.text.slice(0, 200)}`);
  }
}
