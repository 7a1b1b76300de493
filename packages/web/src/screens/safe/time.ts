import dayjs from 'dayjs';

/** Server times (ISO strings or epoch ms) in the browser's zone; "-" when absent. */
export function formatTime(v: unknown): string {
  if (v === null || v === undefined || v === '' || v === 0) return '-';
  const d = dayjs(v as string | number);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : String(v);
}
