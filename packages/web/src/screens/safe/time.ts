import { formatTime as format } from '../../components/time';

/** Server times (ISO strings or epoch ms) in the display zone (components/time); "-" when absent. */
export function formatTime(v: unknown): string {
  return format(v, 'YYYY-MM-DD HH:mm:ss', '-');
}
