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

/** A parser for one connection, strict (no lenient flags), node's default header size limit. */
export function newParser(type: number): Llhttp {
  const parser = new HTTPParser();
  parser.initialize(type, {}, 0, HTTPParser.kLenientNone);
  return parser;
}
