import { createHmac, randomBytes } from 'node:crypto';
import { type FairGate, GateFullError } from './fairGate.js';
import { verifyPassword } from './password.js';
import { LoginThrottle } from './throttle.js';

/**
 * Password checks for the file services' own users (WebDAV Basic auth, FTP USER/PASS, share-link
 * passwords): the admin login's defences, per module.
 *
 * - Each guess is counted per address before the scrypt check (the login's `LoginThrottle`, with
 *   the base settings' `loginMaxFailures` / `loginLockMinutes`); a locked address is refused
 *   without hashing.
 * - The scrypt runs through the admin login's `FairGate`, so a flood of WebDAV guesses cannot
 *   queue the owner's login behind it.
 * - A WebDAV client sends its password with every request (Windows, rclone, davfs2): ~120 ms of
 *   scrypt per request would make the service unusable, so a password that checked out is
 *   remembered for `CACHE_MS` as an HMAC under a per-process key of (user, password, stored hash).
 *   Nothing reversible is kept, and a changed password or hash misses the cache by itself.
 */
const CACHE_MS = 10 * 60_000;
const CACHE_MAX = 4096;

export type ServiceAuthResult =
  | { ok: true; user: string }
  /** `bad`: no such user or a wrong password (never said which); `locked` / `busy`: throttled. */
  | { ok: false; reason: 'bad' | 'locked' | 'busy'; retryAfterMs?: number };

export class ServiceAuth {
  private readonly throttle: LoginThrottle;
  private readonly key = randomBytes(32);
  private cache = new Map<string, number>();

  constructor(
    private readonly gate: FairGate,
    settings: () => { maxFailures: number; lockMs: number },
    private readonly now: () => number = Date.now,
    /** A wrong user or password from `ip`: the security lists' auto-ban counts it for this module. */
    private readonly onFailure: (ip: string) => void = () => {},
  ) {
    this.throttle = new LoginThrottle(settings, now);
  }

  /** Check `user` / `password` from `ip`; `hashOf` answers the user's stored scrypt hash (undefined: no such user). */
  async check(
    ip: string,
    user: string,
    password: string,
    hashOf: (user: string) => string | undefined,
  ): Promise<ServiceAuthResult> {
    const stored = hashOf(user);
    const locked = this.throttle.retryAfterMs(ip);
    if (locked > 0) {
      // Guessing on while locked out counts toward auto-ban, as for the admin login.
      this.onFailure(ip);
      return { ok: false, reason: 'locked', retryAfterMs: locked };
    }
    if (stored !== undefined) {
      const id = this.cacheId(user, password, stored);
      const until = this.cache.get(id);
      if (until !== undefined && until > this.now()) return { ok: true, user };
    }
    const admission = this.throttle.admit(ip);
    if (!admission.ok) return { ok: false, reason: admission.reason, retryAfterMs: admission.retryAfterMs };
    let good = false;
    try {
      // An unknown user costs the same scrypt as a known one: the time does not say which names exist.
      good = await this.gate.run(admission.key, () => verifyPassword(password, stored ?? DUMMY_HASH));
      good = good && stored !== undefined;
    } catch (err) {
      this.throttle.settle(ip, 'refund');
      if (err instanceof GateFullError) return { ok: false, reason: 'busy', retryAfterMs: 1000 };
      throw err;
    }
    this.throttle.settle(ip, good ? 'success' : 'failure');
    if (!good) {
      this.onFailure(ip);
      return { ok: false, reason: 'bad' };
    }
    this.remember(this.cacheId(user, password, stored as string));
    return { ok: true, user };
  }

  /**
   * One scrypt check of `password` against `stored` through the login's fair gate (in `ip`'s turn),
   * without this class's throttle or cache: for a caller that counts guesses by its own rules
   * (share links: per address and per link, with the module's limits). `busy` when too many
   * checks wait already.
   */
  async verifyGated(ip: string, password: string, stored: string): Promise<boolean | 'busy'> {
    try {
      return await this.gate.run(LoginThrottle.keyOf(ip), () => verifyPassword(password, stored));
    } catch (err) {
      if (err instanceof GateFullError) return 'busy';
      throw err;
    }
  }

  /** Milliseconds until `ip` may try again (0: now). */
  retryAfterMs(ip: string): number {
    return this.throttle.retryAfterMs(ip);
  }

  /** Forget every remembered password (users were changed or removed). */
  forget(): void {
    this.cache.clear();
  }

  private cacheId(user: string, password: string, stored: string): string {
    return createHmac('sha256', this.key)
      .update(user)
      .update('\0')
      .update(password)
      .update('\0')
      .update(stored)
      .digest('base64');
  }

  private remember(id: string): void {
    if (this.cache.size >= CACHE_MAX) {
      const now = this.now();
      for (const [k, until] of this.cache) if (until <= now) this.cache.delete(k);
      // Still full: drop the oldest (Map order is insertion order).
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    }
    this.cache.set(id, this.now() + CACHE_MS);
  }
}

/** A valid hash of a random password, checked for unknown users. */
const DUMMY_HASH = `scrypt$32768$8$1$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;
