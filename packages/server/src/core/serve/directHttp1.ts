// Plain HTTP/1.1 connections served without node:http: requests are parsed by node's own llhttp
// (llhttp.ts, strict), and the handlers get a small request (a Readable for the body) and
// response (head + framing written straight to the socket). node:http's IncomingMessage /
// ServerResponse machinery is about a seventh of the proxy's time on a small request (wrk through
// the proxy on 2 cores: +16 % req/s for small answers; 10 KiB ones are bound by the copies).
//
// The rest — HTTP/1.0, an upgrade (WebSocket), `Expect`, no Host — is handed over at the
// request boundary: the head is written back in front of the unread bytes and the
// socket goes to the listener's node:http server, which serves it from then on. Pipelined requests
// wait (socket paused) until the answer before them is done.
import { EventEmitter } from 'node:events';
import { STATUS_CODES } from 'node:http';
import type net from 'node:net';
import { Readable } from 'node:stream';
import {
  type Head,
  HTTPParser,
  type Llhttp,
  newParser,
  onHeads,
  type ParseError,
  SPLITS_HEAD,
  STOP_AFTER_HEAD,
} from './llhttp.js';

/** As node:http's server: idle keep-alive connections close after this long… */
const KEEP_ALIVE_MS = 65_000;
/** …and a request must have arrived whole within this long (node's requestTimeout), unless the listener says otherwise. */
export const REQUEST_MS = 300_000;
const SWEEP_MS = 5_000;

export interface DirectHost {
  onRequest(req: DirectRequest | BodilessRequest, res: DirectResponse): void;
}

/** Takes over a socket whose unread bytes start with the next request (node:http's server). */
export type HandOver = (socket: net.Socket) => void;

/** Names node:http keeps once (first wins) when a request repeats them; others are joined. */
const SINGLE = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'host',
  'authorization',
  'proxy-authorization',
  'if-modified-since',
  'if-unmodified-since',
  'from',
  'location',
  'max-forwards',
  'retry-after',
  'etag',
  'last-modified',
  'server',
  'age',
  'expires',
]);

/** `req.headers` as node:http makes it from the raw list. */
function headersOf(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    const value = raw[i + 1];
    const had = out[name];
    if (had === undefined) out[name] = value;
    else if (name === 'cookie') out[name] = `${had}; ${value}`;
    else if (!SINGLE.has(name)) out[name] = `${had}, ${value}`;
  }
  return out;
}

/** The request as handlers read it (a ServeRequest, request.ts); the body streams. */
export class DirectRequest extends Readable {
  readonly headers: Record<string, string>;
  readonly httpVersion = '1.1';
  complete = false;

  constructor(
    readonly socket: net.Socket,
    readonly method: string,
    /** Written once by the handler with the canonical target (see ServeRequest.url). */
    public url: string,
    readonly rawHeaders: string[],
    headers: Record<string, string>,
  ) {
    super();
    this.headers = headers;
  }

  override _read(): void {
    // The consumer wants more: let the socket flow again (kOnBody paused it).
    this.socket.resume();
  }
}

/**
 * A GET or HEAD without Content-Length or Transfer-Encoding: no body can follow, so no stream
 * machinery (a Readable costs about 1 µs to make and end, per request). The proxy streams a
 * request body only when one is framed, so it never reads this as a stream.
 */
export class BodilessRequest extends EventEmitter {
  readonly headers: Record<string, string>;
  readonly httpVersion = '1.1';
  readonly readableDidRead = false;
  complete = false;
  destroyed = false;

  constructor(
    readonly socket: net.Socket,
    readonly method: string,
    /** Written once by the handler with the canonical target (see ServeRequest.url). */
    public url: string,
    readonly rawHeaders: string[],
    headers: Record<string, string>,
  ) {
    super();
    this.headers = headers;
  }

  /** The parser's end of message (`null`); a body chunk cannot come for such a request. */
  push(chunk: Buffer | null): boolean {
    if (chunk === null) this.complete = true;
    return true;
  }

  destroy(): this {
    this.destroyed = true;
    return this;
  }
}

/** Bodies up to this size go out in one string with the head (see DirectResponse.write). */
const SMALL_BODY = 2048;

let dateSecond = 0;
let dateText = '';
/** The Date header, made once a second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/**
 * The response as handlers write it (a ServeResponse, request.ts). Header names are
 * lower-case by contract; Content-Length is passed on, without one the body goes chunked.
 */
export class DirectResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  private head?: string;
  private chunked = false;
  private noBody = false;
  private waitingForDrain = false;

  constructor(
    private readonly conn: DirectConnection,
    private readonly socket: net.Socket,
    private readonly isHead: boolean,
    /** The client asked to close after this answer. */
    readonly closeAfter: boolean,
  ) {
    super();
  }

  writeHead(status: number, headers: Record<string, string | string[] | number | undefined> = {}): this {
    if (this.headersSent) throw new Error('the answer head was already written');
    this.statusCode = status;
    const noBody = this.isHead || status === 204 || status === 304 || status < 200;
    let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}\r\n`;
    let hasLength = false;
    let hasDate = false;
    for (const name in headers) {
      const v = headers[name];
      if (v === undefined || name === 'transfer-encoding' || name === 'connection') continue;
      if (name === 'content-length') hasLength = true;
      else if (name === 'date') hasDate = true;
      if (Array.isArray(v)) {
        for (const one of v) {
          if (SPLITS_HEAD.test(one)) throw new Error(`invalid value in answer header ${name}`);
          head += `${name}: ${one}\r\n`;
        }
      } else {
        const one = String(v);
        if (SPLITS_HEAD.test(one)) throw new Error(`invalid value in answer header ${name}`);
        head += `${name}: ${one}\r\n`;
      }
    }
    if (!hasDate) head += `date: ${httpDate()}\r\n`;
    this.chunked = !noBody && !hasLength;
    if (this.chunked) {
      head += 'transfer-encoding: chunked\r\n';
      // The head, the chunks of this tick and a quick end go out in one write. (A length-framed
      // body needs no such wait: its first write carries the head.)
      this.socket.cork();
      process.nextTick(() => this.socket.uncork());
    }
    if (this.closeAfter) head += 'connection: close\r\n';
    this.head = `${head}\r\n`;
    this.noBody = noBody;
    this.headersSent = true;
    return this;
  }

  write(chunk: Buffer | string): boolean {
    if (this.writableEnded || this.socket.destroyed) return false;
    if (!this.headersSent) this.writeHead(this.statusCode);
    const s = this.socket;
    const first = this.head;
    this.head = undefined;
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    let ok = true;
    if (this.noBody || length === 0) {
      if (first) ok = s.write(first, 'latin1');
    } else if (first && !this.chunked && typeof chunk !== 'string' && length <= SMALL_BODY) {
      // Head and a small body as one latin1 string (bytes map 1:1): one plain write instead of
      // the writev machinery (arrays, a buffered-chunk list) for the common small answer.
      ok = s.write(first + chunk.toString('latin1'), 'latin1');
    } else {
      s.cork();
      if (first) s.write(first, 'latin1');
      if (this.chunked) {
        s.write(`${length.toString(16)}\r\n`, 'latin1');
        s.write(chunk);
        ok = s.write('\r\n', 'latin1');
      } else ok = s.write(chunk);
      s.uncork();
    }
    if (!ok && !this.waitingForDrain) {
      this.waitingForDrain = true;
      s.once('drain', () => {
        this.waitingForDrain = false;
        this.emit('drain');
      });
    }
    return ok;
  }

  end(chunk?: Buffer | string): this {
    if (this.writableEnded) return this;
    if (chunk?.length) this.write(chunk);
    else if (!this.headersSent || this.head) this.write('');
    if (this.chunked && !this.socket.destroyed) this.socket.write('0\r\n\r\n', 'latin1');
    this.writableEnded = true;
    this.writableFinished = true;
    this.conn.answered(this);
    return this;
  }

  destroy(): void {
    // After refused() the connection is already ending with its 400: let that reach the client.
    if (!this.refusedByConnection) this.socket.destroy();
  }

  private refusedByConnection = false;

  /** The connection answered for the handler (its request did not parse): what it writes goes nowhere. */
  refused(): void {
    this.refusedByConnection = true;
    this.headersSent = true;
    this.writableEnded = true;
  }
}

interface Exchange {
  req: DirectRequest | BodilessRequest;
  res: DirectResponse;
  started: number;
}

/** One client connection while it is served here. */
class DirectConnection {
  private readonly parser: Llhttp;
  private exchange?: Exchange;
  /** Bytes not parsed yet, starting with a request head: pipelined, or to hand over. */
  private held?: Buffer;
  private handOverNext = false;
  private executing = false;
  private gone = false;
  /** Since when the connection has been idle (no exchange). */
  since = Date.now();
  /**
   * Bytes read when the sweep first saw it idle (-1: not looked yet, taken by the sweep so an
   * answer costs no read of the socket's counter): more means a head has started arriving.
   */
  private idleBytes = -1;
  /** When the sweep first saw part of the next head (the first one's started with the connection). */
  private headSeen = this.since;

  constructor(
    private readonly socket: net.Socket,
    private readonly host: DirectHost,
    private readonly handOver: HandOver,
    private readonly forget: (c: DirectConnection) => void,
  ) {
    const parser = newParser(HTTPParser.REQUEST);
    onHeads(parser, (head) => this.onHead(head));
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => {
      const req = this.exchange?.req;
      if (req && !req.destroyed && !req.push(chunk)) this.socket.pause();
    };
    parser[HTTPParser.kOnMessageComplete] = () => {
      const req = this.exchange?.req;
      if (!req || req.complete) return;
      req.complete = true;
      req.push(null);
    };
    this.parser = parser;
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onClose);
  }

  private onHead({ major, minor, raw, method, url, upgrade, keepAlive }: Head): number {
    const again = () => {
      // The head as it came (the parser keeps nothing else of it), for whoever reads it next.
      let head = `${method} ${url} HTTP/${major}.${minor}\r\n`;
      for (let i = 0; i + 1 < raw.length; i += 2) head += `${raw[i]}: ${raw[i + 1]}\r\n`;
      return Buffer.from(`${head}\r\n`, 'latin1');
    };
    if (this.exchange) {
      // Pipelined: parsed again once the answer before it is out.
      this.held = again();
      return STOP_AFTER_HEAD;
    }
    const headers = headersOf(raw);
    const plain = major === 1 && minor === 1 && !upgrade && method !== 'CONNECT';
    if (!plain || !headers.host || headers.expect !== undefined) {
      this.held = again();
      this.handOverNext = true;
      return STOP_AFTER_HEAD;
    }
    const bodiless =
      (method === 'GET' || method === 'HEAD') &&
      headers['content-length'] === undefined &&
      headers['transfer-encoding'] === undefined;
    const req = bodiless
      ? new BodilessRequest(this.socket, method, url, raw, headers)
      : new DirectRequest(this.socket, method, url, raw, headers);
    const res = new DirectResponse(this, this.socket, method === 'HEAD', !keepAlive);
    this.exchange = { req, res, started: Date.now() };
    try {
      this.host.onRequest(req, res);
    } catch {
      this.socket.destroy();
    }
    return 0;
  }

  private readonly onData = (data: Buffer): void => {
    this.executing = true;
    const r = this.parser.execute(data);
    this.executing = false;
    if (this.held) {
      // Stopped after a head: what follows it in this chunk stays with it.
      if (typeof r === 'number' && r < data.length) this.held = Buffer.concat([this.held, data.subarray(r)]);
      this.socket.pause();
    } else if (r instanceof Error) {
      this.refuse(r);
      return;
    }
    this.checkAnswered();
    if (this.held && !this.exchange) this.next();
  };

  /**
   * The client's bytes do not parse (a bad head, or a bad chunk in a body being forwarded): 400
   * (431 for a head too large) when no answer has started, then the connection closes. A body
   * being forwarded is cut off ('aborted'): the back-end connection it was going to is closed.
   */
  private refuse(err: ParseError): void {
    const ex = this.exchange;
    if (this.socket.destroyed || ex?.res.headersSent) {
      this.socket.destroy();
      return;
    }
    if (ex) ex.res.refused();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    this.socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    if (ex && !ex.req.complete) {
      ex.req.emit('aborted');
      ex.req.destroy();
    }
  }

  private readonly onEnd = (): void => {
    if (!this.exchange) this.socket.end();
  };

  private readonly onClose = (): void => {
    this.gone = true;
    this.forget(this);
    const ex = this.exchange;
    this.exchange = undefined;
    if (ex) {
      if (!ex.req.complete) {
        ex.req.emit('aborted');
        ex.req.destroy();
      }
      if (!ex.res.writableFinished) ex.res.emit('close');
    }
    this.parser.close();
  };

  /** The handler ended the answer. */
  answered(res: DirectResponse): void {
    if (this.exchange?.res !== res) return;
    // Inside the parser's callback (an answer made at once): decided when it returns.
    if (!this.executing) this.checkAnswered();
  }

  private checkAnswered(): void {
    const ex = this.exchange;
    if (!ex?.res.writableEnded) return;
    if (ex.res.closeAfter || !ex.req.complete) {
      // Asked to close, or the body was not read: nothing more on this connection.
      this.socket.end();
      process.nextTick(() => ex.res.emit('close'));
      return;
    }
    this.exchange = undefined;
    this.since = Date.now();
    this.idleBytes = -1;
    this.headSeen = 0;
    process.nextTick(() => ex.res.emit('close'));
    if (this.held) process.nextTick(() => this.next());
    // A body whose last chunk filled the request's buffer paused the socket (kOnBody), and an
    // ended Readable never asks `_read` again: without this the next request on the connection
    // would never be read (a large WebDAV PUT followed by anything on the same connection hung).
    else this.socket.resume();
  }

  /** Go on with held bytes: parse them here, or hand the socket over. */
  private next(): void {
    const held = this.held;
    if (!held || this.exchange || this.gone) return;
    this.held = undefined;
    if (this.handOverNext) {
      this.socket.off('data', this.onData);
      this.socket.off('end', this.onEnd);
      this.socket.off('close', this.onClose);
      this.forget(this);
      this.parser.close();
      this.socket.unshift(held);
      this.handOver(this.socket);
      process.nextTick(() => this.socket.resume());
      return;
    }
    // After a stop the parser is in upgrade state: start it afresh on the held head.
    this.parser.initialize(HTTPParser.REQUEST, {}, 0, HTTPParser.kLenientNone);
    this.socket.resume();
    this.onData(held);
  }

  /**
   * Checked by the sweep: idle too long, a head not whole within `headerMs` of its first bytes
   * (however slowly they trickle), or a request that never finishes arriving.
   */
  stale(now: number, headerMs: number, requestMs = REQUEST_MS): boolean {
    const ex = this.exchange;
    if (!ex) {
      if (this.headSeen === 0) {
        const read = this.socket.bytesRead;
        if (this.idleBytes < 0) this.idleBytes = read;
        else if (read !== this.idleBytes) this.headSeen = now;
      }
      if (this.headSeen !== 0 && now - this.headSeen > headerMs) return true;
      return now - this.since > KEEP_ALIVE_MS;
    }
    return !ex.req.complete && now - ex.started > requestMs;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** The direct path of one listener: its connections and their timeouts. */
export class DirectPath {
  private readonly connections = new Set<DirectConnection>();
  private sweeper?: NodeJS.Timeout;

  /** `headerMs`: a request head must arrive whole within this long (the settings' header time-out). */
  constructor(
    private readonly host: DirectHost,
    private readonly headerMs: () => number = () => KEEP_ALIVE_MS,
    /** A request (head and body) must be whole within this long. */
    private readonly requestMs: () => number = () => REQUEST_MS,
  ) {}

  take(socket: net.Socket, handOver: HandOver): void {
    const conn = new DirectConnection(socket, this.host, handOver, (c) => this.connections.delete(c));
    this.connections.add(conn);
    // Often enough for a short header time-out to hold within a second or so.
    this.sweeper ??= setInterval(() => this.sweep(), Math.min(SWEEP_MS, this.headerMs() / 2)).unref();
  }

  private sweep(): void {
    const now = Date.now();
    const headerMs = this.headerMs();
    const requestMs = this.requestMs();
    for (const c of this.connections) if (c.stale(now, headerMs, requestMs)) c.destroy();
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
