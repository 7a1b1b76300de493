// When a task is due: cron expressions through croner (which follows the zone's DST rules: a
// time in the skipped hour runs once at the first valid time after it, a time in the repeated
// hour once, at its first occurrence), intervals by plain arithmetic on an anchor.
import type { CronSchedule } from '@lucky/shared';
import { Cron } from 'croner';

const UNIT_MS = { seconds: 1000, minutes: 60_000, hours: 3_600_000 } as const;

/** A parsed schedule: the first due time strictly after `after`, or undefined when it never is. */
export interface CompiledSchedule {
  nextAfter(after: number): number | undefined;
}

/** Why an expression was refused (croner's words, for the `expressionInvalid` detail). */
export class ExpressionError extends Error {}

/** A paused croner job: we only ask it for times, our own timers run the tasks. */
export function parseExpression(expression: string, zone: string): Cron {
  try {
    // legacyMode: day-of-month and day-of-week combine with OR, as in every Unix cron.
    return new Cron(expression, { timezone: zone, paused: true, legacyMode: true });
  } catch (err) {
    throw new ExpressionError((err as Error).message.replace(/^CronPattern:\s*/, ''));
  }
}

/** True when `zone` is an IANA zone this runtime knows. */
export function zoneKnown(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * `anchor` is where interval counting starts (the module's start or the task's save), so an
 * interval task runs at anchor + k·period whatever the wall clock's zone does.
 */
export function compileSchedule(schedule: CronSchedule, zone: string, anchor: number): CompiledSchedule {
  if (schedule.kind === 'interval') {
    const period = schedule.every * UNIT_MS[schedule.unit];
    return {
      nextAfter: (after) => {
        if (after < anchor) return anchor + period;
        return anchor + (Math.floor((after - anchor) / period) + 1) * period;
      },
    };
  }
  const job = parseExpression(schedule.expression, zone);
  return {
    nextAfter: (after) => job.nextRun(new Date(after))?.getTime(),
  };
}

/** The next `count` times of an expression in `zone`, ISO 8601 with the zone's offset. */
export function previewTimes(expression: string, zone: string, count: number, from: number): string[] {
  const job = parseExpression(expression, zone);
  return job.nextRuns(count, new Date(from)).map((d) => isoInZone(d.getTime(), zone));
}

/** `2026-03-29T03:00:00+02:00`: the wall time in `zone` with its offset (what people read). */
export function isoInZone(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  // 'GMT' alone is a zero offset.
  const offset = get('timeZoneName').replace(/^GMT/, '') || '+00:00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}${offset}`;
}
