// Finds the first address of a family in free text (an echo page, a command's output).
import { isIpv4, isIpv6 } from '@lucky/shared';

const V4 = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\d|\.\d)/g;
// Runs of hex digits, colons and dots that contain at least two colons; checked afterwards.
const V6 = /(?<![0-9A-Za-z:.])[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(?![0-9A-Za-z:])/g;

export function firstIp(text: string, family: 4 | 6): string | undefined {
  const re = family === 4 ? V4 : V6;
  for (const m of text.matchAll(re)) {
    const s = m[0].replace(/^\.+|\.+$/g, '');
    if (family === 4 ? isIpv4(s) : isIpv6(s) && !s.includes('%')) return s;
  }
  return undefined;
}
