// node's HTTP/1 parser (llhttp, the one node:http uses), from node:_http_common. Present with
// this shape since Node 12 and unchanged through 24. Used by the back-end client (answers) and
// the direct HTTP/1.1 path (requests): the parsing is node's own, only the objects around it are ours.
import { createRequire } from 'node:module';

export interface Llhttp {
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void;
  /** Bytes parsed, or an error (`code` HPE_*, `bytesParsed`). */
  execute(data: Buffer): number | ParseError;
  finish(): number | ParseError | undefined;
  close(): void;
  [callback: number]: unknown;
}

export interface ParseError extends Error {
  code: string;
  reason?: string;
  bytesParsed?: number;
}

interface LlhttpClass {
  new (): Llhttp;
  REQUEST: number;
  RESPONSE: number;
  /** Called at a message's first byte (Node ≥ 18; older ones never call it). */
  kOnMessageBegin: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
  kLenientNone: number;
}

const common = createRequire(import.meta.url)('_http_common') as { HTTPParser: LlhttpClass; methods: string[] };

export const HTTPParser = common.HTTPParser;
/** Method names by llhttp's method index. */
export const METHODS = common.methods;

/**
 * kOnHeadersComplete's return value: 0 = go on with the body, 1 = no body follows (HEAD),
 * 2 = stop after this head, the rest is not HTTP for this parser (upgrade, or hand over).
 */
export const SKIP_BODY = 1;
export const STOP_AFTER_HEAD = 2;

/** Characters that would split a head (response splitting, request smuggling): never written. */
export const SPLITS_HEAD = /[\r\n\0]/;

/** One message head as the parser reports it. */
export interface Head {
  major: number;
  minor: number;
  /** [name, value, …] as sent. */
  raw: string[];
  /** Requests only. */
  method: string;
  url: string;
  /** Answers only. */
  status: number;
  upgrade: boolean;
  keepAlive: boolean;
}

/**
 * Calls `onHead` with each message head; its return value goes back to the parser (0,
 * SKIP_BODY or STOP_AFTER_HEAD). A long head arrives in pieces first: they are put together.
 */
export function onHeads(parser: Llhttp, onHead: (head: Head) => number): void {
  let pieces: string[] = [];
  let urlPieces = '';
  parser[HTTPParser.kOnHeaders] = (headers: string[], url: string) => {
    for (const h of headers) pieces.push(h);
    urlPieces += url;
  };
  parser[HTTPParser.kOnHeadersComplete] = (
    major: number,
    minor: number,
    headers: string[] | undefined,
    method: number,
    url: string | undefined,
    status: number,
    _message: string,
    upgrade: boolean,
    keepAlive: boolean,
  ) => {
    const head: Head = {
      major,
      minor,
      raw: headers ?? pieces,
      method: METHODS[method],
      url: url || urlPieces,
      status,
      upgrade,
      keepAlive,
    };
    if (!headers) pieces = [];
    urlPieces = '';
    return onHead(head);
  };
}

/** A parser for one connection, strict (no lenient flags), node's default header size limit. */
export function newParser(type: number): Llhttp {
  const parser = new HTTPParser();
  parser.initialize(type, {}, 0, HTTPParser.kLenientNone);
  return parser;
}
