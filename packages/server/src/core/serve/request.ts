// The one request / response interface of the serving toolkit: what handlers read and write,
// whichever engine carries the request. Three engines make these objects, each its own (no
// wrapper per request): node:http (IncomingMessage / ServerResponse: HTTP/1.0, upgrades, TLS
// HTTP/1.1, and everything when node's parser fails its self-test), the direct HTTP/1.1 path
// (directHttp1.ts: DirectRequest or BodilessRequest, DirectResponse) and the HTTP/2 engine
// (h2/stream.ts: StreamRequest, StreamResponse). All of them satisfy these interfaces
// structurally (`EngineObjects` below fails to compile when one does not).
import type http from 'node:http';
import type net from 'node:net';
import { Readable } from 'node:stream';
import type { BodilessRequest, DirectRequest, DirectResponse } from './directHttp1.js';
import { StreamRequest, type StreamResponse } from './h2/stream.js';

/** Request headers by lower-case name; an HTTP/2 request keeps its pseudo-headers (`:authority`, …). */
export type ServeHeaders = http.IncomingHttpHeaders;

/** Answer headers by lower-case name (a list goes out as one field per value). */
export type AnswerHeaders = Record<string, string | string[] | number | undefined>;

export interface ServeRequest {
  readonly method?: string;
  /**
   * The request target. Written once by a handler that puts it in canonical form
   * (core/http/canonicalPath.ts), so that what was checked is what is passed on.
   */
  url?: string;
  /** '1.0', '1.1' or '2.0'. */
  readonly httpVersion: string;
  readonly headers: ServeHeaders;
  /** The connection (a TLSSocket over TLS; for HTTP/2 the connection every stream shares). */
  readonly socket: net.Socket;
  /** Whether the body has been read from (a request whose body was read cannot be sent again). */
  readonly readableDidRead: boolean;
}

export interface ServeResponse {
  statusCode: number;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  /** The whole answer went out (false for one that was cut off). */
  readonly writableFinished: boolean;
  writeHead(status: number, headers?: AnswerHeaders): this;
  /** false: the client is slow, wait for 'drain'. */
  write(chunk: Buffer | string): boolean;
  end(chunk?: Buffer | string): this;
  /** Cut the answer off (the connection, or on HTTP/2 the stream). */
  destroy(): void;
  /** 'close' (once per answer, finished or not) and 'drain'. */
  on(event: 'close' | 'drain', listener: () => void): this;
  once(event: 'close' | 'drain', listener: () => void): this;
  /** Buffer the writes of this tick into one (node:http's response; the others do it themselves). */
  cork?(): void;
  uncork?(): void;
  /** HTTP/2 only: the stream, which `close()` ends without an answer (RST_STREAM NO_ERROR). */
  readonly stream?: { close(): void };
}

export type ServeHandler = (req: ServeRequest, res: ServeResponse) => void;

/**
 * The request body as a stream: the HTTP/2 stream's body, else the request itself (node's and the
 * direct path's requests are Readables). null for a BodilessRequest, which has no body to read.
 */
export function bodyOf(req: ServeRequest): Readable | null {
  if (req instanceof StreamRequest) return req.body;
  return req instanceof Readable ? req : null;
}

/** Every engine's objects are a ServeRequest / ServeResponse (checked when this compiles). */
type Is<T extends U, U> = T;
export type EngineObjects = [
  Is<http.IncomingMessage | DirectRequest | BodilessRequest | StreamRequest, ServeRequest>,
  Is<http.ServerResponse | DirectResponse | StreamResponse, ServeResponse>,
];
