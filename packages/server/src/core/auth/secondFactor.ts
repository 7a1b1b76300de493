import type { ConfigStore } from '../config/store.js';
import type { Logger } from '../logs/logger.js';
import type { AuthState } from './authState.js';
import { checkTotp, hashRecoveryCode } from './totp.js';

/**
 * The login's second factor: a TOTP code newer than the last one accepted
 * (persisted in AuthState, so a restart does not reopen it), or an unused
 * recovery code, which is spent. Both are claimed synchronously, before any
 * await, so of N parallel logins with one code exactly one wins (8 parallel
 * logins with one recovery code used to give 5 sessions).
 */
export class SecondFactor {
  /** Recovery codes claimed but maybe not yet removed from the config on disk. */
  private spent = new Set<string>();

  constructor(
    private readonly store: ConfigStore,
    private readonly state: AuthState,
    private readonly log: Logger,
  ) {}

  async accept(code: string): Promise<boolean> {
    const step = await checkTotp(this.store.get().auth.twoFA.secret, code);
    if (step !== undefined) return this.state.acceptTotpStep(step);
    const hash = hashRecoveryCode(code);
    // From here to the claim there is no await: the check and the claim are one step.
    if (!this.store.get().auth.twoFA.recoveryCodes.includes(hash) || this.spent.has(hash)) return false;
    this.spent.add(hash);
    await this.store.update((d) => {
      d.auth.twoFA.recoveryCodes = d.auth.twoFA.recoveryCodes.filter((h) => h !== hash);
    });
    // Gone from the config now; the claim stays in memory anyway (a restore could bring it back).
    this.log.warn('a 2FA recovery code was used');
    return true;
  }
}
