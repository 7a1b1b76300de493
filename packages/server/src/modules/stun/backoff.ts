import { STUN_LIMITS } from '@lucky/shared';

/** Pauses before re-opening a lost mapping: the retry interval, doubling while it keeps failing, capped. */
export class Backoff {
  private failures = 0;

  constructor(private baseSec: number) {}

  setBase(sec: number): void {
    this.baseSec = sec;
  }

  /** The next pause in ms (and counts one more failure). */
  next(): number {
    const sec = Math.min(this.baseSec * 2 ** this.failures, Math.max(this.baseSec, STUN_LIMITS.retryMaxSec));
    this.failures++;
    return sec * 1000;
  }

  reset(): void {
    this.failures = 0;
  }
}
