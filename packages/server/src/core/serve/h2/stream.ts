// One HTTP/2 request as handlers see it: StreamRequest (a ServeRequest, request.ts, plus the
// body stream) and StreamResponse (a ServeResponse, as directHttp1.ts offers for HTTP/1.1).
// The response object is also the stream's state in the session (session.ts): its send window,
// queued data and whether each side has ended.
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { Readable } from 'node:stream';
import { CANCEL, CONNECTION_SPECIFIC, NO_ERROR } from './frames.js';
import { encodeAnswer } from './hpack.js';

/** What a stream needs of its connection (H2Session). */
export interface StreamHost {
  /** Queue the stream's head (and data) for sending; `flush` sends what the windows allow. */
  flush(s: StreamResponse): void;
  /** Send RST_STREAM with `code` and close the stream. */
  reset(s: StreamResponse, code: number): void;
  /** The request body was read from: acknowledge what was consumed (WINDOW_UPDATE). */
  consumed(s: StreamResponse): void;
  /** The handler of a stream that was closed under it has ended its answer. */
  released(s: StreamResponse): void;
  /** Whether the connection's socket is full (every stream then reports back-pressure). */
  readonly socketBlocked: boolean;
}

/** Bytes queued per stream (waiting for flow control) before write() asks the writer to wait. */
export const STREAM_HIGH_WATER = 64 * 1024;

/** A request body: DATA frames pushed in by the session; reading it opens the peer's window. */
export class RequestBody extends Readable {
  constructor(private readonly owner: StreamResponse) {
    super({ highWaterMark: 64 * 1024 });
  }

  override _read(): void {
    this.owner.host.consumed(this.owner);
  }
}

/** An empty, ended body for requests that sent END_STREAM with their headers. */
function endedBody(): Readable {
  const r = new Readable({ read() {} });
  r.push(null);
  return r;
}

/** The request as handlers read it; `headers` keeps the pseudo-headers, as node's HTTP/2 objects do. */
export class StreamRequest {
  readonly httpVersion = '2.0';
  private emptyBody: Readable | undefined;

  constructor(
    readonly method: string,
    /** Written once by the handler with the canonical target (see ServeRequest.url). */
    public url: string,
    readonly headers: Record<string, string>,
    readonly socket: net.Socket,
    private readonly res: StreamResponse,
  ) {}

  /** The body stream (made on demand for requests without one). */
  get body(): Readable {
    if (this.res.body) return this.res.body;
    this.emptyBody ??= endedBody();
    return this.emptyBody;
  }

  get readableDidRead(): boolean {
    return this.res.body?.readableDidRead ?? false;
  }
}

/** The response as handlers write it; also the stream's state for the session. */
export class StreamResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;

  // Sending (session.ts reads and updates these).
  /** The encoded head not yet sent, with FRAME_HEADER bytes of room in front. */
  head: Buffer | null = null;
  queue: Buffer[] = [];
  queued = 0;
  sendWindow: number;
  endSent = false;
  wantDrain = false;

  // Receiving.
  body: RequestBody | null = null;
  remoteEnded = false;
  recvWindow: number;
  /** Bytes taken in and not acknowledged yet by a WINDOW_UPDATE. */
  recvUnacked = 0;
  /** Bytes pushed beyond the body's buffer: acknowledged once the reader asks for more. */
  recvHeld = 0;
  /** The request's content-length, or -1. */
  declaredLength = -1;
  received = 0;

  closed = false;
  /** An extended CONNECT (RFC 8441): each side ends on its own, our end does not reset theirs. */
  tunnel = false;
  /** The handler has the stream (from then on a reset does not end the work it started). */
  handled = false;
  /** When the request came, and since when the answer waits for the peer's window (session clock). */
  openedAt = 0;
  stalledSince = 0;

  constructor(
    readonly id: number,
    readonly host: StreamHost,
    readonly isHead: boolean,
    sendWindow: number,
    recvWindow: number,
  ) {
    super();
    this.sendWindow = sendWindow;
    this.recvWindow = recvWindow;
  }

  /** Whether the whole answer went out (false for a stream that was reset or cut off). */
  get writableFinished(): boolean {
    return this.endSent;
  }

  get writableNeedDrain(): boolean {
    return this.queued >= STREAM_HIGH_WATER || this.host.socketBlocked;
  }

  /** node's ServerResponse has `stream` on HTTP/2; here the response is the stream. */
  get stream(): this {
    return this;
  }

  writeHead(status: number, headers: Record<string, string | string[] | number | undefined> = {}): this {
    if (this.headersSent) throw new Error('the answer head was already written');
    this.statusCode = status;
    const fields: Array<[string, string]> = [];
    for (const key in headers) {
      const v = headers[key];
      if (v === undefined) continue;
      const name = key.toLowerCase();
      if (CONNECTION_SPECIFIC.has(name)) continue;
      if (Array.isArray(v)) for (const one of v) fields.push([name, String(one)]);
      else fields.push([name, typeof v === 'string' ? v : String(v)]);
    }
    this.headersSent = true;
    if (this.closed) return this;
    this.head = encodeAnswer(status, fields);
    // Sent with the first data or the end, or at the end of this tick (session.ts).
    this.host.flush(this);
    return this;
  }

  write(chunk: Buffer | string): boolean {
    if (this.writableEnded) return false;
    // Closed under the handler (reset): what it writes is dropped, and it is not asked to wait
    // for a 'drain' that would never come, so it runs to its end (and frees its slot).
    if (this.closed) return true;
    if (!this.headersSent) this.writeHead(this.statusCode);
    // An answer to HEAD has no body, whatever the handler writes.
    if (this.isHead || !chunk.length) return true;
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.queue.push(buf);
    this.queued += buf.length;
    this.host.flush(this);
    const ok = !this.writableNeedDrain;
    if (!ok) this.wantDrain = true;
    return ok;
  }

  end(chunk?: Buffer | string): this {
    if (this.writableEnded) return this;
    if (!this.headersSent) this.writeHead(this.statusCode);
    this.writableEnded = true;
    if (this.closed) {
      this.host.released(this);
      return this;
    }
    if (chunk?.length && !this.isHead) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      this.queue.push(buf);
      this.queued += buf.length;
    }
    this.host.flush(this);
    return this;
  }

  /** Cut the answer off (RST_STREAM CANCEL): the client sees the stream fail. */
  destroy(): void {
    if (!this.closed) this.host.reset(this, CANCEL);
    else this.host.released(this);
  }

  /** Close the stream without an answer (RST_STREAM NO_ERROR), as node's Http2Stream.close(). */
  close(code = NO_ERROR): void {
    if (!this.closed) this.host.reset(this, code);
    else this.host.released(this);
  }
}
