// One HTTP/2 connection (RFC 9113), server side, in JavaScript. Why not node:http2: it wraps
// every stream in a Duplex and crosses into nghttp2 and back per frame, which made it the
// bottleneck of the web service under h2load (about 17 µs of CPU per request for node alone,
// before any proxying). Here the frames of a read are parsed in one loop, a request is two small
// objects (stream.ts), and everything a tick writes leaves in one socket write.
//
// Scope: what a server needs. No server push, no priorities (PRIORITY frames are read and
// ignored, as RFC 9113 allows). Extended CONNECT (RFC 8441) opens tunnels, for WebSocket over
// HTTP/2; a plain CONNECT (a TCP tunnel to anywhere) is answered 405. Limits against
// abusive peers: concurrent streams, header block and header list sizes, resets per second,
// control frames queued while the peer does not read, flow-control windows both ways.
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
/** Streams the client may reset per second before the connection ends ("rapid reset"). */
const MAX_RESETS_PER_SECOND = 500;
/** Bytes the peer may leave unread in our socket before control-frame answers stop (flood). */
const MAX_UNREAD = 4 * 1024 * 1024;
/** A connection with no stream open for this long is closed with GOAWAY. */
const IDLE_TIMEOUT_MS = 120_000;
/** Acknowledge a body's consumed bytes in updates at least this large (or at its end). */
const WINDOW_UPDATE_STEP = 32 * 1024;
/** Data frames this small go out copied into one buffer with their header. */
const COPY_LIMIT = 2048;

const TOKEN = /^[a-z0-9!#$%&'*+\-.^_`|~]+$/;
const BAD_VALUE = /[\0\r\n]/;
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

export class H2Session {
  private readonly streams = new Map<number, StreamResponse>();
  private readonly decoder = new HpackDecoder();
  private pending: Buffer | null = null;
  private prefaceSeen = false;
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
  private resetsThisSecond = 0;
  private resetSecond = 0;

  constructor(
    private readonly socket: net.Socket,
    private readonly onStream: StreamHandler,
  ) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => this.onSocketDrain());
    socket.on('close', () => this.onSocketClose());
    socket.on('error', () => socket.destroy());
    socket.setTimeout(IDLE_TIMEOUT_MS, () => {
      if (this.streams.size === 0) this.goAway(F.NO_ERROR, true);
    });
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
    if (this.pending) {
      buf = Buffer.concat([this.pending, chunk]);
      this.pending = null;
    }
    let pos = 0;
    try {
      if (!this.prefaceSeen) {
        if (buf.length < F.PREFACE.length) {
          if (!F.PREFACE.subarray(0, buf.length).equals(buf))
            throw new ConnectionError(F.PROTOCOL_ERROR, 'bad preface');
          this.pending = buf;
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
    if (pos < buf.length && !this.closed) this.pending = buf.subarray(pos);
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
        if (id === 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'PRIORITY on stream 0');
        if (payload.length !== 5) this.resetId(id, F.FRAME_SIZE_ERROR);
        return;
      case F.RST_STREAM:
        this.onReset(id, payload);
        return;
      case F.SETTINGS:
        this.onSettings(flags, id, payload);
        return;
      case F.PUSH_PROMISE:
        throw new ConnectionError(F.PROTOCOL_ERROR, 'PUSH_PROMISE from a client');
      case F.PING:
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
        return; // unknown frame types are ignored (RFC 9113 §4.1)
    }
  }

  /** Strip padding (RFC 9113 §6.1); the pad length counts toward flow control, not the data. */
  private unpad(flags: number, payload: Buffer, skip = 0): Buffer {
    if (!(flags & F.PADDED)) return skip ? payload.subarray(skip) : payload;
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
    const s = this.streams.get(id);
    // A stream we closed or reset: frames still in flight are dropped.
    if (!s) return;
    if (s.remoteEnded) {
      this.reset(s, F.STREAM_CLOSED);
      return;
    }
    s.recvWindow -= payload.length;
    if (s.recvWindow < 0) {
      this.reset(s, F.FLOW_CONTROL_ERROR);
      return;
    }
    const data = this.unpad(flags, payload);
    s.received += data.length;
    // Padding is consumed at once.
    s.recvUnacked += payload.length - data.length;
    if (s.declaredLength >= 0 && s.received > s.declaredLength) {
      this.reset(s, F.PROTOCOL_ERROR);
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
        this.reset(s, F.PROTOCOL_ERROR);
        return;
      }
      this.remoteEnd(s);
    } else if (s.recvUnacked >= WINDOW_UPDATE_STEP) this.ackStream(s);
  }

  private onHeaders(flags: number, id: number, payload: Buffer): void {
    if (id === 0 || id % 2 === 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'HEADERS on a server stream id');
    const fragment = this.unpad(flags, payload, flags & F.PRIORITY_FLAG ? 5 : 0);
    this.blockStream = id;
    this.blockFlags = flags;
    this.blockParts = [];
    this.blockBytes = 0;
    this.addToBlock(flags, fragment);
  }

  private addToBlock(flags: number, fragment: Buffer): void {
    this.blockBytes += fragment.length;
    if (this.blockBytes > MAX_HEADER_BLOCK) throw new ConnectionError(F.ENHANCE_YOUR_CALM, 'header block too large');
    this.blockParts.push(fragment);
    if (!(flags & F.END_HEADERS)) return;
    const id = this.blockStream;
    const block = this.blockParts.length === 1 ? this.blockParts[0] : Buffer.concat(this.blockParts);
    this.blockStream = 0;
    this.blockParts = [];
    this.onHeaderBlock(id, this.blockFlags, block);
  }

  private onHeaderBlock(id: number, flags: number, block: Buffer): void {
    const endStream = (flags & F.END_STREAM) !== 0;
    const existing = this.streams.get(id);
    if (existing || id <= this.lastStreamId) {
      // Trailers: decoded (the table must stay in step) and dropped; they end the body.
      this.decoder.decode(block, () => undefined);
      if (!existing) return;
      if (existing.remoteEnded || !endStream) {
        this.reset(existing, F.PROTOCOL_ERROR);
        return;
      }
      if (existing.declaredLength >= 0 && existing.received !== existing.declaredLength) {
        this.reset(existing, F.PROTOCOL_ERROR);
        return;
      }
      this.remoteEnd(existing);
      return;
    }
    this.lastStreamId = id;
    // The fields, checked as RFC 9113 §8.2-8.3 asks; a malformed request is reset, the
    // connection (and the decoder's table) carries on.
    const headers: Record<string, string> = {};
    let malformed = '';
    let regularSeen = false;
    let listSize = 0;
    this.decoder.decode(block, (name, value) => {
      listSize += name.length + value.length + 32;
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
      else if (BAD_VALUE.test(value)) malformed = 'field value';
      else if (F.CONNECTION_SPECIFIC.has(name) || (name === 'te' && value !== 'trailers')) malformed = `field ${name}`;
      else {
        const had = headers[name];
        headers[name] = had === undefined ? value : `${had}${name === 'cookie' ? '; ' : ', '}${value}`;
      }
    });
    if (this.goingAway) return; // a stream after our GOAWAY is ignored (RFC 9113 §6.8)
    if (this.streams.size >= MAX_CONCURRENT_STREAMS) {
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
      this.resetId(id, F.PROTOCOL_ERROR);
      return;
    }

    const s = new StreamResponse(id, this, method === 'HEAD', this.peerInitialWindow, STREAM_RECV_WINDOW);
    this.streams.set(id, s);
    const length = headers['content-length'];
    if (length !== undefined) {
      if (!/^\d{1,15}$/.test(length)) {
        this.reset(s, F.PROTOCOL_ERROR);
        return;
      }
      s.declaredLength = Number(length);
      if (endStream && s.declaredLength !== 0) {
        this.reset(s, F.PROTOCOL_ERROR);
        return;
      }
    }
    if (endStream) s.remoteEnded = true;
    else s.body = new RequestBody(s);
    if (listSize > MAX_HEADER_LIST) {
      s.writeHead(431, { 'content-type': 'text/plain; charset=utf-8' }).end('Request header fields too large\n');
      return;
    }
    if (method === 'CONNECT' && !tunnel) {
      s.writeHead(405, { allow: 'GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH' }).end();
      return;
    }
    s.tunnel = tunnel;
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
    const now = Math.floor(Date.now() / 1000);
    if (now !== this.resetSecond) {
      this.resetSecond = now;
      this.resetsThisSecond = 0;
    }
    if (++this.resetsThisSecond > MAX_RESETS_PER_SECOND)
      throw new ConnectionError(F.ENHANCE_YOUR_CALM, 'too many resets');
    const s = this.streams.get(id);
    if (s) this.closeStream(s);
  }

  private onSettings(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) throw new ConnectionError(F.PROTOCOL_ERROR, 'SETTINGS on a stream');
    if (flags & F.ACK) {
      if (payload.length) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'SETTINGS ack with a payload');
      return;
    }
    if (payload.length % 6) throw new ConnectionError(F.FRAME_SIZE_ERROR, 'SETTINGS size');
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
      // HEADER_TABLE_SIZE: our encoder keeps no table. MAX_CONCURRENT_STREAMS: we push nothing.
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
      for (const s of this.streams.values()) if (s.queue.length || (s.writableEnded && !s.endSent)) this.toFlush.add(s);
      this.scheduleFlush();
      return;
    }
    if (id > this.lastStreamId) throw new ConnectionError(F.PROTOCOL_ERROR, 'WINDOW_UPDATE on an idle stream');
    const s = this.streams.get(id);
    if (!s) return;
    if (increment === 0) {
      this.reset(s, F.PROTOCOL_ERROR);
      return;
    }
    s.sendWindow += increment;
    if (s.sendWindow > F.MAX_WINDOW) {
      this.reset(s, F.FLOW_CONTROL_ERROR);
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
    if (s.endSent) this.closeStream(s);
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

  /** Send RST_STREAM and close the stream (StreamHost, and our own stream errors). */
  reset(s: StreamResponse, code: number): void {
    if (s.closed) return;
    this.resetId(s.id, code);
    this.closeStream(s);
  }

  private resetId(id: number, code: number): void {
    this.write(F.wordFrame(F.RST_STREAM, 0, id, [code]));
  }

  /** The stream is over: forget it, end its body if cut short, tell the handler ('close'). */
  private closeStream(s: StreamResponse): void {
    if (s.closed) return;
    s.closed = true;
    this.streams.delete(s.id);
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
      if (window <= 0) return false;
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
    if (s.remoteEnded) this.closeStream(s);
    else if (s.tunnel && s.statusCode < 300) {
      // An open tunnel is two byte streams: the client's side stays open until it ends it.
    } else {
      // Answered before the request body was all sent: ask the client to stop (RFC 9113 §8.1).
      this.resetId(s.id, F.NO_ERROR);
      this.closeStream(s);
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
    if (!this.socket.write(buf)) this.socketBlocked = true;
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
    this.socket.end();
    // A peer that neither reads nor closes: do not wait for it.
    setTimeout(() => this.socket.destroy(), 5000).unref();
    this.abortAll();
  }

  private onSocketClose(): void {
    this.closed = true;
    this.abortAll();
  }

  private abortAll(): void {
    for (const s of [...this.streams.values()]) this.closeStream(s);
  }
}

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
