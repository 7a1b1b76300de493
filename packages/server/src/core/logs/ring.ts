import type { LogLine } from '@lucky/shared';

/**
 * In-memory ring of program log lines behind GET /api/logs. Each line gets a
 * timestamp in nanoseconds since the epoch that is strictly increasing, so a
 * client that sends back the last one it saw (`pre`) never misses or repeats
 * a line, even when many lines share a clock tick.
 */
export class LogRing {
  private lines: { ts: bigint; text: string }[] = [];
  private last = 0n;
  /** Changes on every program start; the log dialog clears itself when it does. */
  readonly starttime: string;

  constructor(private capacity: number) {
    this.starttime = nowNs().toString();
  }

  setCapacity(capacity: number): void {
    this.capacity = capacity;
    this.trim();
  }

  push(text: string): string {
    let ts = nowNs();
    if (ts <= this.last) ts = this.last + 1n;
    this.last = ts;
    this.lines.push({ ts, text });
    // Trim in batches: shifting one element per push would be O(n) each time.
    if (this.lines.length > this.capacity + 64) this.trim();
    return ts.toString();
  }

  /** Lines newer than `pre` (all when absent or unparsable), at most `capacity`. */
  since(pre?: string): LogLine[] {
    this.trim();
    let after = -1n;
    if (pre && /^\d{1,30}$/.test(pre)) after = BigInt(pre);
    let start = this.lines.length;
    while (start > 0 && this.lines[start - 1].ts > after) start--;
    return this.lines.slice(start).map((l) => ({ timestamp: l.ts.toString(), log: l.text }));
  }

  get size(): number {
    return Math.min(this.lines.length, this.capacity);
  }

  private trim(): void {
    if (this.lines.length > this.capacity) this.lines = this.lines.slice(this.lines.length - this.capacity);
  }
}

const originNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
/** Wall-clock ns with hrtime resolution. */
function nowNs(): bigint {
  return originNs + process.hrtime.bigint();
}
