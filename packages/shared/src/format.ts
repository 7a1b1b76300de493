// Display helpers shared by screens (spec section 9).

/** File sizes in base 1000 with three significant digits: 1234567 → "1.23 MB". */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '-';
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  if (i === 0) return `${v} B`;
  return `${Number(v.toPrecision(3))} ${units[i]}`;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random alphanumeric string (default length 15, spec section 9). Uses Web Crypto, present in browsers and Node. */
export function randomString(length = 15): string {
  const bytes = new Uint8Array(length);
  (globalThis as unknown as { crypto: { getRandomValues(a: Uint8Array): Uint8Array } }).crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}
