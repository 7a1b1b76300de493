import net from 'node:net';
import type { TokenBucket } from './limits.js';

const MIN_BUFFER = 4 * 1024;
const MAX_BUFFER = 256 * 1024;
/** Free buffers kept per size, so congested connections do not churn big allocations. */
const POOL_KEEP: Record<number, number> = { 4096: 64, 16384: 32, 65536: 16, 262144: 8 };

const pool = new Map<number, Buffer[]>();
function takeBuffer(size: number): Buffer {
  return pool.get(size)?.pop() ?? Buffer.allocUnsafeSlow(size);
}
function giveBuffer(buf: Buffer): void {
  const list = pool.get(buf.length) ?? [];
  if (list.length < (POOL_KEEP[buf.length] ?? 0)) {
    list.push(buf);
    pool.set(buf.length, list);
  }
}

/**
 * Reads a plain TCP socket into buffers the relay owns (Node's `onread` option) instead of a
 * fresh allocation per read plus the Readable machinery: on loopback this moved iperf3 through
 * the forwarder from ~9 to ~15 Gbit/s. A buffer is read into again only after its bytes have
 * left the process (the write completed at once); while a pending write still holds it, the
 * next read gets another buffer. Buffers grow while reads fill them (4 KiB → 256 KiB) and fall
 * back to 4 KiB when traffic is small, so an idle connection holds 4 KiB per direction.
 */
export class OwnedBufferReader {
  private buf: Buffer | undefined;
  /** The buffer a pending write still references; returned to the pool when it flushes. */
  private held: Buffer | undefined;
  private lastRead = 0;
  private reusable = true;
  /** Chunks read before the relay attached (copied): only a target that talks first. */
  private early: Buffer[] = [];
  private sinkFn: ((chunk: Buffer) => boolean) | undefined;

  /** Pass as the socket's `onread` option. */
  readonly onread = {
    buffer: () => this.next(),
    // Always true: pausing is the relay's job (it knows about backpressure and speed limits).
    callback: (n: number, b: Uint8Array): boolean => {
      this.got(n, b as Buffer);
      return true;
    },
  };

  /** The relay's write: returns true when the chunk left the process and the buffer is free. */
  set sink(fn: (chunk: Buffer) => boolean) {
    this.sinkFn = fn;
    const early = this.early;
    this.early = [];
    for (const c of early) fn(c);
  }

  private got(n: number, b: Buffer): void {
    this.lastRead = n;
    const chunk = b.subarray(0, n);
    if (!this.sinkFn) {
      this.early.push(Buffer.from(chunk));
      this.reusable = true;
      return;
    }
    this.reusable = this.sinkFn(chunk);
  }

  private next(): Buffer {
    const cur = this.buf;
    if (!cur) {
      this.buf = takeBuffer(MIN_BUFFER);
      return this.buf;
    }
    let size = cur.length;
    if (this.lastRead === size) size = Math.min(size * 4, MAX_BUFFER);
    else if (this.lastRead < size / 16) size = MIN_BUFFER;
    if (!this.reusable) {
      this.held = cur;
      this.buf = takeBuffer(size);
    } else if (size !== cur.length) {
      giveBuffer(cur);
      this.buf = takeBuffer(size);
    }
    this.reusable = true;
    return this.buf as Buffer;
  }

  /** The pending write that held a buffer has flushed. */
  release(): void {
    if (this.held) giveBuffer(this.held);
    this.held = undefined;
  }
}

/**
 * Re-wraps an accepted socket's handle in a socket that reads into owned buffers. This uses
 * Node internals (`_handle`, the `handle` option that child_process uses), so it checks that
 * the new socket really took the handle and answers undefined otherwise (the caller then relays
 * in plain stream mode).
 */
export function adoptWithOwnedBuffers(raw: net.Socket, reader: OwnedBufferReader): net.Socket | undefined {
  const internals = raw as unknown as { _handle?: object | null };
  const handle = internals._handle;
  if (!handle || raw.destroyed) return undefined;
  let adopted: net.Socket;
  try {
    adopted = new net.Socket({
      handle,
      allowHalfOpen: true,
      readable: true,
      writable: true,
      onread: reader.onread,
      // Do not start reading (the target is not connected yet): saves a start/stop pair of epoll calls.
      manualStart: true,
    } as net.SocketConstructorOpts);
  } catch {
    return undefined;
  }
  if ((adopted as unknown as { _handle?: object })._handle !== handle) {
    adopted.destroy();
    return undefined;
  }
  adopted.pause();
  // Detach the handle from the accepted socket, then destroy that shell: it closes nothing and
  // gives the server back its connection count.
  internals._handle = null;
  raw.destroy();
  return adopted;
}

export interface PumpHooks {
  /** Bytes that went through, for the counters. */
  count(n: number): void;
  /** Speed limits this direction obeys (rule-wide and per connection). */
  buckets: readonly TokenBucket[];
}

/**
 * One direction of a relay with backpressure, speed limits and half-close. Chunks are written
 * as they arrive; the source pauses while the destination has unsent bytes (owned buffers) or
 * more than its high-water mark (stream mode), and while a speed limit makes it wait. The
 * source's end becomes the destination's end once everything before it is written.
 */
export class Pump {
  private waitingFlush = false;
  private waitingTokens = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onWritten = () => {
    if (this.waitingFlush && this.dst.writableLength === 0) {
      this.waitingFlush = false;
      this.reader?.release();
      this.resume();
    }
  };

  constructor(
    private readonly src: net.Socket,
    private readonly dst: net.Socket,
    private readonly reader: OwnedBufferReader | undefined,
    private readonly hooks: PumpHooks,
  ) {
    if (reader) reader.sink = (chunk) => this.write(chunk, true);
    else src.on('data', (chunk: Buffer) => this.write(chunk, false));
    src.on('end', () => {
      if (!dst.destroyed) dst.end();
    });
  }

  start(): void {
    this.resume();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private write(chunk: Buffer, owned: boolean): boolean {
    const n = chunk.length;
    this.hooks.count(n);
    if (this.dst.destroyed) return true;
    this.dst.write(chunk, this.onWritten);
    const pending = this.dst.writableLength;
    if (owned ? pending > 0 : pending >= this.dst.writableHighWaterMark) {
      this.waitingFlush = true;
      this.src.pause();
    }
    let wait = 0;
    for (const b of this.hooks.buckets) wait = Math.max(wait, b.take(n));
    if (wait > 0) {
      this.waitingTokens = true;
      this.src.pause();
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.waitingTokens = false;
        this.resume();
      }, wait);
    }
    return pending === 0;
  }

  private resume(): void {
    if (!this.waitingFlush && !this.waitingTokens && !this.src.destroyed) this.src.resume();
  }
}
