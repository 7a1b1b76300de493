// The live rates of the sessions' transfers, by direction: an upload (STOR, APPE, STOU) comes in,
// a download or a listing goes out.
import type { FtpserverSessionView, FtpserverTransferView } from '@lucky/shared';

export const isUpload = (verb: FtpserverTransferView['verb']) => verb === 'STOR' || verb === 'APPE' || verb === 'STOU';

export function liveRates(sessions: readonly FtpserverSessionView[]): { rateIn: number; rateOut: number } {
  let rateIn = 0;
  let rateOut = 0;
  for (const s of sessions) {
    if (!s.transfer) continue;
    if (isUpload(s.transfer.verb)) rateIn += s.transfer.rate;
    else rateOut += s.transfer.rate;
  }
  return { rateIn, rateOut };
}
