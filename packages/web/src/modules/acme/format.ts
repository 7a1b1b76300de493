// Dates and states of a certificate as the table shows them.
import type { AcmeCertState } from '@lucky/shared';

const DAY_MS = 86_400_000;

/** Whole days from `now` until `iso` (negative once past); undefined without a date. */
export function daysLeft(iso: string | undefined, now = Date.now()): number | undefined {
  if (!iso) return undefined;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return undefined;
  return Math.floor((at - now) / DAY_MS);
}

/** The tag colour of each state (antd preset colours, readable in both themes). */
export const STATE_COLORS: Record<AcmeCertState, string> = {
  pending: 'default',
  ordering: 'processing',
  valid: 'success',
  renewing: 'processing',
  failing: 'error',
  expired: 'error',
  revoked: 'warning',
  disabled: 'default',
};

/** An order runs: the list is fetched more often so its steps show. */
export const isRunning = (state: AcmeCertState) => state === 'ordering' || state === 'renewing';

/** Colour of the days left: red under a week, orange within the warning window, else none. */
export function daysLeftType(days: number, warnDays: number): 'danger' | 'warning' | undefined {
  if (days < 7) return 'danger';
  if (days <= warnDays) return 'warning';
  return undefined;
}
