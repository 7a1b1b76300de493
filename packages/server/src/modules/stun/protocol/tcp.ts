// Binding over a connected TCP socket (RFC 8489 §6.2.2): messages follow each other on the
// stream, each framed by its own length; no retransmission, one time-out (Ti, 39.5 s). Several
// requests may share the connection, in sequence or at once (answers are matched by transaction).
import type net from 'node:net';
import { StunError, toStunError } from './errors.js';
import { bindingResult, decodeBindingResponse, encodeBindingRequest, HEADER_BYTES, MAGIC_COOKIE } from './message.js';
import type { BindingAnswer, StunEndpoint } from './udp.js';

export interface TcpBindingOptions {
  /** Default 39 500 ms (RFC 8489 Ti). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

interface Pending {
  transactionId: Buffer;
  started: number;
  settle(err: StunError | undefined, answer?: BindingAnswer): void;
}

/**
 * Largest message accepted from the server. A Binding answer is a few dozen bytes; the cap keeps
 * a hostile server from making this side hold up to the 64 KiB the length field allows.
 */
const MAX_MESSAGE = 4096;

const plainV4 = (a: string | undefined) => (a?.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : (a ?? ''));

export class TcpStunConnection {
  private readonly pending = new Map<string, Pending>();
  private buf: Buffer = Buffer.alloc(0);
  private failure?: StunError;
  /** Kept once known: a destroyed socket forgets its peer, the error texts still name it. */
  private remote?: StunEndpoint;

  /** `socket` is connected (or connecting) to the STUN server; this object owns it from now on. */
  constructor(
    private readonly socket: net.Socket,
    private readonly opts: { software?: string; maxMessageBytes?: number } = {},
  ) {
    this.remember();
    socket.once('connect', () => this.remember());
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      this.fail(
        new StunError('socketError', `STUN connection failed: ${err.message}`, {
          server: this.where(),
          error: err.code ?? err.message,
        }),
      ),
    );
    socket.on('end', () => this.fail(new StunError('closed', 'the STUN server closed the connection')));
    socket.on('close', () => this.fail(new StunError('closed', 'the STUN connection is closed')));
  }

  /** Requests waiting for an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  binding(opts: TcpBindingOptions = {}): Promise<BindingAnswer> {
    const { transactionId, bytes } = encodeBindingRequest({ software: this.opts.software });
    const key = transactionId.toString('hex');
    return new Promise<BindingAnswer>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      if (opts.signal?.aborted) return reject(new StunError('aborted', 'the STUN request was cancelled'));
      const onAbort = () => p.settle(new StunError('aborted', 'the STUN request was cancelled'));
      const timer = setTimeout(
        () =>
          p.settle(
            new StunError('timeout', `no STUN answer from ${this.where()} over TCP`, {
              server: this.where(),
            }),
          ),
        opts.timeoutMs ?? 39_500,
      );
      const p: Pending = {
        transactionId,
        started: Date.now(),
        settle: (err, answer) => {
          if (this.pending.get(key) !== p) return;
          this.pending.delete(key);
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
          if (err) reject(err);
          else resolve(answer!);
        },
      };
      this.pending.set(key, p);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.socket.write(bytes);
    });
  }

  /**
   * Rejects pending requests ('closed') and closes the socket. `reset` sends an RST instead of a
   * FIN, so the local port is not held in TIME_WAIT (NAT discovery reconnects from the same port).
   */
  close(opts: { reset?: boolean } = {}): void {
    this.fail(new StunError('closed', 'the STUN connection was closed'));
    if (opts.reset && !this.socket.destroyed && this.socket.readyState === 'open') this.socket.resetAndDestroy();
    else this.socket.destroy();
  }

  /** The server's address (known once connected). */
  private server(): StunEndpoint {
    this.remember();
    return this.remote ? { ...this.remote } : { address: '', port: 0 };
  }

  private remember(): void {
    if (!this.remote && this.socket.remoteAddress) {
      this.remote = { address: plainV4(this.socket.remoteAddress), port: this.socket.remotePort ?? 0 };
    }
  }

  private where(): string {
    const s = this.server();
    return `${s.address}:${s.port}`;
  }

  /** The first failure sticks: pending and later requests get it. */
  private fail(err: StunError): void {
    this.failure ??= err;
    for (const p of [...this.pending.values()]) p.settle(this.failure);
    this.buf = Buffer.alloc(0);
  }

  private onData(chunk: Buffer): void {
    if (this.failure) return;
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const max = this.opts.maxMessageBytes ?? MAX_MESSAGE;
    while (this.buf.length >= HEADER_BYTES) {
      // The stream is only STUN: a header that is not one means we lost the framing for good.
      if ((this.buf[0] & 0xc0) !== 0 || this.buf.readUInt32BE(4) !== MAGIC_COOKIE) {
        this.abort(new StunError('notStun', `the STUN server at ${this.where()} sent something else than STUN`));
        return;
      }
      const size = HEADER_BYTES + this.buf.readUInt16BE(2);
      if (size > max) {
        this.abort(
          new StunError('tooLarge', `the STUN server at ${this.where()} sent a ${size}-byte message`, {
            bytes: size,
            max,
          }),
        );
        return;
      }
      if (this.buf.length < size) return;
      const msg = this.buf.subarray(0, size);
      this.buf = this.buf.subarray(size);
      this.onMessage(msg);
      if (this.failure) return;
    }
  }

  private onMessage(msg: Buffer): void {
    const p = this.pending.get(msg.subarray(8, 20).toString('hex'));
    // An answer nobody waits for (one that came after its time-out) is dropped.
    if (!p) return;
    try {
      const r = decodeBindingResponse(msg, p.transactionId);
      const mapped = bindingResult(r);
      p.settle(undefined, {
        mapped: { address: mapped.address, port: mapped.port },
        otherAddress: r.otherAddress && { address: r.otherAddress.address, port: r.otherAddress.port },
        responseOrigin: r.responseOrigin && { address: r.responseOrigin.address, port: r.responseOrigin.port },
        server: this.server(),
        rttMs: Date.now() - p.started,
        software: r.software,
      });
    } catch (err) {
      // TCP does not lose or corrupt bytes: a bad answer is the server's, and final.
      p.settle(toStunError(err));
    }
  }

  /**
   * Gives up on a server that broke the framing. With a reset: a FIN would leave this side in
   * FIN_WAIT / TIME_WAIT (the server keeps its end open), holding the 4-tuple from the shared
   * local port to that server, so the next check of it from the same port could not connect.
   */
  private abort(err: StunError): void {
    this.fail(err);
    if (!this.socket.destroyed && this.socket.readyState === 'open') this.socket.resetAndDestroy();
    else this.socket.destroy();
  }
}
