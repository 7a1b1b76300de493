// Speed limits (token buckets) and live connection/session counts for the relays of any module
// (port forwarding now, STUN's built-in forwarding next).
import { addressKey } from '../net/connGuard.js';

/** Milliseconds from a monotonic clock; injectable for unit tests. */
export type Clock = () => number;
const monotonic: Clock = () => performance.now();

/**
 * Token bucket in bytes per second. TCP uses `take`: the chunk already read goes through and
 * the reader pauses for the debt, so the average holds without splitting chunks. UDP uses
 * `tryTake`: a datagram passes while the bucket is not in debt, otherwise it is dropped.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private rate: number,
    private readonly now: Clock = monotonic,
  ) {
    this.last = now();
    this.tokens = this.capacity();
  }

  get bytesPerSecond(): number {
    return this.rate;
  }

  setRate(rate: number): void {
    this.refill();
    this.rate = rate;
    this.tokens = Math.min(this.tokens, this.capacity());
  }

  /** Bytes that may pass at once after a quiet spell: 50 ms of traffic, at least 4 KiB. */
  private capacity(): number {
    return Math.max(this.rate * 0.05, 4096);
  }

  private refill(): void {
    const t = this.now();
    if (this.rate > 0) this.tokens = Math.min(this.capacity(), this.tokens + ((t - this.last) * this.rate) / 1000);
    this.last = t;
  }

  /** Account for `n` bytes; returns how long the reader must wait (ms) before reading more. */
  take(n: number): number {
    if (this.rate <= 0) return 0;
    this.refill();
    this.tokens -= n;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens * 1000) / this.rate);
  }

  /** A datagram of `n` bytes passes (and is counted) unless the bucket is in debt. */
  tryTake(n: number): boolean {
    if (this.rate <= 0) return true;
    this.refill();
    if (this.tokens <= 0) return false;
    this.tokens -= n;
    return true;
  }
}

/** Live TCP connections and UDP sessions of one scope (a module, or one rule), also per client address. */
export class Occupancy {
  tcp = 0;
  udp = 0;
  private readonly perIp = new Map<string, number>();

  of(ip: string): number {
    return this.perIp.get(ip) ?? 0;
  }

  add(kind: 'tcp' | 'udp', ip: string): void {
    this[kind]++;
    this.perIp.set(ip, this.of(ip) + 1);
  }

  remove(kind: 'tcp' | 'udp', ip: string): void {
    this[kind]--;
    const n = this.of(ip) - 1;
    if (n > 0) this.perIp.set(ip, n);
    else this.perIp.delete(ip);
  }
}

/** The caps of one scope; 0 in `perIp` means no per-address cap. */
export interface Caps {
  tcp: number;
  udp: number;
  perIp: number;
}

/** A level limits are counted at; the caller names its levels (port forwarding: `global`, `rule`). */
export interface Scope<N extends string = string> {
  name: N;
  occupancy: Occupancy;
  caps: Caps;
}

/** Which limit refused a client: a log code the caller's module owns (`ruleTcpLimit` …), with the cap. */
export type LimitCode<N extends string = string> = `${N}${'Tcp' | 'Udp' | 'PerIp'}Limit`;

/**
 * Admits a new connection or session against every scope (widest first), or says
 * which limit refused it. The returned release function is idempotent.
 */
export function admit<N extends string>(
  kind: 'tcp' | 'udp',
  clientIp: string,
  scopes: readonly Scope<N>[],
): { ok: true; release: () => void } | { ok: false; code: LimitCode<N>; cap: number } {
  // Per address means per host: an IPv6 client is counted by its /64, which one host can fill.
  const ip = addressKey(clientIp);
  for (const s of scopes) {
    const cap = s.caps[kind];
    if (s.occupancy[kind] >= cap) return { ok: false, code: `${s.name}${kind === 'tcp' ? 'Tcp' : 'Udp'}Limit`, cap };
    if (s.caps.perIp > 0 && s.occupancy.of(ip) >= s.caps.perIp)
      return { ok: false, code: `${s.name}PerIpLimit`, cap: s.caps.perIp };
  }
  for (const s of scopes) s.occupancy.add(kind, ip);
  let released = false;
  return {
    ok: true,
    release: () => {
      if (released) return;
      released = true;
      for (const s of scopes) s.occupancy.remove(kind, ip);
    },
  };
}

/** Byte counters and live counts of one proxy (port), with rates sampled once a second. */
export class ProxyStats {
  bytesIn = 0;
  bytesOut = 0;
  connections = 0;
  sessions = 0;
  accepted = 0;
  refused = 0;
  rateIn = 0;
  rateOut = 0;
  private lastIn = 0;
  private lastOut = 0;
  private lastAt: number;

  constructor(private readonly now: Clock = monotonic) {
    this.lastAt = now();
  }

  /** Called by the runtime's 1 s timer. */
  sample(): void {
    const t = this.now();
    const dt = (t - this.lastAt) / 1000;
    if (dt <= 0) return;
    this.rateIn = Math.round((this.bytesIn - this.lastIn) / dt);
    this.rateOut = Math.round((this.bytesOut - this.lastOut) / dt);
    this.lastIn = this.bytesIn;
    this.lastOut = this.bytesOut;
    this.lastAt = t;
  }
}
