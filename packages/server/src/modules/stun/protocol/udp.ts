// Binding requests over a UDP socket the caller owns (RFC 8489 §6.2.1). The socket also carries
// forwarded traffic, so this class never listens on it: the caller passes every datagram to
// handle(), which claims STUN answers to our transactions and leaves everything else alone.
import type { AddressInfo } from 'node:net';
import { StunError, toStunError } from './errors.js';
import { bindingResult, decodeBindingResponse, encodeBindingRequest, looksLikeStun } from './message.js';

export interface StunEndpoint {
  address: string;
  port: number;
}

export interface BindingAnswer {
  /** The public (server reflexive) address the server saw. */
  mapped: StunEndpoint;
  /** OTHER-ADDRESS (RFC 5780) or CHANGED-ADDRESS (RFC 3489): the server's alternate address. */
  otherAddress?: StunEndpoint;
  /** RESPONSE-ORIGIN (or SOURCE-ADDRESS): where the server says it answered from. */
  responseOrigin?: StunEndpoint;
  /**
   * Where the answer came from: the server asked, or, under CHANGE-REQUEST, the address and port
   * that actually answered (NAT behaviour discovery checks that they changed as asked).
   */
  server: StunEndpoint;
  /** From the first transmission to the answer (includes retransmission waits). */
  rttMs: number;
  software?: string;
}

export interface UdpBindingOptions {
  changeIp?: boolean;
  changePort?: boolean;
  /** Initial retransmission time-out, ms (RFC 8489 default 500). */
  rtoMs?: number;
  /** Requests sent in all (default 7). */
  rc?: number;
  /** After the last request wait rm * rtoMs (default 16). */
  rm?: number;
  signal?: AbortSignal;
}

/** What the channel needs of a socket; node:dgram's Socket is one. */
export interface DatagramSocket {
  send(msg: Buffer, port: number, address: string, callback: (error: Error | null, bytes: number) => void): void;
  address(): AddressInfo;
}

interface Pending {
  server: StunEndpoint;
  changeIp: boolean;
  changePort: boolean;
  transactionId: Buffer;
  started: number;
  /** Code and text of the last answer that had our id but could not be accepted. */
  lastProblem?: StunError;
  settle(err: StunError | undefined, answer?: BindingAnswer): void;
}

/** Transactions recently finished, so a late duplicate answer is still recognised as ours. */
const RECENT_KEPT = 64;

/** An IPv4 address as the socket reports it: a dual-stack socket says ::ffff:a.b.c.d. */
const plainV4 = (a: string) => (a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a);

export class UdpStunChannel {
  private readonly pending = new Map<string, Pending>();
  private readonly recent: string[] = [];
  private closed = false;

  constructor(
    private readonly socket: DatagramSocket,
    private readonly opts: { software?: string } = {},
  ) {}

  /** The socket's local address and port. */
  local(): StunEndpoint {
    const a = this.socket.address();
    return { address: plainV4(a.address), port: a.port };
  }

  /** Requests waiting for an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Offer a received datagram. True when it belongs to this client (an answer to one of our
   * transactions, accepted or dropped as invalid or from an unexpected source): the caller must
   * not forward it. False for everything else, which is the caller's traffic.
   */
  handle(msg: Buffer, rinfo: { address: string; port: number }): boolean {
    if (!looksLikeStun(msg)) return false;
    const key = msg.subarray(8, 20).toString('hex');
    const p = this.pending.get(key);
    if (!p) return this.recent.includes(key);
    const from = { address: plainV4(rinfo.address), port: rinfo.port };
    // Off-path answers are dropped: only the server asked may answer, unless CHANGE-REQUEST
    // asked it to answer from its alternate address or port.
    if ((from.address !== p.server.address && !p.changeIp) || (from.port !== p.server.port && !p.changePort)) {
      return true;
    }
    try {
      const r = decodeBindingResponse(msg, p.transactionId);
      const mapped = bindingResult(r);
      p.settle(undefined, {
        mapped: { address: mapped.address, port: mapped.port },
        otherAddress: r.otherAddress && { address: r.otherAddress.address, port: r.otherAddress.port },
        responseOrigin: r.responseOrigin && { address: r.responseOrigin.address, port: r.responseOrigin.port },
        server: from,
        rttMs: Date.now() - p.started,
        software: r.software,
      });
    } catch (err) {
      const e = toStunError(err);
      // An error answer or one without a mapped address ends the transaction (RFC 8489 §6.3.3,
      // §6.3.4); a malformed one is discarded and the retransmissions go on (§6.3).
      if (e.code === 'errorResponse' || e.code === 'noMappedAddress' || e.code === 'unknownAttribute') {
        p.settle(e);
      } else {
        p.lastProblem = e;
      }
    }
    return true;
  }

  /**
   * One Binding transaction with `server` (an IPv4 address and port). Requests are sent at
   * 0, RTO, 3 RTO, 7 RTO, … (RTO doubling) until rc have gone out; the transaction fails
   * rm * RTO after the last one (defaults: 500 ms, 7, 16 → gives up at 39.5 s).
   */
  binding(server: StunEndpoint, opts: UdpBindingOptions = {}): Promise<BindingAnswer> {
    const rto = opts.rtoMs ?? 500;
    const rc = Math.max(1, opts.rc ?? 7);
    const rm = opts.rm ?? 16;
    const { transactionId, bytes } = encodeBindingRequest({
      changeIp: opts.changeIp,
      changePort: opts.changePort,
      software: this.opts.software,
    });
    const key = transactionId.toString('hex');
    const target = { address: plainV4(server.address), port: server.port };
    const where = `${target.address}:${target.port}`;
    return new Promise<BindingAnswer>((resolve, reject) => {
      if (this.closed) return reject(new StunError('closed', 'the STUN channel is closed'));
      if (opts.signal?.aborted) return reject(new StunError('aborted', 'the STUN request was cancelled'));
      let timer: NodeJS.Timeout | undefined;
      let sent = 0;
      const onAbort = () => p.settle(new StunError('aborted', 'the STUN request was cancelled'));
      const p: Pending = {
        server: target,
        changeIp: !!opts.changeIp,
        changePort: !!opts.changePort,
        transactionId,
        started: Date.now(),
        settle: (err, answer) => {
          if (this.pending.get(key) !== p) return;
          this.pending.delete(key);
          this.recent.push(key);
          if (this.recent.length > RECENT_KEPT) this.recent.shift();
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
          if (err) reject(err);
          else resolve(answer!);
        },
      };
      const giveUp = () => {
        const last = p.lastProblem;
        p.settle(
          last
            ? new StunError('invalidAnswer', `no valid STUN answer from ${where}: ${last.message}`, {
                server: where,
                reason: last.code,
              })
            : new StunError('timeout', `no STUN answer from ${where} after ${sent} requests`, {
                server: where,
                requests: sent,
              }),
        );
      };
      const transmit = () => {
        try {
          this.socket.send(bytes, target.port, target.address, (err) => {
            if (err) p.settle(sendError(err, where));
          });
        } catch (err) {
          // A closed socket throws at once instead of calling back.
          return p.settle(sendError(err as Error, where));
        }
        sent++;
        timer = sent < rc ? setTimeout(transmit, rto * 2 ** (sent - 1)) : setTimeout(giveUp, rm * rto);
      };
      this.pending.set(key, p);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      transmit();
    });
  }

  /** Rejects every pending request ('closed'); later calls reject at once. The socket stays the caller's. */
  close(): void {
    this.closed = true;
    for (const p of [...this.pending.values()]) p.settle(new StunError('closed', 'the STUN channel was closed'));
  }
}

function sendError(err: Error, where: string): StunError {
  const code = (err as NodeJS.ErrnoException).code ?? err.message;
  return new StunError('sendFailed', `cannot send to ${where}: ${err.message}`, { server: where, error: code });
}
