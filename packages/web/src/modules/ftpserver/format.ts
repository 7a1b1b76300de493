// Figures of the FTP screen: sizes in base 1000 with three significant digits (spec §9), rates
// per second, and how long something has been going.
import { formatSize } from '@lucky/shared';

export const size = (bytes: number): string => formatSize(bytes);

export const rate = (bytesPerSecond: number): string => `${formatSize(Math.round(bytesPerSecond))}/s`;

/** `1:02:03` / `2:03`: a session's or transfer's age, from `since` to `now` (both ms). */
export function elapsed(since: number, now: number): string {
  const s = Math.max(0, Math.floor((now - since) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** An address for a URL: IPv6 literals in brackets. */
export const urlHost = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
