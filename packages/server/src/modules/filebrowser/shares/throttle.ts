// Guesses at a share link's password, counted twice before any scrypt runs:
// - per address (IPv6 by /64), with the module's sharePasswordMaxFailures / sharePasswordLockMinutes
//   — the login's LoginThrottle, so at most two checks per address run at once and a flood locks
//   its own address within maxFailures calls;
// - per link, SHARE_FACTOR times that many within the lock time, so many addresses together cannot
//   go on guessing one link's password. A single guesser locks only himself: the link stays open to
//   others until a crowd of addresses has failed.
import { LoginThrottle } from '../../../core/auth/throttle.js';

export const SHARE_FACTOR = 10;

export type GuessAdmission =
  | { ok: true }
  | { ok: false; reason: 'locked' | 'busy'; retryAfterMs: number; scope: 'address' | 'share' };

interface LinkEntry {
  failures: number;
  since: number;
  lockedUntil: number;
}

export class SharePasswordThrottle {
  private readonly byAddress: LoginThrottle;
  private links = new Map<string, LinkEntry>();

  constructor(
    private readonly settings: () => { maxFailures: number; lockMs: number },
    private readonly now: () => number = Date.now,
  ) {
    this.byAddress = new LoginThrottle(settings, now);
  }

  /** Count one guess from `ip` at link `share`; when ok, `settle` must follow. */
  admit(ip: string, share: string): GuessAdmission {
    const link = this.link(share);
    const now = this.now();
    if (link.lockedUntil > now)
      return { ok: false, reason: 'locked', retryAfterMs: link.lockedUntil - now, scope: 'share' };
    const a = this.byAddress.admit(ip);
    if (!a.ok) return { ...a, scope: 'address' };
    return { ok: true };
  }

  /**
   * End an admitted guess. Answers whether this failure locked the address or the link (for the
   * log's one `sharePasswordLocked` line), and for how long.
   */
  settle(ip: string, share: string, outcome: 'success' | 'failure' | 'refund'): { lockedMs: number } {
    this.byAddress.settle(ip, outcome);
    if (outcome !== 'failure') return { lockedMs: 0 };
    const { maxFailures, lockMs } = this.settings();
    const now = this.now();
    const link = this.link(share);
    if (now - link.since > lockMs) {
      link.failures = 0;
      link.since = now;
    }
    link.failures++;
    if (link.failures >= maxFailures * SHARE_FACTOR) {
      link.lockedUntil = now + lockMs;
      link.failures = 0;
      link.since = now;
      return { lockedMs: lockMs };
    }
    return { lockedMs: this.byAddress.retryAfterMs(ip) };
  }

  /** Milliseconds until `ip` may guess at `share` again (0: now). */
  retryAfterMs(ip: string, share: string): number {
    const link = Math.max(0, this.link(share).lockedUntil - this.now());
    return Math.max(link, this.byAddress.retryAfterMs(ip));
  }

  private link(share: string): LinkEntry {
    let e = this.links.get(share);
    if (!e) {
      if (this.links.size > 4096) this.links.clear();
      e = { failures: 0, since: this.now(), lockedUntil: 0 };
      this.links.set(share, e);
    }
    return e;
  }
}
