// The add / edit dialog's values of a list entry and their conversions: the value check (the
// shared one the server runs), and the expiry, picked as a wall-clock time in the console's display
// zone (components/time.ts), which need not be the browser's own.
import { SAFE_LIMITS, type SafeEntry, type SafeEntryInput, safeEntryProblem } from '@lucky/shared';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { displayTimeZone, formatDate } from '../../components/time';

export const EXPIRY_CHOICES = ['never', '1h', '1d', '7d', '30d', 'custom'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

const HOUR_MS = 3_600_000;
const SPANS: Record<Exclude<ExpiryChoice, 'never' | 'custom'>, number> = {
  '1h': HOUR_MS,
  '1d': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
  '30d': 30 * 24 * HOUR_MS,
};

export interface EntryValues {
  value: string;
  comment: string;
  expiry: ExpiryChoice;
  /** The picker's wall-clock time, read in the display zone (choice `custom`). */
  expiryDate: Dayjs | null;
}

type T = (key: string, vars?: Record<string, unknown>) => string;

/** The value's form rule: the shared check (`safeEntryProblem`), worded as the server's refusal. */
export function entryValueRule(t: T): Rule {
  return {
    validator: (_, raw: string | undefined) => {
      const value = (raw ?? '').trim();
      const problem = value ? safeEntryProblem(value) : 'entryInvalid';
      return problem ? Promise.reject(new Error(t(`safe.err_${problem}`, { value }))) : Promise.resolve();
    },
  };
}

export const commentMax = SAFE_LIMITS.comment.max;

/** Milliseconds the display zone is ahead of UTC at `utcMs`. */
function zoneOffset(utcMs: number, zone: string): number {
  const [date, time] = formatDate(new Date(utcMs), 'YYYY-MM-DD HH:mm:ss', zone).split(' ');
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(utcMs / 1000) * 1000;
}

/** The instant a wall-clock time (the picker's fields) means in `zone`. */
export function wallClockToUtc(wall: Dayjs, zone = displayTimeZone()): number {
  const asUtc = Date.UTC(wall.year(), wall.month(), wall.date(), wall.hour(), wall.minute(), 0);
  // Twice: the first guess may sit across a daylight-saving change from the answer.
  const first = asUtc - zoneOffset(asUtc, zone);
  return asUtc - zoneOffset(first, zone);
}

/** The picker value showing `utcMs` as the display zone's wall clock. */
export function utcToWallClock(utcMs: number, zone = displayTimeZone()): Dayjs {
  const [date, time] = formatDate(new Date(utcMs), 'YYYY-MM-DD HH:mm:ss', zone).split(' ');
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  return dayjs(new Date(y, mo - 1, d, h, mi, 0, 0));
}

/** The ISO expiry a choice means at `now` (null = never). */
export function expiresAtOf(values: Pick<EntryValues, 'expiry' | 'expiryDate'>, now: number): string | null {
  if (values.expiry === 'never') return null;
  if (values.expiry === 'custom') {
    return values.expiryDate ? new Date(wallClockToUtc(values.expiryDate)).toISOString() : null;
  }
  return new Date(now + SPANS[values.expiry]).toISOString();
}

/** The dialog's values for an entry (undefined: a new one). */
export function entryValues(entry?: SafeEntry): EntryValues {
  if (!entry) return { value: '', comment: '', expiry: 'never', expiryDate: null };
  const at = entry.expiresAt ? Date.parse(entry.expiresAt) : Number.NaN;
  return {
    value: entry.value,
    comment: entry.comment,
    expiry: Number.isNaN(at) ? 'never' : 'custom',
    expiryDate: Number.isNaN(at) ? null : utcToWallClock(at),
  };
}

/** The body the API takes. */
export function entryInput(values: EntryValues, now: number): SafeEntryInput {
  return {
    value: values.value.trim(),
    comment: (values.comment ?? '').trim(),
    expiresAt: expiresAtOf(values, now),
  };
}

/** Does an entry match the filter box (a part of its value or comment, any case)? */
export function entryMatches(entry: SafeEntry, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  if (!f) return true;
  return entry.value.toLowerCase().includes(f) || entry.comment.toLowerCase().includes(f);
}
