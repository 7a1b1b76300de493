// HTTP/2 requests served on node:http2's core API ('stream' events) instead of its compatibility
// layer. Why: Http2ServerRequest and Http2ServerResponse are two more stream objects per request
// on top of the Http2Stream; a plain h2 server answering a small body did 39k req/s with them
// and 58k on the core API (h2load, 16 connections × 10 streams, one core). Handlers get the
// request fields and response calls they use (as with directHttp1.ts); the Http2Stream itself
// is the request body. HTTP/1.1 over TLS on the same server still goes through node:http.
import { EventEmitter } from 'node:events';
import type http2 from 'node:http2';
import type net from 'node:net';
import type { Readable } from 'node:stream';

/** Headers a response may not carry over HTTP/2 (RFC 9113 §8.2.2); node throws on them. */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** The request as handlers read it; `headers` keeps the pseudo-headers, as node's compat layer does. */
export class StreamRequest {
  readonly httpVersion = '2.0';
  readonly method: string;
  readonly url: string;

  constructor(
    readonly stream: http2.ServerHttp2Stream,
    readonly headers: http2.IncomingHttpHeaders,
    readonly socket: net.Socket,
  ) {
    this.method = String(headers[':method']);
    this.url = String(headers[':path']);
  }

  get readableDidRead(): boolean {
    return this.stream.readableDidRead;
  }
}

/** The body of a request for the back-end client: the stream for HTTP/2, else the request itself. */
export function bodyOf(req: object): Readable {
  return (req instanceof StreamRequest ? req.stream : req) as Readable;
}

/** The response as handlers write it (the ServerResponse calls they make). */
export class StreamResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;

  constructor(
    readonly stream: http2.ServerHttp2Stream,
    private readonly isHead: boolean,
  ) {
    super();
    stream.on('drain', () => this.emit('drain'));
    stream.once('close', () => this.emit('close'));
    // A reset or a failed write: the handler learns it from 'close' (writableFinished false).
    stream.on('error', () => undefined);
  }

  /**
   * Whether the whole answer went out. Only after our own end(): a stream the client reset
   * reads as writable-finished in node, which would hide that the answer was cut off.
   */
  get writableFinished(): boolean {
    return this.writableEnded && this.stream.writableFinished;
  }

  get writableNeedDrain(): boolean {
    return this.stream.writableNeedDrain;
  }

  writeHead(status: number, headers: Record<string, string | string[] | number | undefined> = {}): this {
    if (this.headersSent) throw new Error('the answer head was already written');
    this.statusCode = status;
    const out: http2.OutgoingHttpHeaders = { ':status': status };
    for (const name in headers) {
      const v = headers[name];
      if (v !== undefined && !CONNECTION_SPECIFIC.has(name)) out[name] = v;
    }
    this.headersSent = true;
    if (!this.stream.destroyed) this.stream.respond(out);
    return this;
  }

  write(chunk: Buffer | string): boolean {
    if (this.writableEnded || this.stream.destroyed) return false;
    if (!this.headersSent) this.writeHead(this.statusCode);
    // An answer to HEAD has no body, whatever the handler writes.
    if (this.isHead || !chunk.length) return true;
    return this.stream.write(chunk);
  }

  end(chunk?: Buffer | string): this {
    if (this.writableEnded) return this;
    if (!this.headersSent) this.writeHead(this.statusCode);
    this.writableEnded = true;
    if (this.stream.destroyed) return this;
    if (chunk?.length && !this.isHead) this.stream.end(chunk);
    else this.stream.end();
    return this;
  }

  destroy(): void {
    this.stream.destroy();
  }
}

/**
 * The 'stream' listener for an http2 server: handlers get a StreamRequest and StreamResponse.
 * A request without :path (CONNECT) is refused here: nothing behind the router serves it.
 */
export function streamListener(onRequest: (req: StreamRequest, res: StreamResponse) => void) {
  return (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void => {
    const socket = stream.session?.socket as net.Socket | undefined;
    if (!socket || headers[':path'] === undefined) {
      stream.on('error', () => undefined);
      if (!stream.destroyed) stream.respond({ ':status': 405 }, { endStream: true });
      return;
    }
    onRequest(new StreamRequest(stream, headers, socket), new StreamResponse(stream, headers[':method'] === 'HEAD'));
  };
}
