import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomicWrite.js';

const STATE_FILE = 'auth-state.json';
/** Token uses are written at most this often: a call per second must not mean a disk write per second. */
const TOKEN_USE_FLUSH_MS = 5_000;

export interface TokenUse {
  at: string;
  ip: string;
}

interface StateDoc {
  totpStep: number;
  tokenUse: Record<string, TokenUse>;
}

/**
 * Login state that must outlive the worker but is not configuration (it
 * changes on every 2FA login and API call, and must not churn lucky.json's
 * backups): the last accepted TOTP time step, so a used code stays used
 * across a restart, and each API token's last use (time, client address).
 * `auth-state.json`, 0600, written atomically; writes are chained in order.
 */
export class AuthState {
  private doc: StateDoc = { totpStep: 0, tokenUse: {} };
  private writes: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(private readonly configDir: string) {}

  private get file(): string {
    return path.join(this.configDir, STATE_FILE);
  }

  async load(): Promise<void> {
    try {
      const d = JSON.parse(await fs.readFile(this.file, 'utf8')) as Partial<StateDoc>;
      if (Number.isSafeInteger(d.totpStep)) this.doc.totpStep = d.totpStep as number;
      if (d.tokenUse && typeof d.tokenUse === 'object') this.doc.tokenUse = d.tokenUse;
    } catch {
      // Missing: nothing used yet. Unreadable: TOTP codes of the last 90 s could be replayed once
      // more, which is what a fresh install allows anyway.
    }
  }

  get lastTotpStep(): number {
    return this.doc.totpStep;
  }

  /**
   * Claim a TOTP step: true once per step and only for steps newer than the last one.
   * The claim is made before any await (so of N parallel uses one wins) and
   * saved before the caller lets the login through.
   */
  async acceptTotpStep(step: number, nowMs = Date.now()): Promise<boolean> {
    // A saved step well ahead of the clock means the clock was wrong then (no RTC before NTP) and
    // has been set back: keeping it would refuse every code until the clock catches up.
    const clockWentBack = this.doc.totpStep > Math.floor(nowMs / 30_000) + 2;
    if (step <= this.doc.totpStep && !clockWentBack) return false;
    this.doc.totpStep = step;
    await this.save();
    return true;
  }

  tokenUse(id: string): TokenUse | undefined {
    return this.doc.tokenUse[id];
  }

  /** Record an API token's use; saved within a few seconds. */
  tokenUsed(id: string, ip: string): void {
    this.doc.tokenUse[id] = { at: new Date().toISOString(), ip };
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.save().catch(() => undefined);
    }, TOKEN_USE_FLUSH_MS).unref();
  }

  /** Drop the use records of tokens that no longer exist. */
  async forgetTokens(keep: ReadonlySet<string>): Promise<void> {
    for (const id of Object.keys(this.doc.tokenUse)) if (!keep.has(id)) delete this.doc.tokenUse[id];
    await this.save();
  }

  /** Write what is pending now (shutdown). */
  async flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      await this.save();
    }
    await this.writes;
  }

  private save(): Promise<void> {
    const run = () => writeFileAtomic(this.file, JSON.stringify(this.doc), 0o600);
    const p = this.writes.then(run, run);
    this.writes = p.catch(() => undefined);
    return p;
  }
}
