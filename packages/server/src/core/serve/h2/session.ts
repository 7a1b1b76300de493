// One HTTP/2 connection (RFC 9113), server side, in JavaScript. Why not node:http2: it wraps
// every stream in a Duplex and crosses into nghttp2 and back per frame, which made it the
// bottleneck of the web service under h2load (about 17 µs of CPU per request for node alone,
// before any proxying). Here the frames of a read are parsed in one loop, a request is two small
// objects (stream.ts), and everything a tick writes leaves in one socket write.
//
// Scope: what a server needs. No server push, no priorities (PRIORITY frames are read and
// ignored, as RFC 9113 allows). Extended CONNECT (RFC 8441) opens tunnels, for WebSocket over
// HTTP/2; a plain CONNECT (a TCP tunnel to anywhere) is answered 405. Limits against
// abusive peers (the CVE classes nghttp2 and h2o fixed), each named where it is set below:
// concurrent streams, counted until their handler ends; header blocks capped in bytes and
// frames (CONTINUATION flood) and decoded only up to the header-list limit (HPACK bomb);
// resets per second, ours included (rapid reset, "MadeYouReset"); frames that cost us work but
// carry no request (PING, SETTINGS, PRIORITY, empty DATA floods); control answers queued while
// the peer does not read; flow-control windows both ways; and time-outs for a peer that is slow
// to start, to send a header block, to read, or that keeps an idle connection.
import type net from 'node:net';
import * as F from './frames.js';
import { HpackDecoder, HpackError } from './hpack.js';
import { RequestBody, StreamRequest, StreamResponse } from './stream.js';

export type StreamHandler = (req: StreamRequest, res: StreamResponse) => void;

/** Streams one connection may have open at once (announced in SETTINGS). */
export const MAX_CONCURRENT_STREAMS = 100;
/** The window each request body starts with; acknowledged as the body is read. */
const STREAM_RECV_WINDOW = 256 * 1024;
/** The connection's receive window; acknowledged as DATA arrives (the stream windows bound memory). */
const CONN_RECV_WINDOW = 1024 * 1024;
/** Header list size (RFC 9113 §6.5.2 accounting) beyond which a request gets 431. */
const MAX_HEADER_LIST = 64 * 1024;
/** Raw header block (HEADERS + CONTINUATION) beyond which the connection ends. */
const MAX_HEADER_BLOCK = 256 * 1024;
/**
 * Frames one header block may span. Empty CONTINUATION frames add no bytes, so only a frame
 * count stops an endless block of them (CVE-2024-27316 class); 64 frames hold 256 KiB at the
 * smallest frame size a client may use for a full block (16 KiB) four times over.
 */
const MAX_BLOCK_FRAMES = 64;
/**
 * Streams reset per second, by the client or by us for its protocol errors, before the
 * connection ends: "rapid reset" (CVE-2023-44487) and "MadeYouReset" (CVE-2025-8671).
 */
const MAX_RESETS_PER_SECOND = 500;
/**
 * Frames per second that ask work of us but carry no request: PING, SETTINGS, PRIORITY,
 * empty DATA without END_STREAM, unknown types (CVE-2019-9512/9515/9516/9518 classes).
 */
const MAX_IDLE_FRAMES_PER_SECOND = 1000;
/** Bytes the peer may leave unread in our socket before control-frame answers stop (flood). */
const MAX_UNREAD = 4 * 1024 * 1024;
/** Recently closed stream ids remembered, to tell a late frame from an unknown stream (§5.1). */
const RECENT_CLOSED = 256;
/** Streams we reset whose handler is still running keep their slot at most this long. */
const HELD_SLOT_MS = 10_000;

/**
 * Time-outs, the same as HTTP/1 on the same listener (listener.ts, directHttp1.ts): the preface
 * and first SETTINGS as the first bytes, a header block as a request head (node:http's
 * headersTimeout), no stream open as a kept-alive idle connection; PING and other frames do not
 * keep a connection alive. A stream (or the whole socket) that cannot send for `sendMs`
 * because the peer reads nothing or keeps its window shut is reset (nginx's send_timeout), and a
 * request body must be whole within `requestMs` (node:http's requestTimeout).
 */
export interface H2Timeouts {
  prefaceMs: number;
  headerMs: number;
  idleMs: number;
  sendMs: number;
  requestMs: number;
}
export const H2_TIMEOUTS: Readonly<H2Timeouts> = {
  prefaceMs: 15_000,
  headerMs: 60_000,
  idleMs: 65_000,
  sendMs: 60_000,
  requestMs: 300_000,
};
/** How often the time-outs are checked (one timer for every session). */
const SWEEP_MS = 1000;
/** Acknowledge a body's consumed bytes in updates at least this large (or at its end). */
const WINDOW_UPDATE_STEP = 32 * 1024;
/** Data frames this small go out copied into one buffer with their header. */
const COPY_LIMIT = 2048;

const TOKEN = /^[a-z0-9!#$%&'*+\-.^_`|~]+$/;
const BAD_VALUE = /[\0\r\n]/;
/** A field value must not start or end with a space or tab (RFC 9113 §8.2.1). */
const padded = (v: string) => {
  const first = v.charCodeAt(0);
  const last = v.charCodeAt(v.length - 1);
  return first === 32 || first === 9 || last === 32 || last === 9;
};
/** :method (a token, any case) and :path / :authority (visible ASCII, no space): they become the back end's request line and Host. */
const METHOD = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;
const PATH = /^(\/[\x21-\x7e]*|\*)$/;
const AUTHORITY = /^[\x21-\x7e]*$/;

/** A frame the peer got wrong: the connection ends with GOAWAY(code). */
class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The sessions whose time-outs the sweeper checks, and its coarse clock (ms). */
const live = new Set<H2Session>();
let sweeper: NodeJS.Timeout | undefined;
let clock = Date.now();

/**
 * The clock for a new connection: made current first when no sweeper runs (no connection was
 * open), else a connection arriving after a pause would look idle for the whole pause.
 */
function clockForNewSession(): number {
  if (!sweeper) clock = Date.now();
  return clock;
}

function sweepAll(): void {
  clock = Date.now();
  for (const session of live) session.sweep(clock);
  if (live.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

export class H2Session {
  private readonly streams = new Map<number, StreamResponse>();
  private readonly decoder = new HpackDecoder();
  /** Bytes of a frame not yet whole, kept as they came (copied once, when the frame is). */
  private pendingParts: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes needed before the pending ones are worth parsing again. */
  private pendingNeed = 0;
  private prefaceSeen = false;
  /** The client's first SETTINGS came (RFC 9113 §3.4). */
  private settingsSeen = false;
  /** Highest stream id the client opened. */
  private lastStreamId = 0;
  private goingAway = false;
  private closed = false;

  // Sending.
  private sendWindow = F.DEFAULT_WINDOW;
  private peerInitialWindow = F.DEFAULT_WINDOW;
  private peerMaxFrame = F.DEFAULT_MAX_FRAME;
  /** Streams with a head or data to send at the end of this tick, or waiting for a window. */
  private readonly toFlush = new Set<StreamResponse>();
  private flushScheduled = false;
  socketBlocked = false;

  // Receiving.
  private connUnacked = 0;
  private connRecvWindow = CONN_RECV_WINDOW;
  /** A header block being assembled from HEADERS + CONTINUATION frames. */
  private blockStream = 0;
  private blockFlags = 0;
  private blockParts: Buffer[] = [];
  private blockBytes = 0;
  private blockFrames = 0;
  private resetsThisSecond = 0;
  private resetSecond = 0;
  private idleFramesThisSecond = 0;
  private idleFrameSecond = 0;
  /**
   * Streams we reset for the client's errors while their handler still runs: each keeps its
   * slot among the concurrent streams until the handler ends the answer (or HELD_SLOT_MS).
   */
  private readonly held = new Map<StreamResponse, number>();
  /** Ids of recently closed streams; the top bit set when we reset it (late frames are ignored). */
  private recent: Uint32Array | null = null;
  private recentAt = 0;

  // Time-outs (clock values, ms).
  private readonly timeouts: H2Timeouts;
  private readonly openedAt = clockForNewSession();
  private idleSince = this.openedAt;
  private blockStartedAt = 0;
  private blockedSince = 0;

  constructor(
    private readonly socket: net.Socket,
    private readonly onStream: StreamHandler,
    timeouts: Partial<H2Timeouts> = {},
  ) {
    this.timeouts = { ...H2_TIMEOUTS, ...timeouts };
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => this.onSocketDrain());
    socket.on('close', () => this.onSocketClose());
    socket.on('error', () => socket.destroy());
    live.add(this);
    sweeper ??= setInterval(sweepAll, SWEEP_MS).unref();
    this.write(
      F.settingsFrame([
        [F.SETTINGS_MAX_CONCURRENT_STREAMS, MAX_CONCURRENT_STREAMS],
        [F.SETTINGS_INITIAL_WINDOW_SIZE, STREAM_RECV_WINDOW],
        [F.SETTINGS_MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST],
        // Browsers then carry a wss:// WebSocket on this connection instead of opening another.
        [F.SETTINGS_ENABLE_CONNECT_PROTOCOL, 1],
      ]),
    );
    this.write(F.wordFrame(F.WINDOW_UPDATE, 0, 0, [CONN_RECV_WINDOW - F.DEFAULT_WINDOW]));
  }

  // ---- reading ----

  private onData(chunk: Buffer): void {
    let buf = chunk;
    if (this.pendingBytes) {
      // A frame trickled in a few bytes at a time is copied once, when it is whole, not per read.
      this.pendingParts.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes < this.pendingNeed) return;
      buf = Buffer.concat(this.pendingParts, this.pendingBytes);
      this.pendingParts = [];
      this.pendingBytes = 0;
    }
    let pos = 0;
    try {
      if (!this.prefaceSeen) {
        if (buf.length < F.PREFACE.length) {
          if (!F.PREFACE.subarray(0, buf.length).equals(buf))
            throw new ConnectionError(F.PROTOCOL_ERROR, 'bad preface');
          this.keep(buf, F.PREFACE.length);
          return;
        }
        if (!buf.subarray(0, F.PREFACE.length).equals(F.PREFACE))
          throw new ConnectionError(F.PROTOCOL_ERROR, 'bad preface');
        this.prefaceSeen = true;
        pos = F.PREFACE.length;
      }
      while (!this.closed && buf.length - pos >= F.FRAME_HEADER) {
        const length = (buf[pos] << 16) | (buf[pos + 1] << 8) | buf[pos + 2];
        if (length > F.DEFAULT_MAX_FRAME) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'frame too large');
        if (buf.length - pos < F.FRAME_HEADER + length) break;
        const type = buf[pos + 3];
        const flags = buf[pos + 4];
        const id = buf.readUInt32BE(pos + 5) & 0x7fffffff;
        const payload = buf.subarray(pos + F.FRAME_HEADER, pos + F.FRAME_HEADER + length);
        pos += F.FRAME_HEADER + length;
        this.onFrame(type, flags, id, payload);
      }
    } catch (err) {
      if (err instanceof ConnectionError) this.goAway(err.code, true);
      else if (err instanceof HpackError) this.goAway(F.COMPRESSION_ERROR, true);
      else {
        // Our bug, not the peer's: this connection ends, the process and the others carry on.
        process.emitWarning(`HTTP/2 session: ${(err as Error).message}`);
        this.goAway(F.INTERNAL_ERROR, true);
      }
      return;
    }
    if (pos < buf.length && !this.closed) {
      const rest = buf.length - pos;
      const need =
        rest < F.FRAME_HEADER
          ? F.FRAME_HEADER
          : F.FRAME_HEADER + ((buf[pos] << 16) | (buf[pos + 1] << 8) | buf[pos + 2]);
      this.keep(buf.subarray(pos), need);
    }
  }

  /** Keep the start of a frame (or of the preface) until `need` bytes are in. */
  private keep(part: Buffer, need: number): void {
    this.pendingParts = [part];
    this.pendingBytes = part.length;
    this.pendingNeed = need;
  }

  private onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.blockStream && (type !== F.CONTINUATION || id !== this.blockStream))
      throw new ConnectionError(F.PROTOCOL_ERROR, 'header block interrupted');
    switch (type) {
      case F.DATA:
        this.onDataFrame(flags, id, payload);
        return;
      case F.HEADERS:
        this.onHeaders(flags, id, payload);
        return;
      case F.CONTINUATION:
        if (!this.blockStream) throw new ConnectionError(F.PROTOCOL_ERROR, 'CONTINUATION without HEADERS');
        this.addToBlock(flags, payload);
        return;
      case F.PRIORITY:
        this.idleFrame();
        if (id === 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'PRIORITY on stream 0');
        if (payload.length !== 5) this.peerResetId(id, F.FRAME_SIZE_ERROR);
        // A stream cannot depend on itself (RFC 9113 §5.3.1).
        else if ((payload.readUInt32BE(0) & 0x7fffffff) === id) this.peerResetId(id, F.PROTOCOL_ERROR);
        return;
      case F.RST_STREAM:
        this.onReset(id, payload);
        return;
      case F.SETTINGS:
        this.idleFrame();
        this.onSettings(flags, id, payload);
        return;
      case F.PUSH_PROMISE:
        throw new ConnectionError(F.PROTOCOL_ERROR, 'PUSH_PROMISE from a client');
      case F.PING:
        this.idleFrame();
        if (id !== 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'PING on a stream');
        if (payload.length !== 8) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'PING size');
        if (!(flags & F.ACK)) this.control(Buffer.concat([frameHead(8, F.PING, F.ACK, 0), payload]));
        return;
      case F.GOAWAY:
        if (id !== 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'GOAWAY on a stream');
        // The client leaves: finish what is open, take nothing new.
        this.goAway(F.NO_ERROR, this.streams.size === 0);
        return;
      case F.WINDOW_UPDATE:
        this.onWindowUpdate(id, payload);
        return;
      default:
        this.idleFrame();
        return; // unknown frame types are ignored (RFC 9113 §4.1)
    }
  }

  /** A frame that asks work of us without carrying a request: a few per second at most. */
  private idleFrame(): void {
    const second = Math.floor(clock / 1000);
    if (second !== this.idleFrameSecond) {
      this.idleFrameSecond = second;
      this.idleFramesThisSecond = 0;
    }
    if (++this.idleFramesThisSecond > MAX_IDLE_FRAMES_PER_SECOND)
      throw new ConnectionError(F.ENHANCE_YOUR_CALM, 'too many frames without a request');
  }

  /** A stream reset, the client's or ours for its error: a few hundred per second at most. */
  private countReset(): void {
    const second = Math.floor(clock / 1000);
    if (second !== this.resetSecond) {
      this.resetSecond = second;
      this.resetsThisSecond = 0;
    }
    if (++this.resetsThisSecond > MAX_RESETS_PER_SECOND)
      throw new ConnectionError(F.ENHANCE_YOUR_CALM, 'too many resets');
  }

  /** Strip padding (RFC 9113 §6.1); the pad length counts toward flow control, not the data. */
  private unpad(flags: number, payload: Buffer, skip = 0): Buffer {
    if (!(flags & F.PADDED)) {
      if (!skip) return payload;
      if (payload.length < skip) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'frame too short');
      return payload.subarray(skip);
    }
    if (payload.length < 1) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'padded frame too short');
    const pad = payload[0];
    if (pad + 1 + skip > payload.length) throw new ConnectionError(F.PROTOCOL_ERROR, 'padding beyond the frame');
    return payload.subarray(1 + skip, payload.length - pad);
  }

  private onDataFrame(flags: number, id: number, payload: Buffer): void {
    if (id === 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'DATA on stream 0');
    if (id > this.lastStreamId) throw new ConnectionError(F.PROTOCOL_ERROR, 'DATA on an idle stream');
    // Every DATA frame counts against the connection window, whatever becomes of its stream.
    this.connRecvWindow -= payload.length;
    if (this.connRecvWindow < 0) throw new ConnectionError(F.FLOW_CONTROL_ERROR, 'connection window exceeded');
    this.connUnacked += payload.length;
    if (this.connUnacked >= CONN_RECV_WINDOW / 4) {
      this.write(F.wordFrame(F.WINDOW_UPDATE, 0, 0, [this.connUnacked]));
      this.connRecvWindow += this.connUnacked;
      this.connUnacked = 0;
    }
    // Empty and not the end: no progress, only work (empty DATA flood, CVE-2019-9518).
    if (payload.length === 0 && !(flags & F.END_STREAM)) this.idleFrame();
    const s = this.streams.get(id);
    if (!s) {
      // A stream we reset: frames still in flight are dropped (RFC 9113 §5.1). One that ended
      // normally or that the client reset: STREAM_CLOSED, as h2o answers.
      if (this.closedState(id) === CLOSED) throw new ConnectionError(F.STREAM_CLOSED, 'DATA on a closed stream');
      return;
    }
    if (s.remoteEnded) {
      this.peerReset(s, F.STREAM_CLOSED);
      return;
    }
    s.recvWindow -= payload.length;
    if (s.recvWindow < 0) {
      this.peerReset(s, F.FLOW_CONTROL_ERROR);
      return;
    }
    const data = this.unpad(flags, payload);
    s.received += data.length;
    // Padding is consumed at once.
    s.recvUnacked += payload.length - data.length;
    if (s.declaredLength >= 0 && s.received > s.declaredLength) {
      this.peerReset(s, F.PROTOCOL_ERROR);
      return;
    }
    const body = s.body;
    if (data.length && body) {
      // Beyond the body's buffer, the bytes are acknowledged only when the reader asks for
      // more (RequestBody._read): a slow back end holds the client back, not our memory.
      if (body.push(data)) s.recvUnacked += data.length;
      else s.recvHeld += data.length;
    }
    if (flags & F.END_STREAM) {
      if (s.declaredLength >= 0 && s.received !== s.declaredLength) {
        this.peerReset(s, F.PROTOCOL_ERROR);
        return;
      }
      this.remoteEnd(s);
    } else if (s.recvUnacked >= WINDOW_UPDATE_STEP) this.ackStream(s);
  }

  private onHeaders(flags: number, id: number, payload: Buffer): void {
    if (id === 0 || id % 2 === 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'HEADERS on a server stream id');
    const priority = flags & F.PRIORITY_FLAG;
    const fragment = this.unpad(flags, payload, priority ? 5 : 0);
    // A stream cannot depend on itself (RFC 9113 §5.3.1): the block is still read (HPACK), the stream reset.
    const selfDependent = priority !== 0 && (payload.readUInt32BE(flags & F.PADDED ? 1 : 0) & 0x7fffffff) === id;
    this.blockStream = id;
    this.blockFlags = selfDependent ? flags | SELF_DEPENDENT : flags;
    this.blockBytes = 0;
    this.blockFrames = 0;
    if (flags & F.END_HEADERS) {
      // The common case, a whole block in one frame: decoded in place, nothing copied.
      this.blockStream = 0;
      this.onHeaderBlock(id, this.blockFlags, fragment);
      return;
    }
    this.blockStartedAt = clock;
    this.addToBlock(flags, fragment);
  }

  private addToBlock(flags: number, fragment: Buffer): void {
    this.blockBytes += fragment.length;
    if (this.blockBytes > MAX_HEADER_BLOCK) throw new ConnectionError(F.ENHANCE_YOUR_CALM, 'header block too large');
    if (++this.blockFrames > MAX_BLOCK_FRAMES)
      throw new ConnectionError(F.ENHANCE_YOUR_CALM, 'header block in too many frames');
    // Copied: a slice would keep the whole read buffer it came in alive until the block ends.
    if (fragment.length) this.blockParts.push(Buffer.from(fragment));
    if (!(flags & F.END_HEADERS)) return;
    const id = this.blockStream;
    const block = Buffer.concat(this.blockParts, this.blockBytes);
    this.blockStream = 0;
    this.blockParts = [];
    this.onHeaderBlock(id, this.blockFlags, block);
  }

  private onHeaderBlock(id: number, flags: number, block: Buffer): void {
    const endStream = (flags & F.END_STREAM) !== 0;
    const existing = this.streams.get(id);
    if (existing) {
      // Trailers: decoded (the table must stay in step) and dropped; they end the body.
      const fits = this.decoder.decode(block, ignore, MAX_HEADER_LIST);
      // On a half-closed (remote) stream: STREAM_CLOSED (RFC 9113 §5.1).
      if (existing.remoteEnded) this.peerReset(existing, F.STREAM_CLOSED);
      else if (!endStream || !fits || flags & SELF_DEPENDENT) this.peerReset(existing, F.PROTOCOL_ERROR);
      else if (existing.declaredLength >= 0 && existing.received !== existing.declaredLength)
        this.peerReset(existing, F.PROTOCOL_ERROR);
      else this.remoteEnd(existing);
      return;
    }
    if (id <= this.lastStreamId) {
      const state = this.closedState(id);
      // Not a stream we know: a new stream must have a higher id than any before (RFC 9113 §5.1.1).
      if (state === UNKNOWN) throw new ConnectionError(F.PROTOCOL_ERROR, 'stream id lower than one already used');
      if (state === CLOSED) throw new ConnectionError(F.STREAM_CLOSED, 'HEADERS on a closed stream');
      // One we reset: what was in flight is ignored, once its block has been through the decoder.
      this.decoder.decode(block, ignore, MAX_HEADER_LIST);
      return;
    }
    this.lastStreamId = id;
    // The fields, checked as RFC 9113 §8.2-8.3 asks; a malformed request is reset, the
    // connection (and the decoder's table) carries on. Decoding stops making fields at the
    // header-list limit (the request then gets 431).
    const headers: Record<string, string> = {};
    let malformed = '';
    let regularSeen = false;
    const fits = this.decoder.decode(
      block,
      (name, value) => {
        if (malformed) return;
        if (name.charCodeAt(0) === 58 /* : */) {
          if (regularSeen) malformed = 'pseudo-header after a field';
          else if (
            name !== ':method' &&
            name !== ':path' &&
            name !== ':scheme' &&
            name !== ':authority' &&
            name !== ':protocol'
          )
            malformed = `pseudo-header ${name}`;
          else if (headers[name] !== undefined) malformed = `second ${name}`;
          else headers[name] = value;
          return;
        }
        regularSeen = true;
        if (!TOKEN.test(name)) malformed = 'field name';
        else if (BAD_VALUE.test(value) || (value.length !== 0 && padded(value))) malformed = 'field value';
        else if (F.CONNECTION_SPECIFIC.has(name) || (name === 'te' && value !== 'trailers'))
          malformed = `field ${name}`;
        else {
          const had = headers[name];
          headers[name] = had === undefined ? value : `${had}${name === 'cookie' ? '; ' : ', '}${value}`;
        }
      },
      MAX_HEADER_LIST,
    );
    if (this.goingAway) return; // a stream after our GOAWAY is ignored (RFC 9113 §6.8)
    if (flags & SELF_DEPENDENT) malformed = 'depends on itself';
    // Streams we reset whose handler still runs count too: resetting does not free the back end.
    if (this.streams.size + this.held.size >= MAX_CONCURRENT_STREAMS) {
      this.remember(id, true);
      this.resetId(id, F.REFUSED_STREAM);
      return;
    }
    const method = headers[':method'];
    // Extended CONNECT (RFC 8441 §4) has all four request pseudo-headers; :protocol goes with it only.
    const tunnel = headers[':protocol'] !== undefined;
    if (!malformed && tunnel && (method !== 'CONNECT' || !headers[':authority'] || !TOKEN.test(headers[':protocol'])))
      malformed = 'pseudo-header :protocol';
    else if (
      !malformed &&
      (!method || ((method !== 'CONNECT' || tunnel) && (!headers[':scheme'] || !headers[':path'])))
    )
      malformed = 'missing pseudo-header';
    else if (
      !malformed &&
      (!METHOD.test(method) ||
        (headers[':path'] !== undefined && !PATH.test(headers[':path'])) ||
        (headers[':authority'] !== undefined && !AUTHORITY.test(headers[':authority'])))
    )
      malformed = 'pseudo-header value';
    // A Host that names another site than :authority (RFC 9113 §8.3.1): routing must not pick one.
    else if (
      !malformed &&
      headers.host !== undefined &&
      headers[':authority'] !== undefined &&
      headers.host.toLowerCase() !== headers[':authority'].toLowerCase()
    )
      malformed = 'host and :authority differ';
    if (malformed) {
      this.peerResetId(id, F.PROTOCOL_ERROR);
      return;
    }

    const s = new StreamResponse(id, this, method === 'HEAD', this.peerInitialWindow, STREAM_RECV_WINDOW);
    s.openedAt = clock;
    this.streams.set(id, s);
    const length = headers['content-length'];
    if (length !== undefined) {
      if (!/^\d{1,15}$/.test(length)) {
        this.peerReset(s, F.PROTOCOL_ERROR);
        return;
      }
      s.declaredLength = Number(length);
      if (endStream && s.declaredLength !== 0) {
        this.peerReset(s, F.PROTOCOL_ERROR);
        return;
      }
    }
    if (endStream) s.remoteEnded = true;
    else s.body = new RequestBody(s);
    if (!fits) {
      s.writeHead(431, { 'content-type': 'text/plain; charset=utf-8' }).end('Request header fields too large\n');
      return;
    }
    if (method === 'CONNECT' && !tunnel) {
      s.writeHead(405, { allow: 'GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH' }).end();
      return;
    }
    s.tunnel = tunnel;
    s.handled = true;
    try {
      this.onStream(new StreamRequest(method, headers[':path'], headers, this.socket, s), s);
    } catch (err) {
      process.emitWarning(`HTTP/2 handler: ${(err as Error).message}`);
      this.reset(s, F.INTERNAL_ERROR);
    }
  }

  private onReset(id: number, payload: Buffer): void {
    if (payload.length !== 4) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'RST_STREAM size');
    if (id === 0 || id > this.lastStreamId) throw new ConnectionError(F.PROTOCOL_ERROR, 'RST_STREAM on an idle stream');
    this.countReset();
    const s = this.streams.get(id);
    if (s) this.closeStream(s, false);
  }

  private onSettings(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'SETTINGS on a stream');
    if (flags & F.ACK) {
      if (payload.length) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'SETTINGS ack with a payload');
      return;
    }
    if (payload.length % 6) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'SETTINGS size');
    this.settingsSeen = true;
    for (let at = 0; at < payload.length; at += 6) {
      const key = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (key === F.SETTINGS_ENABLE_PUSH && value > 1) throw new ConnectionError(F.PROTOCOL_ERROR, 'ENABLE_PUSH');
      if (key === F.SETTINGS_INITIAL_WINDOW_SIZE) {
        if (value > F.MAX_WINDOW) throw new ConnectionError(F.FLOW_CONTROL_ERROR, 'INITIAL_WINDOW_SIZE');
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const s of this.streams.values()) {
          s.sendWindow += delta;
          if (s.sendWindow > F.MAX_WINDOW) throw new ConnectionError(F.FLOW_CONTROL_ERROR, 'stream window overflow');
          if (delta > 0 && s.queue.length) this.toFlush.add(s);
        }
      }
      if (key === F.SETTINGS_MAX_FRAME_SIZE) {
        if (value < F.DEFAULT_MAX_FRAME || value > F.MAX_FRAME_LIMIT)
          throw new ConnectionError(F.PROTOCOL_ERROR, 'MAX_FRAME_SIZE');
        this.peerMaxFrame = value;
      }
      // HEADER_TABLE_SIZE: our encoder keeps no table, so a huge one costs nothing.
      // MAX_CONCURRENT_STREAMS: we push nothing.
    }
    this.control(F.settingsFrame([], true));
    this.scheduleFlush();
  }

  private onWindowUpdate(id: number, payload: Buffer): void {
    if (payload.length !== 4) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'WINDOW_UPDATE size');
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (id === 0) {
      if (increment === 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'WINDOW_UPDATE of 0');
      this.sendWindow += increment;
      if (this.sendWindow > F.MAX_WINDOW) throw new ConnectionError(F.FLOW_CONTROL_ERROR, 'connection window overflow');
      // Streams waiting for a window are in toFlush already (sendStream left them there).
      if (this.toFlush.size) this.scheduleFlush();
      return;
    }
    if (id > this.lastStreamId) throw new ConnectionError(F.PROTOCOL_ERROR, 'WINDOW_UPDATE on an idle stream');
    const s = this.streams.get(id);
    if (!s) return;
    if (increment === 0) {
      this.peerReset(s, F.PROTOCOL_ERROR);
      return;
    }
    s.sendWindow += increment;
    if (s.sendWindow > F.MAX_WINDOW) {
      this.peerReset(s, F.FLOW_CONTROL_ERROR);
      return;
    }
    this.flush(s);
  }

  // ---- streams ----

  /** The client ended its side: end the body; a stream whose answer went out is done. */
  private remoteEnd(s: StreamResponse): void {
    s.remoteEnded = true;
    // No more data can come: nothing to acknowledge.
    s.recvUnacked = 0;
    s.recvHeld = 0;
    s.body?.push(null);
    if (s.endSent) this.closeStream(s, false);
  }

  /** Acknowledge the body bytes taken in (StreamHost). */
  consumed(s: StreamResponse): void {
    s.recvUnacked += s.recvHeld;
    s.recvHeld = 0;
    if (s.recvUnacked && !s.remoteEnded && !s.closed) this.ackStream(s);
  }

  private ackStream(s: StreamResponse): void {
    this.write(F.wordFrame(F.WINDOW_UPDATE, 0, s.id, [s.recvUnacked]));
    s.recvWindow += s.recvUnacked;
    s.recvUnacked = 0;
  }

  /** Send RST_STREAM and close the stream (StreamHost: the handler gives up). */
  reset(s: StreamResponse, code: number): void {
    if (s.closed) return;
    this.resetId(s.id, code);
    this.closeStream(s, true);
  }

  /**
   * Reset a stream for the client's error. It counts as a reset (a client that makes us reset
   * streams is a rapid reset too), and while its handler still runs the stream keeps its slot.
   */
  private peerReset(s: StreamResponse, code: number): void {
    if (s.closed) return;
    this.countReset();
    if (s.handled && !s.writableEnded) this.held.set(s, clock + HELD_SLOT_MS);
    this.reset(s, code);
  }

  /** Reset a stream the client got wrong before it had a handler (counted, as above). */
  private peerResetId(id: number, code: number): void {
    this.countReset();
    this.remember(id, true);
    this.resetId(id, code);
  }

  /** The handler of a stream we closed has ended its answer: its slot is free (StreamHost). */
  released(s: StreamResponse): void {
    this.held.delete(s);
  }

  private resetId(id: number, code: number): void {
    this.write(F.wordFrame(F.RST_STREAM, 0, id, [code]));
  }

  /** Keep a closed stream's id for a while; `ours`: we reset it, so late frames are ignored. */
  private remember(id: number, ours: boolean): void {
    this.recent ??= new Uint32Array(RECENT_CLOSED);
    this.recent[this.recentAt] = ours ? (id | 0x80000000) >>> 0 : id;
    this.recentAt = (this.recentAt + 1) % RECENT_CLOSED;
  }

  /** What became of stream `id` (at most lastStreamId, not open): RESET by us, CLOSED, or UNKNOWN. */
  private closedState(id: number): number {
    const recent = this.recent;
    if (recent)
      for (let i = 0; i < RECENT_CLOSED; i++) {
        const v = recent[i];
        if ((v & 0x7fffffff) === id && v !== 0) return v & 0x80000000 ? RESET : CLOSED;
      }
    return UNKNOWN;
  }

  /** The stream is over: forget it, end its body if cut short, tell the handler ('close'). */
  private closeStream(s: StreamResponse, resetByUs: boolean): void {
    if (s.closed) return;
    s.closed = true;
    this.remember(s.id, resetByUs);
    this.streams.delete(s.id);
    if (this.streams.size === 0) this.idleSince = clock;
    this.toFlush.delete(s);
    s.queue = [];
    s.queued = 0;
    s.head = null;
    const body = s.body;
    if (body && !body.readableEnded && !s.remoteEnded) {
      body.emit('aborted');
      body.destroy();
    }
    process.nextTick(emitClose, s);
    if (this.goingAway && this.streams.size === 0) this.end();
  }

  // ---- writing ----

  /** Queue the stream for sending at the end of this tick (StreamHost). */
  flush(s: StreamResponse): void {
    if (s.closed) return;
    this.toFlush.add(s);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    process.nextTick(flushSession, this);
  }

  /** Send what every queued stream may send now; one socket write for all of it. */
  runFlush(): void {
    this.flushScheduled = false;
    if (this.closed) return;
    this.socket.cork();
    for (const s of this.toFlush) {
      if (this.sendStream(s)) this.toFlush.delete(s);
    }
    this.socket.uncork();
  }

  /** Head, then data as the windows allow, then the end. True when nothing is left waiting. */
  private sendStream(s: StreamResponse): boolean {
    if (s.closed) return true;
    const ending = s.writableEnded;
    if (s.head) {
      const head = s.head;
      s.head = null;
      this.sendHead(s.id, head, ending && s.queued === 0);
      if (ending && s.queued === 0) {
        return this.localEnd(s);
      }
    }
    while (s.queue.length) {
      const window = Math.min(this.sendWindow, s.sendWindow);
      if (window <= 0) {
        // Waiting for the peer to open its window: timed by the sweep (sendMs).
        if (!s.stalledSince) s.stalledSince = clock;
        return false;
      }
      s.stalledSince = 0;
      const chunk = s.queue[0];
      const n = Math.min(chunk.length, window, this.peerMaxFrame);
      const last = n === chunk.length && s.queue.length === 1;
      const flags = last && ending ? F.END_STREAM : 0;
      if (n === chunk.length) s.queue.shift();
      else s.queue[0] = chunk.subarray(n);
      s.queued -= n;
      this.sendWindow -= n;
      s.sendWindow -= n;
      this.sendData(s.id, chunk, n, flags);
      if (flags) {
        return this.localEnd(s);
      }
    }
    if (ending && !s.endSent) {
      this.sendData(s.id, EMPTY, 0, F.END_STREAM);
      return this.localEnd(s);
    }
    if (s.wantDrain && !s.writableNeedDrain) {
      s.wantDrain = false;
      s.emit('drain');
    }
    return true;
  }

  /** Our END_STREAM went out. */
  private localEnd(s: StreamResponse): boolean {
    s.endSent = true;
    if (s.remoteEnded) this.closeStream(s, false);
    else if (s.tunnel && s.statusCode < 300) {
      // An open tunnel is two byte streams: the client's side stays open until it ends it.
    } else {
      // Answered before the request body was all sent: ask the client to stop (RFC 9113 §8.1).
      this.resetId(s.id, F.NO_ERROR);
      this.closeStream(s, true);
    }
    return true;
  }

  private sendHead(id: number, block: Buffer, endStream: boolean): void {
    const max = this.peerMaxFrame;
    const flags = endStream ? F.END_STREAM : 0;
    if (block.length <= max) {
      this.write(frameHead(block.length, F.HEADERS, flags | F.END_HEADERS, id));
      this.write(block);
      return;
    }
    for (let at = 0; at < block.length; at += max) {
      const part = block.subarray(at, Math.min(at + max, block.length));
      const lastPart = at + max >= block.length;
      const type = at === 0 ? F.HEADERS : F.CONTINUATION;
      this.write(frameHead(part.length, type, (at === 0 ? flags : 0) | (lastPart ? F.END_HEADERS : 0), id));
      this.write(part);
    }
  }

  private sendData(id: number, chunk: Buffer, n: number, flags: number): void {
    if (n <= COPY_LIMIT) {
      const frame = Buffer.allocUnsafe(F.FRAME_HEADER + n);
      F.writeFrameHeader(frame, 0, n, F.DATA, flags, id);
      chunk.copy(frame, F.FRAME_HEADER, 0, n);
      this.write(frame);
      return;
    }
    this.write(frameHead(n, F.DATA, flags, id));
    this.write(n === chunk.length ? chunk : chunk.subarray(0, n));
  }

  /** A control frame answering the peer: refused when the peer leaves our writes unread (floods). */
  private control(frame: Buffer): void {
    if (this.socket.writableLength > MAX_UNREAD) throw new ConnectionError(F.ENHANCE_YOUR_CALM, 'peer does not read');
    this.write(frame);
  }

  private write(buf: Buffer): void {
    if (this.closed) return;
    if (!this.socket.write(buf) && !this.socketBlocked) {
      this.socketBlocked = true;
      this.blockedSince = clock;
    }
  }

  private onSocketDrain(): void {
    this.socketBlocked = false;
    for (const s of this.streams.values()) {
      if (s.wantDrain && !s.writableNeedDrain) {
        s.wantDrain = false;
        s.emit('drain');
      }
    }
  }

  // ---- ending ----

  /** GOAWAY with `code`; `now` ends the connection at once (after the frame), else when streams finish. */
  private goAway(code: number, now: boolean): void {
    if (this.closed) return;
    if (!this.goingAway) {
      this.goingAway = true;
      this.socket.write(F.wordFrame(F.GOAWAY, 0, 0, [this.lastStreamId, code]));
    }
    if (now || this.streams.size === 0) this.end();
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    live.delete(this);
    this.socket.end();
    // A peer that neither reads nor closes: do not wait for it.
    setTimeout(() => this.socket.destroy(), 5000).unref();
    this.abortAll();
  }

  private onSocketClose(): void {
    this.closed = true;
    live.delete(this);
    this.abortAll();
    this.held.clear();
  }

  private abortAll(): void {
    for (const s of [...this.streams.values()]) this.closeStream(s, true);
  }

  // ---- time-outs ----

  /** Called about once a second (sweepAll): end what has waited too long. */
  sweep(now: number): void {
    if (this.closed) {
      live.delete(this);
      return;
    }
    const t = this.timeouts;
    if (!this.settingsSeen) {
      if (now - this.openedAt > t.prefaceMs) this.timedOut(F.PROTOCOL_ERROR);
      return;
    }
    if (this.blockStream && now - this.blockStartedAt > t.headerMs) {
      this.timedOut(F.ENHANCE_YOUR_CALM);
      return;
    }
    if (this.socketBlocked && now - this.blockedSince > t.sendMs) {
      // The peer reads nothing at all: nothing more can reach it, not even a GOAWAY.
      this.closed = true;
      live.delete(this);
      this.socket.destroy();
      return;
    }
    for (const [s, until] of this.held) if (now > until) this.held.delete(s);
    if (this.streams.size === 0) {
      if (now - this.idleSince > t.idleMs && this.held.size === 0) this.goAway(F.NO_ERROR, true);
      return;
    }
    for (const s of this.streams.values()) {
      if (s.stalledSince && now - s.stalledSince > t.sendMs) this.reset(s, F.CANCEL);
      else if (!s.remoteEnded && !s.tunnel && now - s.openedAt > t.requestMs) this.reset(s, F.CANCEL);
    }
  }

  private timedOut(code: number): void {
    this.goAway(code, true);
    // Nothing more is read from it: once the GOAWAY is out, no need to wait for the peer to close.
    this.socket.once('finish', () => this.socket.destroy());
  }
}

/** closedState answers. */
const UNKNOWN = 0;
const CLOSED = 1;
const RESET = 2;
/** A flag beside the frame flags of a header block: its HEADERS made the stream depend on itself. */
const SELF_DEPENDENT = 0x100;
const ignore = () => undefined;

const EMPTY = Buffer.alloc(0);

function frameHead(length: number, type: number, flags: number, id: number): Buffer {
  const buf = Buffer.allocUnsafe(F.FRAME_HEADER);
  F.writeFrameHeader(buf, 0, length, type, flags, id);
  return buf;
}

function flushSession(session: H2Session): void {
  session.runFlush();
}

function emitClose(s: StreamResponse): void {
  s.emit('close');
}
