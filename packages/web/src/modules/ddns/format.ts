import type { DdnsSyncStatus } from '@lucky/shared';
import { formatTime } from '../../components/time';

/** ISO time in the display zone (components/time); '' for none. */
export const fmtTime = (iso: string | undefined) => formatTime(iso);

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
