import { GateFullError } from '../auth/fairGate.js';
import { verifyPassword } from '../auth/password.js';
import type { Outcome } from '../auth/throttle.js';
import type { Core } from '../core.js';
import { ApiFailure } from '../http/reply.js';

export const RET_THROTTLED = 3;

/** The throttle's answer: 403, ret 3, the wait in seconds; `field` names the input that was refused. */
export function throttled(waitMs: number, field?: string): ApiFailure {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiFailure(
    403,
    RET_THROTTLED,
    `too many failed logins from this address; try again in ${retryAfter} s`,
    field,
    { retryAfter, code: 'loginThrottled' },
  );
}

/**
 * One guess at the admin's secrets from one address: the login (password, then
 * its 2FA code) or a "current password" field. It is counted by the throttle
 * when it begins, before any hashing, and its password check waits its turn at
 * the core's fair gate. `end()` must run whatever happens (try / finally);
 * set `outcome` before.
 */
export class Attempt {
  outcome: Outcome = 'failure';

  private constructor(
    private readonly core: Core,
    readonly ip: string,
    private readonly key: string,
    /** Guesses left before the address is locked, this one already counted. */
    readonly attemptsLeft: number,
    private readonly field?: string,
  ) {}

  /** Count a guess from `ip`, or throw the throttle's answer (locked, or already checking two). */
  static begin(core: Core, ip: string, field?: string): Attempt {
    const a = core.throttle.admit(ip);
    if (!a.ok) {
      // Not logged once locked: a flood would push every useful line out of the log ring. The
      // refusals before the lock (at most maxFailures per window) are.
      if (a.reason === 'busy') core.log.warn(`login attempt from ${ip} refused: checks already running`);
      // Guessing on while locked out is what auto-ban is for (the lock alone would cap the count
      // at loginMaxFailures per lock, below the ban's default).
      else core.safe.failure(ip, 'admin');
      throw throttled(a.retryAfterMs, field);
    }
    return new Attempt(core, ip, a.key, a.attemptsLeft, field);
  }

  /** scrypt check of `password` against the stored hash, through the fair gate. */
  async checkPassword(password: string): Promise<boolean> {
    const stored = this.core.store.get().auth.passwordHash;
    try {
      return await this.core.hashGate.run(this.key, () => verifyPassword(password, stored));
    } catch (err) {
      if (!(err instanceof GateFullError)) throw err;
      // Too many checks waiting from too many addresses: not this address's fault, so not counted.
      this.outcome = 'refund';
      throw throttled(1000, this.field);
    }
  }

  end(): void {
    this.core.throttle.settle(this.ip, this.outcome);
  }

  /** The failure answer for a wrong guess: the lock when this was the last one allowed. */
  failed(reason: string, wrong: ApiFailure): ApiFailure {
    this.core.log.warn(`failed login from ${this.ip}: ${reason}`);
    // Every wrong admin secret (password, 2FA code, current password) counts toward auto-ban.
    this.core.safe.failure(this.ip, 'admin');
    if (this.attemptsLeft === 0) return throttled(this.core.throttle.retryAfterMs(this.ip), this.field);
    return wrong;
  }
}

/**
 * Check a "current password" field (password change, API token, 2FA off): the
 * same counted, throttled guess as a login, so a stolen session cannot use
 * these calls to guess the password faster.
 */
export async function checkCurrentPassword(core: Core, ip: string, password: string, field: string): Promise<void> {
  const attempt = Attempt.begin(core, ip, field);
  try {
    if (await attempt.checkPassword(password)) {
      attempt.outcome = 'success';
      return;
    }
    throw attempt.failed(
      `wrong current password (${field})`,
      new ApiFailure(400, 1, 'the current password is wrong', field, {
        code: 'currentPasswordWrong',
        attemptsLeft: attempt.attemptsLeft,
      }),
    );
  } finally {
    attempt.end();
  }
}
