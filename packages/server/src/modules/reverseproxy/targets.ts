// The back ends of a proxy sub rule, in the order a request tries them: round robin, fail-over
// along the list, and a passive health check. A back end that cannot be reached (refused, no
// route, connect timeout, name not found) goes to the back of the line for a pause that doubles
// with each failure in a row (10 s, 20 s … 2 min), as nginx's max_fails=1 / fail_timeout does.
// It is never dropped: when every back end is paused they are still tried, soonest-back first,
// and the first answer clears the mark. Without this, with one of two back ends switched off,
// every second request would wait for its connect to fail (up to 5 s for a host that is gone)
// before failing over.
//
// The state lives on the target objects, made once per config (a reload starts afresh) and per
// process (a helper process learns on its own).
import type { ReverseproxyService } from '@lucky/shared';

export interface Target {
  origin: string;
  basePath: string;
  hostPort: string;
  /** Failures to reach it in a row; 0 while it answers. */
  failures: number;
  /** Until then (ms since the epoch) the other back ends go first. */
  pausedUntil: number;
}

/** Errors that say the back end is not there (as opposed to a bad answer or a lost client). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT']);
const FIRST_PAUSE_MS = 10_000;
const MAX_PAUSE_MS = 120_000;

interface TargetList {
  list: Target[];
  next: number;
}

const lists = new WeakMap<ReverseproxyService, TargetList>();

function listOf(s: ReverseproxyService): TargetList {
  let t = lists.get(s);
  if (!t) {
    t = {
      list: s.targets.map((raw) => {
        const u = new URL(raw);
        return {
          origin: u.origin,
          basePath: u.pathname.replace(/\/$/, ''),
          hostPort: u.host,
          failures: 0,
          pausedUntil: 0,
        };
      }),
      next: 0,
    };
    lists.set(s, t);
  }
  return t;
}

/** The back ends for one request, in the order to try them. */
export function order(s: ReverseproxyService): Target[] {
  const t = listOf(s);
  const { list } = t;
  if (list.length === 1) return list;
  const start = t.next % Math.max(1, list.length);
  t.next = (t.next + 1) % 1_000_000;
  const rotated = [...list.slice(start), ...list.slice(0, start)];
  let paused = false;
  for (const x of list) if (x.failures) paused = true;
  if (!paused) return rotated;
  const now = Date.now();
  const ready: Target[] = [];
  const waiting: Target[] = [];
  for (const x of rotated) (x.pausedUntil > now ? waiting : ready).push(x);
  waiting.sort((a, b) => a.pausedUntil - b.pausedUntil);
  return ready.concat(waiting);
}

/**
 * An attempt on `target` failed with `code`. Returns the pause in ms when it counts as
 * unreachable (for the log), else 0.
 */
export function noteFailure(target: Target, code: string | undefined): number {
  if (!code || !UNREACHABLE.has(code)) return 0;
  target.failures++;
  const pause = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.min(target.failures - 1, 10));
  target.pausedUntil = Date.now() + pause;
  return pause;
}

/** The back end answered: true when it had been marked unreachable. */
export function noteAnswer(target: Target): boolean {
  if (!target.failures) return false;
  target.failures = 0;
  target.pausedUntil = 0;
  return true;
}
