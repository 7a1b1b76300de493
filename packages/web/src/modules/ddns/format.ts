import type { DdnsSyncStatus } from '@lucky/shared';
import dayjs from 'dayjs';

/** ISO time in the browser's local time; '' for none. */
export const fmtTime = (iso: string | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '');

/** Tag colour per sync status: in step green/blue, failed red, waiting/paused amber, stopped grey. */
export const STATUS_COLOR: Record<DdnsSyncStatus, string> = {
  succeeded: 'success',
  ipSame: 'cyan',
  providerSame: 'cyan',
  dnsSame: 'cyan',
  ipUnchanged: 'blue',
  failed: 'error',
  paused: 'warning',
  waiting: 'processing',
  stopped: 'default',
};
