/**
 * Login throttling per client address. Each address gets `maxFailures`
 * attempts; then it is locked for `lockMs`. A success clears it. Being per
 * address, an attacker can lock out only himself, never the owner (the
 * ancestor's global counter let anyone lock everyone out). IPv6 clients are
 * keyed by their /64, since one host can rotate through a whole /64.
 */
export class LoginThrottle {
  private entries = new Map<string, { failures: number; lockedUntil: number; last: number }>();

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

  /** Record a failure; returns attempts left before the lock (0 = now locked). */
  fail(ip: string): number {
    this.prune();
    const key = LoginThrottle.keyOf(ip);
    const { maxFailures, lockMs } = this.settings();
    const e = this.entries.get(key) ?? { failures: 0, lockedUntil: 0, last: 0 };
    if (e.lockedUntil && e.lockedUntil <= this.now()) e.failures = 0;
    e.failures++;
    e.last = this.now();
    if (e.failures >= maxFailures) e.lockedUntil = this.now() + lockMs;
    this.entries.set(key, e);
    return Math.max(0, maxFailures - e.failures);
  }

  succeed(ip: string): void {
    this.entries.delete(LoginThrottle.keyOf(ip));
  }

  private prune(): void {
    if (this.entries.size < 10_000) return;
    const cutoff = this.now() - this.settings().lockMs;
    for (const [k, e] of this.entries) if (e.last < cutoff && e.lockedUntil < this.now()) this.entries.delete(k);
  }
}

function expandIpv6(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = ip.includes('::') ? Array(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}
