// Our own timers for the tasks (no system cron): one pending timer per task, armed for its next
// due time. Waits are cut into slices of at most MAX_WAIT so a clock that jumps (NTP, a suspended
// box) is noticed, and the clock is injected so tests drive it across DST days.
import type { CompiledSchedule } from './schedule.js';

/** Time and timers; the runtime passes the module context's (cleared on stop), tests a fake one. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Longest single wait; the due time is checked again after it. */
const MAX_WAIT = 60 * 60_000;

interface Armed {
  schedule: CompiledSchedule;
  next: number | undefined;
  handle?: unknown;
}

/** Fires `due(key, at)` once for each due time of each armed task. */
export class TaskScheduler {
  private readonly armed = new Map<string, Armed>();

  constructor(
    private readonly clock: Clock,
    private readonly due: (key: string, at: number) => void,
  ) {}

  /** (Re)arm a task: its next due time strictly after now. */
  set(key: string, schedule: CompiledSchedule): void {
    this.remove(key);
    const a: Armed = { schedule, next: schedule.nextAfter(this.clock.now()) };
    this.armed.set(key, a);
    this.wait(key, a);
  }

  remove(key: string): void {
    const a = this.armed.get(key);
    if (a?.handle !== undefined) this.clock.clearTimeout(a.handle);
    this.armed.delete(key);
  }

  clear(): void {
    for (const key of [...this.armed.keys()]) this.remove(key);
  }

  /** The next due time (ms) of an armed task. */
  nextOf(key: string): number | undefined {
    return this.armed.get(key)?.next;
  }

  private wait(key: string, a: Armed): void {
    if (a.next === undefined) return;
    const delay = Math.min(Math.max(0, a.next - this.clock.now()), MAX_WAIT);
    a.handle = this.clock.setTimeout(() => this.wake(key, a), delay);
  }

  private wake(key: string, a: Armed): void {
    if (this.armed.get(key) !== a || a.next === undefined) return;
    a.handle = undefined;
    const now = this.clock.now();
    if (now >= a.next) {
      const at = a.next;
      // After a long stall only one run fires; the next time is counted from now.
      a.next = a.schedule.nextAfter(Math.max(at, now));
      this.due(key, at);
    }
    if (this.armed.get(key) === a) this.wait(key, a);
  }
}
