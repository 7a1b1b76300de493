// Small words of the cron screen: a duration, a run result's tag colour.
import type { CronRunResult } from '@lucky/shared';

/** 850 ms, 12.3 s, 4 min 05 s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

export const RESULT_COLORS: Record<CronRunResult, string> = {
  ok: 'success',
  failed: 'error',
  timeout: 'warning',
  skipped: 'default',
};
