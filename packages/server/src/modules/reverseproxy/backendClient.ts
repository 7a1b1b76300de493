// HTTP/1.1 towards the back ends: keep-alive pools of plain or TLS sockets, answers parsed by
// llhttp — the parser node:http itself uses, see core/serve/llhttp.ts — and handed to the
// proxy as callbacks. Why not undici (used before): on a small proxied request its request
// objects, header arrays and stream plumbing cost about a fifth of the proxy's time (wrk through
// the proxy on 2 cores: +29 % req/s for small answers, +54 % for 10 KiB); the parser is the same.
//
// One request at a time per connection (no pipelining). A connection goes back to its pool only
// when the answer was complete, the request body was all sent and both sides allow keep-alive,
// and nothing unexpected happened on it (see `Connection.unexpected`).
//
// Framing is ours (request smuggling, issue 12 §1): the head never carries a Content-Length or
// Transfer-Encoding given in `headers`; it states `bodyLength` (Content-Length) or, for a body of
// unknown length, `Transfer-Encoding: chunked`, and a length-framed body that turns out longer or
// shorter than stated fails the exchange (the connection is closed, never reused).
import net from 'node:net';
import type { Readable } from 'node:stream';
import tls from 'node:tls';
import {
  HTTPParser,
  type Llhttp,
  newParser,
  onHeads,
  type ParseError,
  SKIP_BODY,
  SPLITS_HEAD,
  STOP_AFTER_HEAD,
} from '../../core/serve/llhttp.js';

/** Per pool: more requests at once wait in line for a connection. */
const MAX_CONNECTIONS = 256;
const CONNECT_TIMEOUT_MS = 5_000;
/** Request sent, no answer head yet: the back end is hung. */
const HEADERS_TIMEOUT_MS = 60_000;
/** Idle keep-alive sockets close before the usual server side timeouts (Node 5 s, Apache 5 s). */
const IDLE_MS = 4_000;
const SWEEP_MS = 1_000;

export type HeaderMap = Record<string, string | string[]>;

export interface BackendRequest {
  method: string;
  path: string;
  headers: HeaderMap;
  /** Sent after the head; null = no body. */
  body: Readable | null;
  /**
   * Content-Length of what is sent (the body must bring exactly this many bytes); without it a
   * body goes chunked and no body goes without framing fields. Framing fields in `headers` are ignored.
   */
  bodyLength?: number;
}

/** What an exchange reports, in this order: connect, headers, data…, complete — or error at any point. */
export interface AnswerHandler {
  /** The exchange has a connection; `abort` tears it down (client gone). */
  onConnect(abort: (err: Error) => void): void;
  /** Final status (≥ 200) with the head as [name, value, …]; `resume` restarts reading after onData said false. */
  onHeaders(status: number, raw: string[], resume: () => void): void;
  /** false = the client is slow: reading stops until `resume`. */
  onData(chunk: Buffer): boolean;
  onComplete(): void;
  onError(err: Error): void;
}

export interface Upgraded {
  raw: string[];
  socket: net.Socket;
  /** Bytes the back end sent after its 101 head. */
  head: Buffer;
}

function codedError(code: string, message: string): NodeJS.ErrnoException {
  const e = new Error(message) as NodeJS.ErrnoException;
  e.code = code;
  return e;
}

/** The request head; throws on values that would break it. The framing fields are made here, from `framing`. */
export function headOf(
  method: string,
  path: string,
  headers: HeaderMap,
  framing?: { body: unknown; bodyLength?: number },
): string {
  if (SPLITS_HEAD.test(path) || path.includes(' ')) throw codedError('EINVALIDREQUEST', 'invalid request path');
  let head = `${method} ${path} HTTP/1.1\r\n`;
  for (const name in headers) {
    // Whoever made `headers` (client fields, custom fields of the rule), the framing is not theirs.
    if (name === 'content-length' || name === 'transfer-encoding') continue;
    const v = headers[name];
    if (typeof v === 'string') {
      if (SPLITS_HEAD.test(v)) throw codedError('EINVALIDREQUEST', `invalid value in header ${name}`);
      head += `${name}: ${v}\r\n`;
    } else {
      for (const one of v) {
        if (SPLITS_HEAD.test(one)) throw codedError('EINVALIDREQUEST', `invalid value in header ${name}`);
        head += `${name}: ${one}\r\n`;
      }
    }
  }
  const length = framing?.bodyLength;
  if (length !== undefined) {
    if (!Number.isSafeInteger(length) || length < 0 || (length > 0 && !framing?.body))
      throw codedError('EINVALIDREQUEST', `invalid request body length ${length}`);
    head += `content-length: ${length}\r\n`;
  } else if (framing?.body) head += 'transfer-encoding: chunked\r\n';
  return `${head}\r\n`;
}

/** One request/answer on one connection. */
interface Exchange {
  req: BackendRequest;
  head: string;
  handler: AnswerHandler;
  /** A fresh connection may be retried elsewhere; a reused one that was closed under us is retried once. */
  reused: boolean;
  sentAt: number;
  answered: boolean;
  /** Inside a 1xx answer (100 Continue, 103 Early Hints): not passed on, the real one follows. */
  informational: boolean;
  keepAlive: boolean;
  bodySent: boolean;
  complete: boolean;
  done: boolean;
  stopBody?: () => void;
}

/** A socket with its parser; `exchange` is set while a request is on it. */
class Connection {
  readonly socket: net.Socket;
  private readonly parser: Llhttp;
  exchange?: Exchange;
  idleSince = 0;
  connected = false;
  /** Back end's own keep-alive timeout hint, ms. */
  idleLimit = IDLE_MS;
  private callbackError?: Error;
  private closed = false;
  /**
   * Something the exchange did not account for happened: bytes after the answer (a body on a
   * HEAD / 204 / 304 answer, a second answer, garbage), bytes while idle, an answer whose
   * Connection field lists its own framing. The answer in hand is still whole and goes to the
   * client, but the connection is closed: what follows on it cannot be trusted to belong to the
   * next request (response poisoning).
   */
  private unexpected = false;

  constructor(
    private readonly pool: BackendPool,
    socket: net.Socket,
  ) {
    this.socket = socket;
    const parser = newParser(HTTPParser.RESPONSE);
    onHeads(parser, (head) => this.onHead(head.raw, head.status, head.keepAlive));
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => {
      const ex = this.exchange;
      if (!ex || ex.done) return;
      try {
        if (!ex.handler.onData(chunk)) socket.pause();
      } catch (err) {
        this.callbackError ??= err as Error;
      }
    };
    parser[HTTPParser.kOnMessageComplete] = () => {
      const ex = this.exchange;
      if (!ex) return;
      if (ex.informational) ex.informational = false;
      else {
        ex.complete = true;
        // From here until the next request is written, a message that begins is a leftover, even
        // one too short for the parser to report anything else. (Set only now: node calls it
        // only when it is a function, which spares a call per answer.)
        parser[HTTPParser.kOnMessageBegin] = this.onLeftover;
      }
    };
    this.parser = parser;
    socket.on('data', (data: Buffer) => {
      // Bytes while no request is out: the back end is out of step.
      if (!this.exchange) {
        this.unexpected = true;
        this.destroy();
        return;
      }
      this.afterParse(parser.execute(data));
    });
    socket.on('end', () => {
      this.afterParse(parser.finish());
      socket.end();
    });
    socket.on('error', (err) => this.close(err));
    socket.on('close', () => this.close());
  }

  private onHead(raw: string[], status: number, keepAlive: boolean): number {
    const ex = this.exchange;
    if (!ex || ex.done || ex.complete) {
      // An answer nobody asked for: the connection is out of step. (After a complete answer, that
      // one still goes to its client; the connection is closed.)
      this.unexpected = true;
      if (!ex?.complete)
        this.callbackError ??= codedError('EBADANSWER', 'the back end sent an answer without a request');
      return SKIP_BODY;
    }
    if (status < 200) {
      ex.informational = true;
      if (status === 101) this.callbackError ??= codedError('EBADANSWER', 'unexpected 101 Switching Protocols');
      return SKIP_BODY;
    }
    ex.answered = true;
    ex.keepAlive = keepAlive;
    this.readConnectionFields(raw);
    try {
      ex.handler.onHeaders(status, raw, () => this.socket.resume());
    } catch (err) {
      this.callbackError ??= err as Error;
    }
    // HEAD: the answer has headers only, whatever Content-Length says.
    return ex.req.method === 'HEAD' ? SKIP_BODY : 0;
  }

  /** Keep-Alive's timeout hint, and a Connection field that lists the answer's own framing (unexpected). */
  private readConnectionFields(raw: string[]): void {
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i].length !== 10) continue;
      const name = raw[i].toLowerCase();
      if (name === 'keep-alive') {
        const m = /timeout=(\d+)/i.exec(raw[i + 1]);
        if (m) this.idleLimit = Math.min(IDLE_MS, Math.max(0, Number(m[1]) * 1000 - 1000));
      } else if (name === 'connection' && LISTS_FRAMING.test(raw[i + 1])) this.unexpected = true;
    }
  }

  private afterParse(result: number | ParseError | undefined): void {
    const ex = this.exchange;
    if (this.callbackError) {
      const err = this.callbackError;
      this.callbackError = undefined;
      this.fail(err);
    } else if (result instanceof Error) {
      // Garbage after a complete answer: the answer is good, the connection is not.
      if (ex?.complete) {
        this.unexpected = true;
        this.finishExchange(ex);
      } else this.fail(codedError('EBADANSWER', `invalid answer from the back end (${result.reason ?? result.code})`));
    } else if (ex?.complete) {
      this.finishExchange(ex);
    }
  }

  private readonly onLeftover = (): void => {
    this.unexpected = true;
  };

  /** Write the request on this connection. */
  start(ex: Exchange): void {
    this.exchange = ex;
    this.parser[HTTPParser.kOnMessageBegin] = undefined;
    const { head } = ex;
    ex.sentAt = Date.now();
    const { socket } = this;
    socket.resume();
    if (!ex.req.body) {
      ex.bodySent = true;
      socket.write(head, 'latin1');
    } else {
      socket.write(head, 'latin1');
      // A fresh connection: wait for it, so that a refused connect fails over with the body unread.
      if (this.connected) this.pumpBody(ex);
      else socket.once(this.pool.secure ? 'secureConnect' : 'connect', () => this.exchange === ex && this.pumpBody(ex));
    }
    try {
      ex.handler.onConnect((err) => this.exchange === ex && this.fail(err));
    } catch (err) {
      this.fail(err as Error);
    }
  }

  private pumpBody(ex: Exchange): void {
    const body = ex.req.body as Readable;
    const { socket } = this;
    const length = ex.req.bodyLength;
    const chunked = length === undefined;
    /** Bytes the Content-Length we sent still allows. */
    let left = length ?? 0;
    const onData = (chunk: Buffer) => {
      if (!chunk.length) return; // an empty chunk would end a chunked body
      let ok: boolean;
      if (!chunked && chunk.length > left) {
        // More than the head said: the rest would be read as the next request (smuggling).
        stop();
        if (this.exchange === ex)
          this.fail(codedError('EBODYLENGTH', `the request body is longer than its Content-Length (${length})`));
        return;
      }
      left -= chunk.length;
      if (chunked) {
        socket.cork();
        socket.write(`${chunk.length.toString(16)}\r\n`, 'latin1');
        socket.write(chunk);
        ok = socket.write('\r\n', 'latin1');
        socket.uncork();
      } else ok = socket.write(chunk);
      if (!ok) body.pause();
    };
    const onDrain = () => body.resume();
    const onEnd = () => {
      stop();
      if (!chunked && left !== 0) {
        // Shorter: the back end would take the next request's bytes as the rest of this body.
        if (this.exchange === ex)
          this.fail(codedError('EBODYLENGTH', `the request body is shorter than its Content-Length (${length})`));
        return;
      }
      if (chunked) socket.write('0\r\n\r\n', 'latin1');
      ex.bodySent = true;
      if (ex.complete && this.exchange === ex) this.finishExchange(ex);
    };
    const onAborted = () => this.exchange === ex && this.fail(codedError('ECLIENTABORT', 'the client went away'));
    const stop = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onAborted);
      body.off('aborted', onAborted);
      socket.off('drain', onDrain);
    };
    ex.stopBody = stop;
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onAborted);
    body.once('aborted', onAborted);
    socket.on('drain', onDrain);
    body.resume();
  }

  private finishExchange(ex: Exchange): void {
    if (ex.done) return;
    ex.done = true;
    this.exchange = undefined;
    ex.stopBody?.();
    // An answer that ended before the body was all sent: the back end stopped reading it.
    if (ex.keepAlive && ex.bodySent && !this.unexpected && !this.closed) this.pool.release(this);
    else this.destroy();
    ex.handler.onComplete();
  }

  /** The exchange ends with `err`; a connection closed under a reused, untouched request is retried once. */
  fail(err: Error): void {
    const ex = this.exchange;
    this.exchange = undefined;
    this.destroy();
    if (!ex || ex.done) return;
    ex.done = true;
    ex.stopBody?.();
    const untouched = !ex.answered && (!ex.req.body || !(ex.req.body as { readableDidRead?: boolean }).readableDidRead);
    const code = (err as NodeJS.ErrnoException).code;
    if (ex.reused && untouched && (code === 'ECONNRESET' || code === 'EPIPE')) {
      this.pool.retry(ex);
      return;
    }
    ex.handler.onError(err);
  }

  private close(err?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.pool.forget(this);
    if (this.exchange) {
      this.fail(err ?? codedError('ECONNRESET', 'the back end closed the connection before the answer was complete'));
    }
    this.parser.close();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Checked by the pool's sweep. */
  expired(now: number): Error | undefined {
    const ex = this.exchange;
    if (ex && !ex.answered && now - ex.sentAt > HEADERS_TIMEOUT_MS) {
      return codedError('EHEADERSTIMEOUT', `no answer within ${HEADERS_TIMEOUT_MS / 1000} s`);
    }
    return undefined;
  }
}

/** A Connection field naming a framing field: hop-by-hop it cannot be, the back end is confused or hostile. */
const LISTS_FRAMING = /content-length|transfer-encoding/i;

/** Connections to one back end (origin + TLS verification). */
export class BackendPool {
  readonly secure: boolean;
  private readonly host: string;
  private readonly port: number;
  private readonly servername?: string;
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly waiting: Exchange[] = [];
  private tlsSession?: Buffer;
  private sweeper?: NodeJS.Timeout;
  private closed = false;

  constructor(
    origin: string,
    private readonly skipVerify: boolean,
  ) {
    const u = new URL(origin);
    this.secure = u.protocol === 'https:';
    this.host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = Number(u.port) || (this.secure ? 443 : 80);
    if (this.secure && net.isIP(this.host) === 0) this.servername = this.host;
  }

  /** Send `req`; the handler hears how it goes. */
  request(req: BackendRequest, handler: AnswerHandler): void {
    let head: string;
    try {
      head = headOf(req.method, req.path, req.headers, req);
    } catch (err) {
      handler.onError(err as Error);
      return;
    }
    if (req.body) req.body.pause();
    this.assign({
      req,
      head,
      handler,
      reused: false,
      sentAt: 0,
      answered: false,
      informational: false,
      keepAlive: false,
      bodySent: false,
      complete: false,
      done: false,
    });
  }

  private assign(ex: Exchange): void {
    if (this.closed) {
      ex.handler.onError(codedError('ECONNABORTED', 'the web service is stopping'));
      return;
    }
    const reuse = this.idle.pop();
    if (reuse) {
      ex.reused = true;
      reuse.start(ex);
      return;
    }
    if (this.all.size >= MAX_CONNECTIONS) {
      this.waiting.push(ex);
      return;
    }
    ex.reused = false;
    this.open().start(ex);
  }

  /** A reused connection was closed under a request that had not started: once more, on a new one. */
  retry(ex: Exchange): void {
    if (this.closed) {
      ex.handler.onError(codedError('ECONNABORTED', 'the web service is stopping'));
      return;
    }
    ex.done = false;
    ex.reused = false;
    this.open().start(ex);
  }

  /** A new socket to the back end (TLS resumes the last session when it has one). */
  private connect(): net.Socket {
    const options = { host: this.host, port: this.port, noDelay: true };
    return this.secure
      ? tls.connect({
          ...options,
          servername: this.servername,
          rejectUnauthorized: !this.skipVerify,
          ALPNProtocols: ['http/1.1'],
          session: this.tlsSession,
        })
      : net.connect(options);
  }

  private open(): Connection {
    const socket = this.connect();
    const conn = new Connection(this, socket);
    this.all.add(conn);
    const timer = setTimeout(
      () => conn.fail(codedError('ETIMEDOUT', `connect timed out after ${CONNECT_TIMEOUT_MS / 1000} s`)),
      CONNECT_TIMEOUT_MS,
    );
    socket.once(this.secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      conn.connected = true;
      socket.setNoDelay(true);
    });
    socket.once('close', () => clearTimeout(timer));
    if (this.secure) socket.on('session', (s: Buffer) => (this.tlsSession = s));
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
    return conn;
  }

  /** An exchange finished cleanly: the connection serves the next one waiting, or idles. */
  release(conn: Connection): void {
    if (this.closed) {
      conn.destroy();
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      next.reused = true;
      // Later, not inside the parser's callback that finished the previous answer.
      process.nextTick(() => conn.start(next));
      return;
    }
    conn.idleSince = Date.now();
    this.idle.push(conn);
  }

  /** The connection closed. */
  forget(conn: Connection): void {
    this.all.delete(conn);
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
    const next = this.waiting.shift();
    if (next) this.assign(next);
  }

  private sweep(): void {
    const now = Date.now();
    for (const conn of this.idle) if (now - conn.idleSince > conn.idleLimit) conn.destroy();
    for (const conn of this.all) {
      const err = conn.expired(now);
      if (err) conn.fail(err);
    }
    if (this.all.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** A WebSocket (or other) upgrade on a connection of its own: resolves on 101, rejects otherwise. */
  upgrade(path: string, headers: HeaderMap): Promise<Upgraded> {
    return new Promise((resolve, reject) => {
      let head: string;
      try {
        head = headOf('GET', path, headers);
      } catch (err) {
        return reject(err);
      }
      const socket = this.connect();
      const parser = newParser(HTTPParser.RESPONSE);
      let answer: { status: number; raw: string[] } | undefined;
      onHeads(parser, ({ status, raw }) => {
        if (status < 200 && status !== 101) return SKIP_BODY;
        answer = { status, raw };
        return status === 101 ? STOP_AFTER_HEAD : SKIP_BODY; // after a 101, the rest is the new protocol
      });
      const done = (err?: Error) => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('error', done);
        socket.off('close', onClose);
        parser.close();
        if (err) {
          socket.destroy();
          reject(err);
        }
      };
      const onClose = () => done(codedError('ECONNRESET', 'the back end closed the connection during the upgrade'));
      const onData = (data: Buffer) => {
        const r = parser.execute(data);
        if (r instanceof Error) return done(codedError('EBADANSWER', `invalid answer from the back end (${r.reason})`));
        if (!answer) return;
        if (answer.status !== 101) {
          return done(codedError('EUPGRADEREFUSED', `the back end answered ${answer.status} to the upgrade`));
        }
        const rest = data.subarray(r);
        done();
        socket.pause();
        resolve({ raw: answer.raw, socket, head: rest });
      };
      const timer = setTimeout(
        () => done(codedError('ETIMEDOUT', `no answer to the upgrade within ${HEADERS_TIMEOUT_MS / 1000} s`)),
        HEADERS_TIMEOUT_MS,
      );
      socket.on('data', onData);
      socket.on('error', done);
      socket.on('close', onClose);
      socket.write(head, 'latin1');
    });
  }

  close(): void {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    for (const ex of this.waiting.splice(0)) {
      ex.handler.onError(codedError('ECONNABORTED', 'the web service is stopping'));
    }
    for (const conn of [...this.all]) conn.destroy();
  }
}
