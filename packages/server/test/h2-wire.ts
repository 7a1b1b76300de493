// Raw HTTP/2 on the wire for the tests of the web service's own engine (h2/): frames and HPACK
// built by hand (wire constants written out here rather than taken from the engine), and a
// client that reads every frame the server sends. Shared by reverseproxy.h2.test.ts and the
// attack tests in security/h2.test.ts.
import { createHash } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import net from 'node:net';
import tls from 'node:tls';
import { HpackDecoder } from '../src/core/serve/h2/hpack.js';

// ---- wire constants (RFC 9113 §6, §7), written out here rather than taken from the engine ----

export const DATA = 0x0;
export const HEADERS = 0x1;
export const RST_STREAM = 0x3;
export const SETTINGS = 0x4;
export const PING = 0x6;
export const GOAWAY = 0x7;
export const WINDOW_UPDATE = 0x8;
export const CONTINUATION = 0x9;
export const END_STREAM = 0x1;
export const ACK = 0x1;
export const END_HEADERS = 0x4;
export const PADDED = 0x8;
export const PRIORITY_FLAG = 0x20;
export const TYPE_NAMES = [
  'DATA',
  'HEADERS',
  'PRIORITY',
  'RST_STREAM',
  'SETTINGS',
  'PUSH_PROMISE',
  'PING',
  'GOAWAY',
  'WINDOW_UPDATE',
  'CONTINUATION',
];

export const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
export const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
export const SETTINGS_ENABLE_CONNECT_PROTOCOL = 0x8;

export const NO_ERROR = 0x0;
export const PROTOCOL_ERROR = 0x1;
export const FLOW_CONTROL_ERROR = 0x3;
export const FRAME_SIZE_ERROR = 0x6;
export const REFUSED_STREAM = 0x7;
export const CANCEL = 0x8;
export const ENHANCE_YOUR_CALM = 0xb;

export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
export const MAX_FRAME = 16_384;
export const DEFAULT_WINDOW = 65_535;

// ---- frame builder ----

export function frame(type: number, flags: number, id: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(id, 5);
  return Buffer.concat([head, payload]);
}

export const words = (...w: number[]) => {
  const b = Buffer.alloc(4 * w.length);
  for (let i = 0; i < w.length; i++) b.writeUInt32BE(w[i] >>> 0, 4 * i);
  return b;
};
export const settingsFrame = (pairs: Array<[number, number]>) => {
  const b = Buffer.alloc(6 * pairs.length);
  pairs.forEach(([k, v], i) => {
    b.writeUInt16BE(k, 6 * i);
    b.writeUInt32BE(v, 6 * i + 2);
  });
  return frame(SETTINGS, 0, 0, b);
};
export const headersFrame = (id: number, block: Buffer, flags = END_HEADERS | END_STREAM) =>
  frame(HEADERS, flags, id, block);
export const dataFrame = (id: number, bytes: Buffer | string, end = false) =>
  frame(DATA, end ? END_STREAM : 0, id, Buffer.from(bytes));
export const rstFrame = (id: number, code: number) => frame(RST_STREAM, 0, id, words(code));
export const windowUpdate = (id: number, increment: number) => frame(WINDOW_UPDATE, 0, id, words(increment));
export const pingFrame = (opaque: Buffer) => frame(PING, 0, 0, opaque);

/** A header block cut into HEADERS + CONTINUATION frames of at most `size` bytes. */
export function splitBlock(id: number, block: Buffer, size: number, endStream = true): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < block.length; at += size) {
    const part = block.subarray(at, at + size);
    const last = at + size >= block.length;
    const flags = (last ? END_HEADERS : 0) | (at === 0 && endStream ? END_STREAM : 0);
    out.push(frame(at === 0 ? HEADERS : CONTINUATION, flags, id, part));
  }
  return out;
}

// ---- HPACK encoder (RFC 7541): literals without indexing, no Huffman, a few static entries ----

export function hpackInt(first: number, prefixBits: number, v: number): Buffer {
  const max = (1 << prefixBits) - 1;
  if (v < max) return Buffer.from([first | v]);
  const out = [first | max];
  let rest = v - max;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
  return Buffer.from(out);
}
export const hpackStr = (s: string) => Buffer.concat([hpackInt(0, 7, s.length), Buffer.from(s, 'latin1')]);
/** Literal field without indexing, new name (RFC 7541 §6.2.2). */
export const literal = (name: string, value: string) =>
  Buffer.concat([Buffer.from([0x00]), hpackStr(name), hpackStr(value)]);
/** Literal field without indexing, name from static entry `index`. */
export const literalNamed = (index: number, value: string) => Buffer.concat([hpackInt(0, 4, index), hpackStr(value)]);
export const M_GET = Buffer.from([0x82]);
export const M_POST = Buffer.from([0x83]);
export const SCHEME_HTTP = Buffer.from([0x86]);
export const pathField = (p: string) => literalNamed(4, p);
export const authorityField = (a: string) => literalNamed(1, a);
export const block = (...parts: Buffer[]) => Buffer.concat(parts);
/** GET `path` on `authority`, with optional further fields. */
export const getBlock = (authority: string, p = '/', ...extra: Buffer[]) =>
  block(M_GET, SCHEME_HTTP, pathField(p), authorityField(authority), ...extra);
export const postBlock = (authority: string, p: string, ...extra: Buffer[]) =>
  block(M_POST, SCHEME_HTTP, pathField(p), authorityField(authority), ...extra);

// ---- frame reader: one raw h2c connection ----

export interface Frame {
  type: number;
  flags: number;
  id: number;
  payload: Buffer;
  /** The decoded header block (HEADERS, with its CONTINUATION frames). */
  fields?: Array<[string, string]>;
}

export interface Answer {
  status: number;
  fields: Array<[string, string]>;
  body: Buffer;
  /** RST_STREAM error code, when the stream was reset instead. */
  reset?: number;
}

export const clients = new Set<H2Client>();

export class H2Client {
  readonly frames: Frame[] = [];
  closed = false;
  /** DATA bytes sent on the connection (for our view of the server's receive window). */
  private connSent = 0;
  private pending = Buffer.alloc(0);
  private readonly decoder = new HpackDecoder();
  private headerBlock: { frame: Frame; parts: Buffer[] } | null = null;
  private readonly changed = new EventEmitter();

  private constructor(readonly socket: net.Socket) {
    clients.add(this);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.changed.emit('change');
    });
  }

  /**
   * Connect; unless `raw`, send the preface and SETTINGS (`settings`), wait for the server's
   * SETTINGS and acknowledge them.
   */
  static async open(
    port: number,
    opts: { settings?: Array<[number, number]>; raw?: boolean; tls?: boolean; servername?: string } = {},
  ) {
    const socket = opts.tls
      ? tls.connect({
          port,
          host: '127.0.0.1',
          servername: opts.servername,
          ALPNProtocols: ['h2'],
          rejectUnauthorized: false,
        })
      : net.connect(port, '127.0.0.1');
    const c = new H2Client(socket);
    await once(socket, opts.tls ? 'secureConnect' : 'connect');
    if (opts.raw) return c;
    c.send(PREFACE, settingsFrame(opts.settings ?? []));
    await c.frame((f) => f.type === SETTINGS && !(f.flags & ACK), 'server SETTINGS');
    c.send(frame(SETTINGS, ACK, 0));
    return c;
  }

  send(...bufs: Buffer[]): void {
    this.socket.write(Buffer.concat(bufs));
  }

  destroy(): void {
    this.socket.destroy();
    clients.delete(this);
  }

  private onData(chunk: Buffer): void {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (buf.length >= 9) {
      const length = buf.readUIntBE(0, 3);
      if (buf.length < 9 + length) break;
      this.onFrame({
        type: buf[3],
        flags: buf[4],
        id: buf.readUInt32BE(5) & 0x7fffffff,
        payload: Buffer.from(buf.subarray(9, 9 + length)),
      });
      buf = buf.subarray(9 + length);
    }
    this.pending = Buffer.from(buf);
    this.changed.emit('change');
  }

  private onFrame(f: Frame): void {
    if (f.type === HEADERS) {
      let fragment = f.payload;
      if (f.flags & PADDED) fragment = fragment.subarray(1, fragment.length - fragment[0]);
      if (f.flags & PRIORITY_FLAG) fragment = fragment.subarray(5);
      this.headerBlock = { frame: f, parts: [fragment] };
    } else if (f.type === CONTINUATION && this.headerBlock) this.headerBlock.parts.push(f.payload);
    this.frames.push(f);
    if (this.headerBlock && (f.type === HEADERS || f.type === CONTINUATION) && f.flags & END_HEADERS) {
      const fields: Array<[string, string]> = [];
      this.decoder.decode(Buffer.concat(this.headerBlock.parts), (name, value) => fields.push([name, value]));
      this.headerBlock.frame.fields = fields;
      this.headerBlock = null;
    }
  }

  /** The frames so far, one word each, for failure messages. */
  describe(): string {
    const list = this.frames.map((f) => {
      const name = TYPE_NAMES[f.type] ?? `type${f.type}`;
      const code = f.type === RST_STREAM ? `(${f.payload.readUInt32BE(0)})` : '';
      const goaway = f.type === GOAWAY ? `(last ${f.payload.readUInt32BE(0)}, code ${f.payload.readUInt32BE(4)})` : '';
      return `${name}#${f.id}${code}${goaway}[${f.flags}]`;
    });
    const shown = list.length > 40 ? ['…', ...list.slice(-40)] : list;
    return `${shown.join(' ')}${this.closed ? ' <closed>' : ''}`;
  }

  /** Resolve with `check()`'s first defined answer as frames come; fail if the connection closes first. */
  wait<T>(check: () => T | undefined, what: string, ms = 5000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const test = () => {
        const v = check();
        if (v === undefined && !this.closed) return;
        clearTimeout(timer);
        this.changed.off('change', test);
        if (v !== undefined) resolve(v);
        else reject(new Error(`connection closed while waiting for ${what}; frames: ${this.describe()}`));
      };
      timer = setTimeout(() => {
        this.changed.off('change', test);
        reject(new Error(`no ${what} within ${ms} ms; frames: ${this.describe()}`));
      }, ms);
      this.changed.on('change', test);
      test();
    });
  }

  frame(pred: (f: Frame) => boolean, what: string): Promise<Frame> {
    return this.wait(() => this.frames.find(pred), what);
  }

  /** The server's GOAWAY: last stream id and error code. */
  async goaway(): Promise<{ lastStreamId: number; code: number }> {
    const f = await this.frame((x) => x.type === GOAWAY, 'GOAWAY');
    return { lastStreamId: f.payload.readUInt32BE(0) & 0x7fffffff, code: f.payload.readUInt32BE(4) };
  }

  /** Resolves once the server has closed the connection. */
  whenClosed(): Promise<true> {
    return this.wait(() => (this.closed ? true : undefined), 'the connection to close');
  }

  /** PING and wait for its ACK: every frame the server wrote before reading our PING is in by then. */
  async roundTrip(tag = 'barrier!'): Promise<void> {
    const opaque = Buffer.from(tag.padEnd(8).slice(0, 8));
    this.send(pingFrame(opaque));
    await this.frame((f) => f.type === PING && (f.flags & ACK) !== 0 && f.payload.equals(opaque), `PING ACK ${tag}`);
  }

  dataBytes(id: number): number {
    let n = 0;
    for (const f of this.frames) if (f.type === DATA && f.id === id) n += f.payload.length;
    return n;
  }

  /** The whole answer on stream `id` (up to END_STREAM), or its RST_STREAM. */
  async answer(id: number): Promise<Answer> {
    await this.wait(
      () =>
        this.frames.find(
          (f) =>
            f.id === id &&
            (f.type === RST_STREAM ||
              (f.type === DATA && f.flags & END_STREAM) ||
              (f.type === HEADERS && f.flags & END_STREAM && f.fields)),
        ),
      `the end of stream ${id}`,
    );
    const mine = this.frames.filter((f) => f.id === id);
    const reset = mine.find((f) => f.type === RST_STREAM);
    const fields = mine.find((f) => f.type === HEADERS)?.fields ?? [];
    const status = Number(fields.find(([n]) => n === ':status')?.[1] ?? 0);
    const body = Buffer.concat(mine.filter((f) => f.type === DATA).map((f) => f.payload));
    return { status, fields, body, reset: reset ? reset.payload.readUInt32BE(0) : undefined };
  }

  /**
   * Send `body` on stream `id` as DATA frames, never beyond the windows the server granted (its
   * SETTINGS_INITIAL_WINDOW_SIZE and WINDOW_UPDATEs): a server that does not open them stalls this.
   */
  async upload(id: number, body: Buffer): Promise<void> {
    const settings = this.frames.find((f) => f.type === SETTINGS && !(f.flags & ACK));
    let initial = DEFAULT_WINDOW;
    for (let at = 0; settings && at + 6 <= settings.payload.length; at += 6)
      if (settings.payload.readUInt16BE(at) === SETTINGS_INITIAL_WINDOW_SIZE)
        initial = settings.payload.readUInt32BE(at + 2);
    const granted = (sid: number) => {
      let n = 0;
      for (const f of this.frames) if (f.type === WINDOW_UPDATE && f.id === sid) n += f.payload.readUInt32BE(0);
      return n;
    };
    let sent = 0;
    const room = () =>
      Math.min(
        DEFAULT_WINDOW + granted(0) - this.connSent,
        initial + granted(id) - sent,
        MAX_FRAME,
        body.length - sent,
      );
    while (sent < body.length) {
      const n = await this.wait(() => (room() > 0 ? room() : undefined), `WINDOW_UPDATE (${sent} bytes sent)`);
      const end = sent + n === body.length;
      this.send(dataFrame(id, body.subarray(sent, sent + n), end));
      sent += n;
      this.connSent += n;
    }
  }
}

export const field = (a: Answer, name: string) => a.fields.filter(([n]) => n === name).map(([, v]) => v);

/** Bytes with a pattern (so a lost or repeated piece shows). */
export function pattern(size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 7 + (i >> 11)) % 251;
  return b;
}
export const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Close every client a test left open (afterEach). */
export function closeClients(): void {
  for (const c of [...clients]) c.destroy();
}
