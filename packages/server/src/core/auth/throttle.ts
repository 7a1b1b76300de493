/**
 * Login throttling per client address. Each address gets `maxFailures`
 * attempts; then it is locked for `lockMs`. A success clears it. Being per
 * address, an attacker can lock out only himself, never the owner (the
 * ancestor's global counter let anyone lock everyone out). IPv6 clients are
 * keyed by their /64, since one host can rotate through a whole /64.
 *
 * An attempt is counted when it is ADMITTED, before the ~140 ms scrypt check:
 * counting after the check let 200 concurrent guesses all be hashed before the
 * first failure was recorded. At most `PER_ADDRESS_IN_FLIGHT` checks from one
 * address run at a time; further ones are refused at once, counted, never hashed.
 */

/** Checks one address may have running (a double click is two). */
export const PER_ADDRESS_IN_FLIGHT = 2;
/** What a refused-because-busy attempt is told to wait when the address is not (yet) locked. */
const BUSY_RETRY_MS = 1000;

export type Admission =
  | { ok: true; key: string; attemptsLeft: number }
  | { ok: false; reason: 'locked' | 'busy'; retryAfterMs: number };

/** How an admitted attempt ended: `refund` gives the count back (not a guess after all). */
export type Outcome = 'success' | 'failure' | 'refund';

interface Entry {
  failures: number;
  inFlight: number;
  lockedUntil: number;
  last: number;
}

export class LoginThrottle {
  private entries = new Map<string, Entry>();

  constructor(
    private settings: () => { maxFailures: number; lockMs: number },
    private now: () => number = Date.now,
  ) {}

  static keyOf(ip: string): string {
    if (!ip.includes(':') || ip.startsWith('::ffff:')) return ip.replace(/^::ffff:/, '');
    const groups = expandIpv6(ip);
    return `${groups.slice(0, 4).join(':')}::/64`;
  }

  /** Milliseconds until this address may try again, 0 if it may now. */
  retryAfterMs(ip: string): number {
    const e = this.entries.get(LoginThrottle.keyOf(ip));
    if (!e) return 0;
    return Math.max(0, e.lockedUntil - this.now());
  }

  /**
   * Count one guess from `ip` and say whether it may be checked now. Every call
   * is counted, admitted or not, so a flood locks its own address within
   * `maxFailures` calls; the caller must `settle` every admitted attempt.
   */
  admit(ip: string): Admission {
    this.prune();
    const key = LoginThrottle.keyOf(ip);
    const { maxFailures, lockMs } = this.settings();
    const now = this.now();
    let e = this.entries.get(key);
    if (!e) {
      e = { failures: 0, inFlight: 0, lockedUntil: 0, last: now };
      this.entries.set(key, e);
    }
    e.last = now;
    if (e.lockedUntil > now) return { ok: false, reason: 'locked', retryAfterMs: e.lockedUntil - now };
    if (e.lockedUntil) {
      e.lockedUntil = 0;
      e.failures = 0;
    }
    e.failures++;
    if (e.failures >= maxFailures) e.lockedUntil = now + lockMs;
    if (e.inFlight >= PER_ADDRESS_IN_FLIGHT) {
      return { ok: false, reason: 'busy', retryAfterMs: e.lockedUntil ? e.lockedUntil - now : BUSY_RETRY_MS };
    }
    e.inFlight++;
    return { ok: true, key, attemptsLeft: Math.max(0, maxFailures - e.failures) };
  }

  /** End an admitted attempt. A success clears the address's count and lock. */
  settle(ip: string, outcome: Outcome): void {
    const key = LoginThrottle.keyOf(ip);
    const e = this.entries.get(key);
    if (!e) return;
    e.inFlight = Math.max(0, e.inFlight - 1);
    if (outcome === 'success') {
      e.failures = 0;
      e.lockedUntil = 0;
    } else if (outcome === 'refund') {
      e.failures = Math.max(0, e.failures - 1);
      if (e.failures < this.settings().maxFailures) e.lockedUntil = 0;
    }
    if (e.inFlight === 0 && e.failures === 0) this.entries.delete(key);
  }

  private prune(): void {
    if (this.entries.size < 10_000) return;
    const now = this.now();
    const cutoff = now - this.settings().lockMs;
    for (const [k, e] of this.entries)
      if (e.inFlight === 0 && e.last < cutoff && e.lockedUntil < now) this.entries.delete(k);
  }
}

function expandIpv6(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = ip.includes('::') ? Array(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}
