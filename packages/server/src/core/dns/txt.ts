// TXT values in the spellings providers use: as meant (most JSON APIs), in zone-file form with
// quotes (PowerDNS, deSEC, Huawei Cloud; RFC 1035 §5.1) and on the wire (RFC 2136).
import { ProviderError } from './types.js';

const MAX_VALUE = 2048;

/** A TXT value we write: printable ASCII (ACME tokens are base64url), at most 2048 characters. */
export function checkTxtValue(value: string): void {
  if (value === '' || value.length > MAX_VALUE || !/^[\x20-\x7e]+$/.test(value))
    throw new ProviderError(`a TXT value must be 1–${MAX_VALUE} printable ASCII characters`);
}

/** The value's character-strings: at most 255 bytes each (RFC 1035 §3.3). */
function chunks(value: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i += 255) out.push(value.slice(i, i + 255));
  return out.length ? out : [''];
}

/** Zone-file form: `"value"`, `"` and `\` escaped, split into strings of 255 characters. */
export function quoteTxt(value: string): string {
  return chunks(value)
    .map((c) => `"${c.replace(/["\\]/g, '\\$&')}"`)
    .join(' ');
}

/**
 * The value of a TXT record as a provider shows it: `"a" "b"` → `ab` with escapes undone
 * (`\"`, `\\`, `\DDD`); text without quotes is the value as it is.
 */
export function unquoteTxt(text: string): string {
  const s = text.trim();
  if (!s.startsWith('"')) return text;
  const bytes: number[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === ' ' || s[i] === '\t') {
      i++;
      continue;
    }
    const quoted = s[i] === '"';
    if (quoted) i++;
    while (i < s.length) {
      const c = s[i];
      if (quoted ? c === '"' : c === ' ' || c === '\t') break;
      if (c === '\\' && i + 1 < s.length) {
        const d = /^\d{3}/.exec(s.slice(i + 1, i + 4));
        if (d) {
          bytes.push(Number(d[0]) & 0xff);
          i += 4;
        } else {
          bytes.push(...Buffer.from(s[i + 1], 'utf8'));
          i += 2;
        }
        continue;
      }
      bytes.push(...Buffer.from(c, 'utf8'));
      i++;
    }
    if (quoted) i++;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Whether a record as the provider shows it holds `value` (quoted or not). */
export const holdsTxt = (shown: string, value: string): boolean => shown === value || unquoteTxt(shown) === value;

/** TXT rdata on the wire: length-prefixed character-strings. */
export function txtRdata(value: string): Buffer {
  return Buffer.concat(
    chunks(value).map((c) => {
      const b = Buffer.from(c, 'ascii');
      return Buffer.concat([Buffer.from([b.length]), b]);
    }),
  );
}
