// Tools for the message-framing attack corpus (framing.test.ts): a back end that parses every
// request itself, strictly, and logs it with its body, so a smuggled request is visible; a raw
// HTTP/1.x client that writes exactly the bytes it is given; a raw HTTP/2 client (h2c or TLS)
// that sends fields a real client library refuses to send.
import net from 'node:net';
import tls from 'node:tls';
import { HpackDecoder } from '../../src/core/serve/h2/hpack.js';
import { frame as h2frame, hpackStr, PREFACE } from '../h2-wire.js';

export interface Seen {
  /** Which back-end connection carried it (1, 2, …). */
  conn: number;
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: string;
}

/** An answer the back end writes for a path instead of its JSON echo; `close` ends the connection after it. */
export type Script = (req: Seen) => { raw: string; close?: boolean };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * A raw node:net back end with its own strict HTTP/1.1 request parser (RFC 9112): CRLF only, no
 * obs-fold, token names, one Content-Length of digits, Transfer-Encoding exactly "chunked" and
 * never with Content-Length, strict chunk lines. Anything else is logged in `errors` and the
 * connection closes. Each request is logged in `seen` and answered with JSON
 * {path, method, body, conn} (keep-alive), unless a script answers its path.
 */
export class LogBackend {
  readonly seen: Seen[] = [];
  readonly errors: string[] = [];
  readonly scripts = new Map<string, Script>();
  /** Connections the proxy closed (by id). */
  readonly closedConns = new Set<number>();
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private conns = 0;
  port = 0;

  constructor() {
    this.server = net.createServer((socket) => this.serve(socket));
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((r) => this.server.close(() => r()));
  }

  private serve(socket: net.Socket): void {
    const conn = ++this.conns;
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.closedConns.add(conn);
    });
    let buf = Buffer.alloc(0);
    const fail = (why: string) => {
      this.errors.push(`conn ${conn}: ${why}`);
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      socket.removeAllListeners('data');
    };
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const r = parseRequest(buf);
        if (r === undefined) {
          if (buf.length > 256 * 1024) fail('request too large');
          return;
        }
        if (typeof r === 'string') return fail(r);
        buf = buf.subarray(r.used);
        const seen: Seen = { conn, ...r.req };
        this.seen.push(seen);
        const script = this.scripts.get(seen.path);
        if (script) {
          const { raw, close } = script(seen);
          if (close) {
            socket.end(Buffer.from(raw, 'latin1'));
            socket.removeAllListeners('data');
            return;
          }
          socket.write(Buffer.from(raw, 'latin1'));
        } else {
          const json = JSON.stringify({ path: seen.path, method: seen.method, body: seen.body, conn });
          socket.write(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
          );
        }
      }
    });
  }
}

/** One request from the front of `buf`: undefined = incomplete, a string = why it is malformed. */
function parseRequest(buf: Buffer): { used: number; req: Omit<Seen, 'conn'> } | string | undefined {
  const end = buf.indexOf('\r\n\r\n');
  const text = buf.subarray(0, end < 0 ? buf.length : end).toString('latin1');
  if (/(^|[^\r])\n/.test(text)) return 'bare LF in the head';
  if (/\r(?!\n)/.test(text.slice(0, -1))) return 'bare CR in the head';
  if (end < 0) return undefined;
  const lines = text.split('\r\n');
  const line = /^([A-Z]+) (\/\S*|\*) HTTP\/1\.1$/.exec(lines[0]);
  if (!line) return `bad request line ${JSON.stringify(lines[0])}`;
  const headers: Array<[string, string]> = [];
  for (const l of lines.slice(1)) {
    if (/^[ \t]/.test(l)) return 'obs-fold';
    const colon = l.indexOf(':');
    const name = l.slice(0, colon);
    const value = l.slice(colon + 1).trim();
    if (colon <= 0 || !TOKEN.test(name)) return `bad field name ${JSON.stringify(name)}`;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if ((c < 0x20 && c !== 0x09) || c === 0x7f) return `control character in ${name}`;
    }
    headers.push([name.toLowerCase(), value]);
  }
  const cls = headers.filter(([n]) => n === 'content-length');
  const tes = headers.filter(([n]) => n === 'transfer-encoding');
  if (cls.length && tes.length) return 'Content-Length with Transfer-Encoding';
  if (cls.length > 1) return 'two Content-Length fields';
  if (tes.length > 1 || (tes.length && tes[0][1].toLowerCase() !== 'chunked')) return `Transfer-Encoding ${tes[0][1]}`;
  if (!headers.some(([n]) => n === 'host')) return 'no Host';
  let at = end + 4;
  let body: Buffer;
  if (cls.length) {
    if (!/^\d{1,15}$/.test(cls[0][1])) return `Content-Length ${cls[0][1]}`;
    const n = Number(cls[0][1]);
    if (buf.length < at + n) return undefined;
    body = buf.subarray(at, at + n);
    at += n;
  } else if (tes.length) {
    const parts: Buffer[] = [];
    for (;;) {
      const eol = buf.indexOf('\r\n', at);
      if (eol < 0) return buf.length - at > 32 ? 'chunk size line too long' : undefined;
      const size = buf.subarray(at, eol).toString('latin1');
      if (!/^[0-9a-fA-F]{1,8}$/.test(size)) return `chunk size line ${JSON.stringify(size)}`;
      const n = parseInt(size, 16);
      if (n === 0) {
        if (buf.length < eol + 4) return undefined;
        if (buf.subarray(eol + 2, eol + 4).toString('latin1') !== '\r\n') return 'trailer fields';
        at = eol + 4;
        break;
      }
      if (buf.length < eol + 2 + n + 2) return undefined;
      parts.push(buf.subarray(eol + 2, eol + 2 + n));
      if (buf.subarray(eol + 2 + n, eol + 4 + n).toString('latin1') !== '\r\n') return 'chunk without CRLF';
      at = eol + 4 + n;
    }
    body = Buffer.concat(parts);
  } else body = Buffer.alloc(0);
  return { used: at, req: { method: line[1], path: line[2], headers, body: body.toString('latin1') } };
}

// ---- raw HTTP/1.x client ----

export interface RawAnswer {
  /** 0 = no answer (closed or timed out before a whole head). */
  status: number;
  head: string;
  body: string;
  /** The whole answer (as framed) arrived. */
  complete: boolean;
  closed: boolean;
}

export type Transport = 'plain' | 'tls';

export function connect(port: number, transport: Transport, servername: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s =
      transport === 'tls'
        ? tls.connect(
            { port, host: '127.0.0.1', servername, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] },
            () => resolve(s),
          )
        : net.connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/**
 * Write `raw` on a new connection and read the first final answer (1xx skipped), framed by its
 * own Content-Length / chunked / close; `head` = it was a HEAD. Resolves at the latest after `ms`.
 */
export async function rawRequest(
  port: number,
  transport: Transport,
  servername: string,
  raw: string | Buffer,
  opts: { head?: boolean; ms?: number } = {},
): Promise<RawAnswer> {
  const socket = await connect(port, transport, servername);
  socket.on('error', () => undefined);
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let closed = false;
    const finish = (a: RawAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(a);
    };
    const check = () => {
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return closed ? finish({ status: 0, head: '', body: '', complete: false, closed }) : undefined;
        const head = buf.subarray(0, end).toString('latin1');
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
        if (status >= 100 && status < 200) {
          buf = buf.subarray(end + 4);
          continue;
        }
        const rest = buf.subarray(end + 4);
        const cl = /\r\ncontent-length: *(\d+)/i.exec(head);
        const chunked = /\r\ntransfer-encoding: *chunked/i.test(head);
        if (opts.head || status === 204 || status === 304)
          return finish({ status, head, body: '', complete: true, closed });
        if (cl) {
          const n = Number(cl[1]);
          if (rest.length >= n)
            return finish({ status, head, body: rest.subarray(0, n).toString('latin1'), complete: true, closed });
        } else if (chunked) {
          const body = dechunk(rest);
          if (body !== undefined) return finish({ status, head, body, complete: true, closed });
        } else if (closed) return finish({ status, head, body: rest.toString('latin1'), complete: true, closed });
        if (closed) return finish({ status, head, body: rest.toString('latin1'), complete: false, closed });
        return;
      }
    };
    const timer = setTimeout(() => {
      closed = true;
      check();
    }, opts.ms ?? 4000);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      check();
    });
    socket.on('close', () => {
      closed = true;
      check();
    });
    socket.write(raw);
  });
}

/** A whole chunked body, or undefined while incomplete. */
function dechunk(b: Buffer): string | undefined {
  let at = 0;
  let out = '';
  for (;;) {
    const eol = b.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const n = parseInt(b.subarray(at, eol).toString('latin1'), 16);
    if (Number.isNaN(n)) return undefined;
    if (n === 0) return b.length >= eol + 4 ? out : undefined;
    if (b.length < eol + 2 + n + 2) return undefined;
    out += b.subarray(eol + 2, eol + 2 + n).toString('latin1');
    at = eol + 4 + n;
  }
}

// ---- raw HTTP/2 client: one request per connection ----

/** A header block of literal fields, never indexed, no Huffman: any name or value as given. */
export function hpackBlock(fields: Array<[string, string]>): Buffer {
  return Buffer.concat(fields.flatMap(([name, value]) => [Buffer.from([0x10]), hpackStr(name), hpackStr(value)]));
}

export interface H2Answer {
  status: number;
  body: string;
  /** RST_STREAM code, or GOAWAY code when the connection ended instead. */
  reset?: number;
}

/** One request on a new h2c (or h2 over TLS) connection: fields, then each DATA payload (the last ends the stream unless `open`). */
export async function h2Request(
  port: number,
  secure: boolean,
  fields: Array<[string, string]>,
  data: Buffer[],
  opts: { open?: boolean; ms?: number } = {},
): Promise<H2Answer> {
  const socket: net.Socket = await new Promise((resolve, reject) => {
    const s = secure
      ? tls.connect(
          { port, host: '127.0.0.1', servername: 'framing.test', rejectUnauthorized: false, ALPNProtocols: ['h2'] },
          () => resolve(s),
        )
      : net.connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  socket.on('error', () => undefined);
  const decoder = new HpackDecoder();
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    const answer: H2Answer = { status: 0, body: '' };
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(finish, opts.ms ?? 4000);
    socket.on('close', finish);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 9) {
        const len = buf.readUIntBE(0, 3);
        if (buf.length < 9 + len) break;
        const type = buf[3];
        const flags = buf[4];
        const id = buf.readUInt32BE(5) & 0x7fffffff;
        const payload = buf.subarray(9, 9 + len);
        buf = buf.subarray(9 + len);
        if (type === 0x4 && !(flags & 1)) socket.write(h2frame(0x4, 1, 0));
        if (id !== 1 && type !== 0x7) continue;
        if (type === 0x1) {
          decoder.decode(payload, (n, v) => {
            if (n === ':status') answer.status = Number(v);
          });
        } else if (type === 0x0) answer.body += payload.toString('latin1');
        else if (type === 0x3) answer.reset = payload.readUInt32BE(0);
        else if (type === 0x7) answer.reset ??= payload.readUInt32BE(4);
        if (type === 0x3 || type === 0x7 || ((type === 0x0 || type === 0x1) && flags & 1)) return finish();
      }
    });
    const frames = [PREFACE, h2frame(0x4, 0, 0), h2frame(0x1, 0x4 | (data.length ? 0 : 1), 1, hpackBlock(fields))];
    data.forEach((d, i) => {
      frames.push(h2frame(0x0, i === data.length - 1 && !opts.open ? 1 : 0, 1, d));
    });
    socket.write(Buffer.concat(frames));
  });
}
