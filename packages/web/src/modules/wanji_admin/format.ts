// How a console's numbers read in the table: uptime in days / hours / minutes, memory in base 1000
// (spec §9), the wait until the next try of a console that keeps failing, certificates by urgency.
import type { SummaryCert, SummaryModule, WanjiConsoleView } from '@lucky/shared';
import { type DurationUnits, duration, percent, size } from '../../screens/status/format';

export type { DurationUnits };
export { duration, percent, size };

export type Health = 'ok' | 'down' | 'mismatch' | 'off' | 'pending';

/** The badge of a row: switched off, never read yet, the pinned certificate changed, down, or fine. */
export function healthOf(c: WanjiConsoleView): Health {
  if (!c.enabled) return 'off';
  if (c.reachable) return 'ok';
  if (c.reason?.code === 'fingerprintMismatch') return 'mismatch';
  if (!c.reason || c.reason.code === 'notChecked') return 'pending';
  return 'down';
}

export const HEALTH_COLOR: Record<Health, string> = {
  ok: 'success',
  down: 'error',
  mismatch: 'warning',
  off: 'default',
  pending: 'processing',
};

/** Seconds until the next try, when the server is backing off (failed at least once); else undefined. */
export function secondsToNextTry(c: WanjiConsoleView, now: number): number | undefined {
  if (c.reachable || c.failures === 0 || !c.nextCheckAt) return undefined;
  const at = Date.parse(c.nextCheckAt);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Memory use of the machine (not the process): used / total as a percentage; undefined when unknown. */
export function systemMemoryPercent(m: { systemTotal: number; systemFree: number }): number | undefined {
  return m.systemTotal > 0 ? ((m.systemTotal - m.systemFree) / m.systemTotal) * 100 : undefined;
}

export const MODULE_STATE_COLOR: Record<SummaryModule['state'], string> = {
  running: 'green',
  starting: 'blue',
  stopped: 'default',
  disabled: 'default',
  error: 'red',
};

/**
 * Modules worth a tag in the row: the ones doing something or in trouble (running, starting, in
 * error, or with error lines). Idle (on, nothing to do) and switched-off modules are only counted
 * there — a console runs a dozen modules and the row must stay one glance; the expanded row lists all.
 */
export const shownModules = (mods: SummaryModule[]) =>
  mods.filter((m) => m.state === 'running' || m.state === 'starting' || m.state === 'error' || m.errors > 0);

/** Red when a week or less is left (or expired), orange within the summary's 30 days. */
export const certColor = (c: SummaryCert) => (c.daysLeft <= 7 ? 'red' : 'orange');
