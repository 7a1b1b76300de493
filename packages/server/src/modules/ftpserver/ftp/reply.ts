// FTP replies (RFC 959 §4.2): a three-digit code and text, one line `code text`, or several lines
// `code-first`, ` continuation`, `code last`. Text never carries a bare CR or LF from a file name
// or a client's argument (that would forge a reply line): they are replaced here, once.

const CRLF = '\r\n';

/** Text safe for a reply line: CR, LF and NUL become spaces. */
export function clean(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
  return text.replace(/[\r\n\u0000]/g, ' ');
}

/** One reply as sent: `lines` after the first become a multi-line reply ending with `code last`. */
export function formatReply(code: number, lines: string | readonly string[]): string {
  const all = typeof lines === 'string' ? [lines] : lines;
  if (all.length <= 1) return `${code} ${clean(all[0] ?? '')}${CRLF}`;
  let out = `${code}-${clean(all[0] ?? '')}${CRLF}`;
  // Middle lines start with a space, so none can be read as the final `code ` line.
  for (let i = 1; i < all.length - 1; i++) out += ` ${clean(all[i] ?? '')}${CRLF}`;
  return `${out}${code} ${clean(all[all.length - 1] ?? '')}${CRLF}`;
}

/** A path in a 257 reply: quoted, embedded quotes doubled (RFC 959 appendix II). */
export function quotePath(path: string): string {
  return `"${clean(path).replace(/"/g, '""')}"`;
}

/** `YYYYMMDDHHMMSS` in UTC (MDTM, MLSx `modify`), with `.sss` when `millis`. */
export function ftpTime(ms: number, millis = false): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const base = `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  return millis ? `${base}.${p(d.getUTCMilliseconds(), 3)}` : base;
}

/** `YYYYMMDDHHMMSS[.sss]` (UTC) as ms since the epoch; undefined when malformed. */
export function parseFtpTime(s: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{1,3}))?$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, se, m[7] ? Number(m[7].padEnd(3, '0')) : 0);
  return Number.isFinite(ms) ? ms : undefined;
}
