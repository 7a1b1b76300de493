// The expiry choices of a share link and the epoch ms each one means (0 = never).
import type { Dayjs } from 'dayjs';

export const EXPIRY_CHOICES = ['never', '1d', '7d', '30d', 'custom'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
const DAYS: Record<'1d' | '7d' | '30d', number> = { '1d': 1, '7d': 7, '30d': 30 };

/** The expiry a choice means at `now`; a custom date ends at the end of that day (local time). */
export function expiryOf(choice: ExpiryChoice, custom: Dayjs | null | undefined, now: number): number {
  if (choice === 'never') return 0;
  if (choice === 'custom') return custom ? custom.endOf('day').valueOf() : 0;
  return now + DAYS[choice] * DAY_MS;
}
