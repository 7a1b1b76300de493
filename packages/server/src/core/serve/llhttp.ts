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

type Common = { HTTPParser: LlhttpClass; methods: string[] };

/** node:_http_common, or why it could not be loaded (an internal module: DEP0199 may remove it). */
function loadCommon(): Common | string {
  if (process.env.LUCKY_HTTP1_PARSER === 'node') return 'switched off by LUCKY_HTTP1_PARSER=node';
  try {
    const common = createRequire(import.meta.url)('_http_common') as Partial<Common>;
    if (typeof common.HTTPParser !== 'function' || !Array.isArray(common.methods)) {
      return 'node:_http_common no longer exports HTTPParser and methods';
    }
    return common as Common;
  } catch (err) {
    return `node:_http_common cannot be loaded (${(err as Error).message})`;
  }
}

const loaded = loadCommon();
const common: Common = typeof loaded === 'string' ? { HTTPParser: undefined as never, methods: [] } : loaded;

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

/**
 * Why the direct HTTP/1 path and the llhttp back-end client must not be used on this runtime, or
 * undefined when they may. The parser is node's internal API (documentation-deprecated, DEP0199),
 * so at start-up it must prove it still parses as we expect: a request with a body, a chunked
 * answer, a HEAD-less answer split across reads, and the strictness we rely on against
 * smuggling (Content-Length together with Transfer-Encoding is an error). When it does not,
 * the listener serves HTTP/1 through node:http (listener.ts), and the web service reaches back
 * ends with node:http's client (modules/reverseproxy/nodeHttpBackend.ts): slower, but the same
 * behaviour.
 */
export const llhttpProblem: string | undefined = typeof loaded === 'string' ? loaded : selfTest();

function selfTest(): string | undefined {
  try {
    const req = parseAll(HTTPParser.REQUEST, ['POST /a?b=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nab', 'c']);
    if (req.error || req.heads.length !== 1 || req.body !== 'abc' || req.complete !== 1) return 'request parse';
    const h = req.heads[0];
    if (h.method !== 'POST' || h.url !== '/a?b=1' || h.raw.join('|') !== 'Host|x|Content-Length|3')
      return 'request head';
    const res = parseAll(HTTPParser.RESPONSE, [
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab',
      'c\r\n0\r\n\r\n',
    ]);
    if (res.error || res.heads[0]?.status !== 200 || res.body !== 'abc' || res.complete !== 1) return 'chunked answer';
    const smuggle = parseAll(HTTPParser.REQUEST, [
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ]);
    if (!smuggle.error) return 'Content-Length with Transfer-Encoding was accepted';
    return undefined;
  } catch (err) {
    return `self-test threw (${(err as Error).message})`;
  }
}

function parseAll(
  type: number,
  pieces: string[],
): { heads: Head[]; body: string; complete: number; error?: ParseError } {
  const out: { heads: Head[]; body: string; complete: number; error?: ParseError } = {
    heads: [],
    body: '',
    complete: 0,
  };
  const parser = newParser(type);
  onHeads(parser, (head) => {
    out.heads.push(head);
    return 0;
  });
  parser[HTTPParser.kOnBody] = (chunk: Buffer) => {
    out.body += chunk.toString('latin1');
  };
  parser[HTTPParser.kOnMessageComplete] = () => {
    out.complete++;
  };
  for (const p of pieces) {
    const r = parser.execute(Buffer.from(p, 'latin1'));
    if (r instanceof Error) {
      out.error = r;
      break;
    }
  }
  parser.close();
  return out;
}
