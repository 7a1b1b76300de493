// The web service's own HTTP/2 engine (src/modules/reverseproxy/h2/) on the wire, against RFC 9113.
// Raw h2c over a net socket with frames and HPACK built by hand: the server preface, SETTINGS and
// PING, connection errors (bad preface, oversized frame, even stream id, interrupted header block,
// endless CONTINUATION, WINDOW_UPDATE of 0 or beyond 2^31-1), malformed requests reset on their
// stream while the connection carries on, the 431 header-list limit, flow control both ways, the
// concurrent-stream and rapid-reset limits, a client reset reaching the back end and a client
// GOAWAY. Then real clients through the proxy: node:http2 (h2c and TLS), curl and nghttp.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HpackDecoder } from '../src/modules/reverseproxy/h2/hpack.js';
import { b64, makeCert } from './certs-helpers.js';
import { type Backend, backend, curl, freePort, type Rp, startRp } from './reverseproxy-helpers.js';

const run = promisify(execFile);

// ---- wire constants (RFC 9113 §6, §7), written out here rather than taken from the engine ----

const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const PING = 0x6;
const GOAWAY = 0x7;
const WINDOW_UPDATE = 0x8;
const CONTINUATION = 0x9;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY_FLAG = 0x20;
const TYPE_NAMES = [
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

const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const SETTINGS_ENABLE_CONNECT_PROTOCOL = 0x8;

const NO_ERROR = 0x0;
const PROTOCOL_ERROR = 0x1;
const FLOW_CONTROL_ERROR = 0x3;
const FRAME_SIZE_ERROR = 0x6;
const REFUSED_STREAM = 0x7;
const CANCEL = 0x8;
const ENHANCE_YOUR_CALM = 0xb;

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const MAX_FRAME = 16_384;
const DEFAULT_WINDOW = 65_535;

// ---- frame builder ----

function frame(type: number, flags: number, id: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(id, 5);
  return Buffer.concat([head, payload]);
}

const words = (...w: number[]) => {
  const b = Buffer.alloc(4 * w.length);
  for (let i = 0; i < w.length; i++) b.writeUInt32BE(w[i] >>> 0, 4 * i);
  return b;
};
const settingsFrame = (pairs: Array<[number, number]>) => {
  const b = Buffer.alloc(6 * pairs.length);
  pairs.forEach(([k, v], i) => {
    b.writeUInt16BE(k, 6 * i);
    b.writeUInt32BE(v, 6 * i + 2);
  });
  return frame(SETTINGS, 0, 0, b);
};
const headersFrame = (id: number, block: Buffer, flags = END_HEADERS | END_STREAM) => frame(HEADERS, flags, id, block);
const dataFrame = (id: number, bytes: Buffer | string, end = false) =>
  frame(DATA, end ? END_STREAM : 0, id, Buffer.from(bytes));
const rstFrame = (id: number, code: number) => frame(RST_STREAM, 0, id, words(code));
const windowUpdate = (id: number, increment: number) => frame(WINDOW_UPDATE, 0, id, words(increment));
const pingFrame = (opaque: Buffer) => frame(PING, 0, 0, opaque);

/** A header block cut into HEADERS + CONTINUATION frames of at most `size` bytes. */
function splitBlock(id: number, block: Buffer, size: number, endStream = true): Buffer[] {
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

function hpackInt(first: number, prefixBits: number, v: number): Buffer {
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
const hpackStr = (s: string) => Buffer.concat([hpackInt(0, 7, s.length), Buffer.from(s, 'latin1')]);
/** Literal field without indexing, new name (RFC 7541 §6.2.2). */
const literal = (name: string, value: string) => Buffer.concat([Buffer.from([0x00]), hpackStr(name), hpackStr(value)]);
/** Literal field without indexing, name from static entry `index`. */
const literalNamed = (index: number, value: string) => Buffer.concat([hpackInt(0, 4, index), hpackStr(value)]);
const M_GET = Buffer.from([0x82]);
const M_POST = Buffer.from([0x83]);
const SCHEME_HTTP = Buffer.from([0x86]);
const pathField = (p: string) => literalNamed(4, p);
const authorityField = (a: string) => literalNamed(1, a);
const block = (...parts: Buffer[]) => Buffer.concat(parts);
/** GET `path` on `authority`, with optional further fields. */
const getBlock = (authority: string, p = '/', ...extra: Buffer[]) =>
  block(M_GET, SCHEME_HTTP, pathField(p), authorityField(authority), ...extra);
const postBlock = (authority: string, p: string, ...extra: Buffer[]) =>
  block(M_POST, SCHEME_HTTP, pathField(p), authorityField(authority), ...extra);

// ---- frame reader: one raw h2c connection ----

interface Frame {
  type: number;
  flags: number;
  id: number;
  payload: Buffer;
  /** The decoded header block (HEADERS, with its CONTINUATION frames). */
  fields?: Array<[string, string]>;
}

interface Answer {
  status: number;
  fields: Array<[string, string]>;
  body: Buffer;
  /** RST_STREAM error code, when the stream was reset instead. */
  reset?: number;
}

const clients = new Set<H2Client>();

class H2Client {
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
  static async open(port: number, opts: { settings?: Array<[number, number]>; raw?: boolean } = {}) {
    const socket = net.connect(port, '127.0.0.1');
    const c = new H2Client(socket);
    await once(socket, 'connect');
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

const field = (a: Answer, name: string) => a.fields.filter(([n]) => n === name).map(([, v]) => v);

/** Bytes with a pattern (so a lost or repeated piece shows). */
function pattern(size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 7 + (i >> 11)) % 251;
  return b;
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// ---- the server under test ----

let rp: Rp;
let be: Backend;
let port: number;
/** The back end's news: 'hold' (a /hold request came), 'hold-closed', 'gate' (a /gate request came). */
const events = new EventEmitter();
const BIG_TEXT = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN'.repeat(1000); // 50 000 bytes
/** What the back end answers on /bytes. */
const BACKEND_BYTES = pattern(200 * 1024);
const waitEvent = (name: string) => once(events, name, { signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  rp = await startRp();
  be = await backend('be', (req, res) => {
    const url = req.url ?? '/';
    if (url === '/hold') {
      // Never answers; tells when the proxy drops the request.
      res.on('close', () => events.emit('hold-closed', !res.writableFinished));
      events.emit('hold');
      return;
    }
    if (url === '/gate') {
      events.once('open-gate', () => res.end('gated'));
      events.emit('gate');
      return;
    }
    if (url === '/bytes') {
      res.end(BACKEND_BYTES);
      return;
    }
    if (url === '/cookies') {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.end('cookies');
      return;
    }
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      if (url === '/sum') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, bytes: body.length, sha: sha(body) }));
      } else res.end(body);
    });
  });
  const cert = await makeCert(['proxy.test', 'text.test']);
  const r = await rp.call('POST', '/api/ssl', { CertBase64: b64(cert.cert), KeyBase64: b64(cert.key) });
  expect(r.body.ret).toBe(0);
  port = await freePort();
  await rp.addRule({
    port,
    listenTypes: 'both',
    http2: true,
    h2c: true,
    subRules: [
      { domains: ['text.test'], serviceType: 'text', text: 'hello h2' },
      { domains: ['big.test'], serviceType: 'text', text: BIG_TEXT },
      {
        domains: ['proxy.test'],
        targets: [be.url],
        responseHeaders: [{ name: 'X-Rule-Header', value: 'from-the-rule' }],
      },
    ],
  });
});

afterEach(() => {
  for (const c of [...clients]) c.destroy();
});

afterAll(async () => {
  await rp.close();
  await be.close();
});

/** Open a connection and expect the server to end it with GOAWAY(code) after `frames`. */
async function expectConnectionError(code: number, ...frames: Buffer[]): Promise<H2Client> {
  const c = await H2Client.open(port);
  c.send(...frames);
  expect((await c.goaway()).code, c.describe()).toBe(code);
  await c.whenClosed();
  return c;
}

describe('HTTP/2 engine on the wire (h2c, raw frames)', () => {
  it('starts with its SETTINGS (MAX_CONCURRENT_STREAMS 100, ENABLE_CONNECT_PROTOCOL), acknowledges ours, answers PING', async () => {
    const c = await H2Client.open(port, { settings: [[SETTINGS_INITIAL_WINDOW_SIZE, 65_535]] });
    const first = c.frames[0];
    expect(first.type).toBe(SETTINGS);
    expect(first.flags & ACK).toBe(0);
    expect(first.id).toBe(0);
    const settings = new Map<number, number>();
    for (let at = 0; at < first.payload.length; at += 6)
      settings.set(first.payload.readUInt16BE(at), first.payload.readUInt32BE(at + 2));
    expect(settings.get(SETTINGS_MAX_CONCURRENT_STREAMS)).toBe(100);
    expect(settings.get(SETTINGS_ENABLE_CONNECT_PROTOCOL)).toBe(1); // RFC 8441: WebSocket over HTTP/2
    const ack = await c.frame((f) => f.type === SETTINGS && (f.flags & ACK) !== 0, 'SETTINGS ACK');
    expect(ack.payload.length).toBe(0);
    const opaque = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
    c.send(pingFrame(opaque));
    const pong = await c.frame((f) => f.type === PING && (f.flags & ACK) !== 0, 'PING ACK');
    expect(pong.id).toBe(0);
    expect(pong.payload).toEqual(opaque);
  });

  it('answers a GET with HEADERS :status 200 and DATA ending the stream', async () => {
    const c = await H2Client.open(port);
    c.send(headersFrame(1, getBlock('text.test')));
    const a = await c.answer(1);
    expect(a.reset).toBeUndefined();
    expect(a.status).toBe(200);
    expect(field(a, 'content-type')).toEqual(['text/plain; charset=utf-8']);
    expect(a.body.toString()).toBe('hello h2');
    const last = c.frames.filter((f) => f.id === 1).at(-1);
    expect(last?.type).toBe(DATA);
    expect((last?.flags ?? 0) & END_STREAM).toBe(END_STREAM);
  });

  it('answers two requests whose frames interleave on streams 1 and 3', async () => {
    const c = await H2Client.open(port);
    c.send(
      headersFrame(1, postBlock('proxy.test', '/echo'), END_HEADERS),
      headersFrame(3, postBlock('proxy.test', '/echo'), END_HEADERS),
      dataFrame(3, 'body of three', true),
      dataFrame(1, 'body of one', true),
    );
    const [one, three] = await Promise.all([c.answer(1), c.answer(3)]);
    expect(one.status).toBe(200);
    expect(one.body.toString()).toBe('body of one');
    expect(three.status).toBe(200);
    expect(three.body.toString()).toBe('body of three');
  });

  it('ends the connection with GOAWAY PROTOCOL_ERROR on a bad preface', async () => {
    const c = await H2Client.open(port, { raw: true });
    // Starts like the preface (so the listener hands it to the HTTP/2 engine), then differs.
    c.send(Buffer.from('PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n', 'latin1'), settingsFrame([]));
    expect((await c.goaway()).code).toBe(PROTOCOL_ERROR);
    await c.whenClosed();
  });

  it('ends the connection with GOAWAY FRAME_SIZE_ERROR on a frame above 16384 bytes', async () => {
    const base = getBlock('text.test');
    // A well-formed header block made one byte too large by a padding field.
    const big = block(base, literal('x-pad', 'a'.repeat(MAX_FRAME + 1 - base.length - 10)));
    expect(big.length).toBe(MAX_FRAME + 1);
    await expectConnectionError(FRAME_SIZE_ERROR, headersFrame(1, big));
  });

  it('ends the connection with GOAWAY PROTOCOL_ERROR on HEADERS with an even stream id', async () => {
    await expectConnectionError(PROTOCOL_ERROR, headersFrame(2, getBlock('text.test')));
  });

  const interruptions: Array<[string, Buffer]> = [
    ['a PING', pingFrame(Buffer.alloc(8))],
    ['a CONTINUATION on another stream', frame(CONTINUATION, END_HEADERS, 3, getBlock('text.test'))],
  ];
  it.each(interruptions)(
    'ends the connection with GOAWAY PROTOCOL_ERROR when %s interrupts a header block',
    async (_n, f) => {
      const b = getBlock('text.test');
      await expectConnectionError(PROTOCOL_ERROR, headersFrame(1, b.subarray(0, 5), END_STREAM), f);
    },
  );

  it('answers a header block sent as HEADERS + CONTINUATION frames', async () => {
    const c = await H2Client.open(port);
    const b = getBlock('text.test', '/', literal('x-one', 'first'), literal('x-two', 'second'));
    const frames = splitBlock(1, b, 8);
    expect(frames.length).toBeGreaterThan(2);
    c.send(...frames);
    const a = await c.answer(1);
    expect(a.status).toBe(200);
    expect(a.body.toString()).toBe('hello h2');
  });

  it('ends the connection with GOAWAY ENHANCE_YOUR_CALM on endless CONTINUATION (header block > 256 KiB)', async () => {
    const b = getBlock('text.test', '/', literal('x-flood', 'f'.repeat(300_000)));
    const frames = splitBlock(1, b, MAX_FRAME);
    // The last frame (with END_HEADERS) is not sent: the block never ends.
    await expectConnectionError(ENHANCE_YOUR_CALM, ...frames.slice(0, -1));
  });

  const malformed: Array<[string, (id: number) => Buffer[]]> = [
    ['an upper-case field name', (id) => [headersFrame(id, getBlock('text.test', '/', literal('X-Upper', 'a')))]],
    [
      'a connection: keep-alive field',
      (id) => [headersFrame(id, getBlock('text.test', '/', literal('connection', 'keep-alive')))],
    ],
    ['no :path', (id) => [headersFrame(id, block(M_GET, SCHEME_HTTP, authorityField('text.test')))]],
    // :path and :authority become the back end's request line and Host: nothing that could split them.
    ['a space in :path', (id) => [headersFrame(id, getBlock('text.test', '/a b'))]],
    ['a CR LF in :path', (id) => [headersFrame(id, getBlock('text.test', '/a\r\nx-injected: 1'))]],
    ['a :path not starting with /', (id) => [headersFrame(id, getBlock('text.test', 'http://evil.test/'))]],
    ['a space in :authority', (id) => [headersFrame(id, getBlock('text.test evil', '/'))]],
    [
      'a host field naming another site',
      (id) => [headersFrame(id, getBlock('text.test', '/', literal('host', 'big.test')))],
    ],
    // RFC 8441 §4: :protocol only with CONNECT, and an extended CONNECT has :scheme and :path.
    [':protocol on a GET', (id) => [headersFrame(id, getBlock('text.test', '/', literal(':protocol', 'websocket')))]],
    [
      'an extended CONNECT without :path',
      (id) => [
        headersFrame(
          id,
          block(
            literal(':method', 'CONNECT'),
            literal(':protocol', 'websocket'),
            SCHEME_HTTP,
            authorityField('text.test'),
          ),
          END_HEADERS,
        ),
      ],
    ],
    [
      'a pseudo-header after a regular field',
      (id) => [
        headersFrame(id, block(M_GET, SCHEME_HTTP, authorityField('text.test'), literal('x-a', 'b'), pathField('/'))),
      ],
    ],
    [
      'content-length 5 with a 3-byte body',
      (id) => [
        headersFrame(id, postBlock('proxy.test', '/sum', literal('content-length', '5')), END_HEADERS),
        dataFrame(id, 'abc', true),
      ],
    ],
  ];
  it.each(malformed)('resets a request with %s (PROTOCOL_ERROR); the connection carries on', async (_name, frames) => {
    const c = await H2Client.open(port);
    c.send(...frames(1));
    const bad = await c.answer(1);
    expect(bad.reset, c.describe()).toBe(PROTOCOL_ERROR);
    expect(c.frames.some((f) => f.type === HEADERS && f.id === 1)).toBe(false);
    c.send(headersFrame(3, getBlock('text.test')));
    const good = await c.answer(3);
    expect(good.status).toBe(200);
    expect(good.body.toString()).toBe('hello h2');
    expect(c.frames.some((f) => f.type === GOAWAY)).toBe(false);
  });

  it('answers 431 to a header list above 64 KiB (sent over CONTINUATION); the connection stays usable', async () => {
    const c = await H2Client.open(port);
    c.send(...splitBlock(1, getBlock('text.test', '/', literal('x-big', 'v'.repeat(70_000))), MAX_FRAME));
    const big = await c.answer(1);
    expect(big.reset).toBeUndefined();
    expect(big.status).toBe(431);
    c.send(headersFrame(3, getBlock('text.test')));
    const next = await c.answer(3);
    expect(next.status).toBe(200);
    expect(next.body.toString()).toBe('hello h2');
  });

  it('ends the connection with GOAWAY PROTOCOL_ERROR on a connection WINDOW_UPDATE of 0', async () => {
    await expectConnectionError(PROTOCOL_ERROR, windowUpdate(0, 0));
  });

  it('ends the connection with GOAWAY FLOW_CONTROL_ERROR on a connection window beyond 2^31-1', async () => {
    await expectConnectionError(FLOW_CONTROL_ERROR, windowUpdate(0, 0x7fffffff));
  });

  const windowed: Array<[string, Buffer, Buffer]> = [
    ['a text service', getBlock('big.test'), Buffer.from(BIG_TEXT)],
    ['a proxied back end (200 KiB, beyond the connection window)', getBlock('proxy.test', '/bytes'), BACKEND_BYTES],
  ];
  it.each(windowed)(
    'sends %s no faster than the stream window: 100 bytes, the rest after WINDOW_UPDATE',
    async (_n, request, expected) => {
      const c = await H2Client.open(port, { settings: [[SETTINGS_INITIAL_WINDOW_SIZE, 100]] });
      c.send(headersFrame(1, request));
      await c.wait(() => (c.dataBytes(1) >= 100 ? true : undefined), '100 bytes of DATA');
      // Whatever the server would send on its own (with the window it has) is in once our PING is answered.
      await c.roundTrip();
      expect(c.dataBytes(1)).toBe(100);
      expect(c.frames.some((f) => f.id === 1 && f.flags & END_STREAM)).toBe(false);
      expect(c.frames.find((f) => f.type === HEADERS && f.id === 1)?.fields).toContainEqual([':status', '200']);
      c.send(windowUpdate(1, expected.length - 100), windowUpdate(0, expected.length));
      const a = await c.answer(1);
      expect(a.reset).toBeUndefined();
      expect(a.body.length).toBe(expected.length);
      expect(a.body.equals(expected)).toBe(true);
      for (const f of c.frames.filter((x) => x.type === DATA)) expect(f.payload.length).toBeLessThanOrEqual(MAX_FRAME);
    },
  );

  it('refuses the 101st concurrent stream with RST_STREAM REFUSED_STREAM', async () => {
    // A window of 0: every answer stalls after its HEADERS, so all streams stay open.
    const c = await H2Client.open(port, { settings: [[SETTINGS_INITIAL_WINDOW_SIZE, 0]] });
    const frames: Buffer[] = [];
    for (let i = 0; i < 101; i++) frames.push(headersFrame(1 + 2 * i, getBlock('text.test')));
    c.send(...frames);
    const refused = await c.frame((f) => f.type === RST_STREAM && f.id === 201, 'RST_STREAM on stream 201');
    expect(refused.payload.readUInt32BE(0)).toBe(REFUSED_STREAM);
    await c.roundTrip();
    expect(c.frames.filter((f) => f.type === RST_STREAM).map((f) => f.id)).toEqual([201]);
    expect(c.frames.filter((f) => f.type === HEADERS).length).toBe(100);
    expect(c.frames.some((f) => f.type === GOAWAY)).toBe(false);
  });

  it('ends the connection with GOAWAY ENHANCE_YOUR_CALM on rapid reset (> 500 streams reset at once)', async () => {
    const frames: Buffer[] = [];
    // 1200: even if the resets straddle a second boundary, one second sees more than 500.
    for (let i = 0; i < 1200; i++) {
      const id = 1 + 2 * i;
      frames.push(headersFrame(id, getBlock('text.test')), rstFrame(id, CANCEL));
    }
    await expectConnectionError(ENHANCE_YOUR_CALM, ...frames);
  });

  it('drops the back-end request when the client resets its stream', async () => {
    const c = await H2Client.open(port);
    const arrived = waitEvent('hold');
    c.send(headersFrame(1, getBlock('proxy.test', '/hold')));
    await arrived;
    const closed = waitEvent('hold-closed');
    c.send(rstFrame(1, CANCEL));
    const [aborted] = await closed;
    expect(aborted).toBe(true);
    // The connection carries on.
    c.send(headersFrame(3, getBlock('text.test')));
    expect((await c.answer(3)).status).toBe(200);
  });

  it('carries an upload above 256 KiB byte-exact to the back end, opening the windows as it goes', async () => {
    const body = pattern(1536 * 1024 + 7);
    const c = await H2Client.open(port);
    c.send(
      headersFrame(1, postBlock('proxy.test', '/sum', literal('content-length', String(body.length))), END_HEADERS),
    );
    await c.upload(1, body);
    const a = await c.answer(1);
    expect(a.reset).toBeUndefined();
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body.toString())).toEqual({ method: 'POST', bytes: body.length, sha: sha(body) });
    expect(c.frames.some((f) => f.type === WINDOW_UPDATE && f.id === 1)).toBe(true);
  });

  it('ends the answer to an open stream after a client GOAWAY, then closes the connection', async () => {
    const c = await H2Client.open(port);
    const arrived = waitEvent('gate');
    c.send(headersFrame(1, getBlock('proxy.test', '/gate')));
    await arrived;
    c.send(frame(GOAWAY, 0, 0, words(0, NO_ERROR)));
    await c.roundTrip();
    expect(c.closed).toBe(false);
    // The server need not answer with a GOAWAY of its own; if it does, stream 1 is among those it processes.
    const theirs = c.frames.find((f) => f.type === GOAWAY);
    if (theirs) expect([theirs.payload.readUInt32BE(0), theirs.payload.readUInt32BE(4)]).toEqual([1, NO_ERROR]);
    events.emit('open-gate');
    const a = await c.answer(1);
    expect(a.reset).toBeUndefined();
    expect(a.status).toBe(200);
    expect(a.body.toString()).toBe('gated');
    await c.whenClosed();
  });
});

describe('HTTP/2 engine with real clients', () => {
  /** One request through node:http2; answers status, headers and body. */
  function request(
    session: http2.ClientHttp2Session,
    headers: http2.OutgoingHttpHeaders,
    body?: Buffer,
  ): Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = session.request(headers);
      const parts: Buffer[] = [];
      let head: http2.IncomingHttpHeaders = {};
      req.on('response', (h) => {
        head = h;
      });
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(parts) }));
      req.on('error', reject);
      // A stalled stream fails here with a message, before the test's own timeout.
      req.setTimeout(10_000, () => {
        reject(new Error('no answer within 10 s'));
        req.close(http2.constants.NGHTTP2_CANCEL);
      });
      req.end(body);
    });
  }

  it('takes an upload above 256 KiB from node:http2 (h2c) and curl (prior knowledge), byte-exact', async () => {
    const body = pattern(700 * 1024 + 3);
    const expected = { method: 'POST', bytes: body.length, sha: sha(body) };
    const session = http2.connect(`http://127.0.0.1:${port}`);
    try {
      const r = await request(session, { ':method': 'POST', ':path': '/sum', ':authority': 'proxy.test' }, body);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body.toString())).toEqual(expected);
    } finally {
      session.close();
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-h2-'));
    try {
      const file = path.join(dir, 'up.bin');
      await writeFile(file, body);
      const r = await curl([
        '--http2-prior-knowledge',
        '-H',
        'Host: proxy.test',
        '--data-binary',
        `@${file}`,
        `http://127.0.0.1:${port}/sum`,
      ]);
      expect(r.headers).toMatch(/^HTTP\/2 200/);
      expect(JSON.parse(r.body)).toEqual(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers nghttp over h2c', async () => {
    const { stdout } = await run('nghttp', ['-nv', '-H', ':authority: text.test', `http://127.0.0.1:${port}/`], {
      timeout: 10_000,
    });
    // nghttp opens its request on stream 13 (1-11 carry its PRIORITY tree).
    expect(stdout).toMatch(/recv \(stream_id=\d+\) :status: 200/);
    expect(stdout).toMatch(/recv DATA frame <length=8, flags=0x01, stream_id=\d+>/);
  });

  it('answers node:http2 over TLS with the rule header and both set-cookie values of the back end', async () => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { servername: 'proxy.test', rejectUnauthorized: false });
    try {
      const r = await request(session, { ':path': '/cookies', ':authority': 'proxy.test' });
      expect(r.status).toBe(200);
      expect(r.headers['x-rule-header']).toBe('from-the-rule');
      expect(r.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      expect(r.body.toString()).toBe('cookies');
    } finally {
      session.close();
    }
  });
});
