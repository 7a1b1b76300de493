// Storage paths: the one canonical form every backend takes, and the decoders a service uses to get
// there from its wire form. Every file service (WebDAV, FTP, the file manager) goes through these,
// so an escape that one of them lets through is a bug here, once.
//
// Canonical: `/` for the root, else `/a/b` — no empty, `.` or `..` segment, no trailing slash, NFC.
import { StorageError } from './types.js';

/** Linux NAME_MAX: the longest file name most file systems store, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;
/** Linux PATH_MAX, in UTF-8 bytes, for the whole canonical path. */
export const MAX_PATH_BYTES = 4096;

// C0 controls (NUL among them), DEL and C1 controls: no client names a file with them on purpose,
// and they break logs, listings and FTP's line protocol.
const hasControl = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
};
// With the `u` flag a well-formed surrogate pair is one code point, so this matches lone halves only.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const bad = (raw: string, why: string): StorageError =>
  new StorageError('badPath', raw.length > 200 ? `${raw.slice(0, 200)}…` : raw, why);

/**
 * The canonical form of a storage path, or `StorageError('badPath')`. A path without a leading `/`
 * is read from the root too (every storage path is relative to the storage's root). Repeated `/`
 * merge and a trailing `/` goes; a `.` or `..` segment is refused, not resolved: a service that
 * has a current folder resolves them first in its own virtual space (`resolveVirtual`).
 */
export function checkPath(raw: string): string {
  if (typeof raw !== 'string') throw bad(String(raw), 'notString');
  // A cheap bound before any work: the UTF-8 form is never shorter than the UTF-16 length / 1.
  if (raw.length > MAX_PATH_BYTES) throw bad(raw, 'tooLong');
  if (hasControl(raw)) throw bad(raw, 'control');
  if (raw.includes('\\')) throw bad(raw, 'backslash');
  if (LONE_SURROGATE.test(raw)) throw bad(raw, 'surrogate');
  // NFC, not NFKC: macOS sends names decomposed (NFD) and everyone else composed, and both must
  // reach the same file. NFKC would also fold compatibility characters — fullwidth `．．／` into
  // `../`, `․․` (one dot leader) into `..` — turning a literal name into a traversal after the
  // check. We never fold them: such names stay literal names. NFC maps nothing to `.` or `/`, and
  // the segments are checked after it anyway.
  const nfc = raw.normalize('NFC');
  const segments: string[] = [];
  for (const seg of nfc.split('/')) {
    if (seg === '') continue;
    if (seg === '.' || seg === '..') throw bad(raw, 'dotSegment');
    if (Buffer.byteLength(seg, 'utf8') > MAX_NAME_BYTES) throw bad(raw, 'nameTooLong');
    segments.push(seg);
  }
  const out = `/${segments.join('/')}`;
  if (Buffer.byteLength(out, 'utf8') > MAX_PATH_BYTES) throw bad(raw, 'tooLong');
  return out;
}

const HEX = /^[0-9a-fA-F]{2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * An HTTP request's path (the part before `?`, as received, still percent-encoded) to a canonical
 * storage path, or `badPath`. Percent escapes decode as UTF-8 and invalid UTF-8 (overlong forms
 * like `%c0%ae`, CESU surrogates, stray bytes) is refused rather than replaced. Encoded `/`, `\`
 * and NUL (`%2F`, `%5C`, `%00`) are refused: a name holding them cannot exist on the backends and
 * some stacks decode twice. A `%` not followed by two hex digits is refused too. Decoding happens
 * once: `%252e` becomes the literal name `%2e`. Characters outside ASCII in the input (a client
 * that sent raw UTF-8, already decoded by the server) are taken as themselves.
 */
export function decodeUrlPath(rawUrlPath: string): string {
  if (typeof rawUrlPath !== 'string') throw bad(String(rawUrlPath), 'notString');
  // An encoded path is at most three times its decoded bytes.
  if (rawUrlPath.length > MAX_PATH_BYTES * 3) throw bad(rawUrlPath, 'tooLong');
  if (!rawUrlPath.includes('%')) return checkPath(rawUrlPath);
  const bytes: number[] = [];
  for (let i = 0; i < rawUrlPath.length; i++) {
    const c = rawUrlPath.charCodeAt(i);
    if (c === 0x25) {
      const hex = rawUrlPath.slice(i + 1, i + 3);
      if (!HEX.test(hex)) throw bad(rawUrlPath, 'badEscape');
      const b = Number.parseInt(hex, 16);
      if (b === 0x2f || b === 0x5c || b === 0x00) throw bad(rawUrlPath, 'encodedSeparator');
      bytes.push(b);
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      // One code point (a pair of UTF-16 units when astral); a lone surrogate fails checkPath later
      // — Buffer.from would turn it into U+FFFD silently, so refuse it here.
      const cp = rawUrlPath.codePointAt(i) ?? c;
      const ch = String.fromCodePoint(cp);
      if (LONE_SURROGATE.test(ch)) throw bad(rawUrlPath, 'surrogate');
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
      if (cp > 0xffff) i++;
    }
  }
  let text: string;
  try {
    text = utf8.decode(Uint8Array.from(bytes));
  } catch {
    throw bad(rawUrlPath, 'badUtf8');
  }
  return checkPath(text);
}

/** `base` joined with further segments or relative paths, checked (no `..` resolution). */
export function joinPath(base: string, ...parts: string[]): string {
  return checkPath([base, ...parts].join('/'));
}

/** The parent of a canonical path (`/` for `/` and for a top-level name). */
export function parentOf(path: string): string {
  const p = checkPath(path);
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/** The last segment of a canonical path ('' for the root). */
export function baseName(path: string): string {
  const p = checkPath(path);
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Whether `inner` is `outer` or below it (both canonical). */
export function isWithin(outer: string, inner: string): boolean {
  return outer === '/' || inner === outer || inner.startsWith(`${outer}/`);
}

/**
 * A stateful service's path argument (FTP `CWD ..`, `RETR ../x`) resolved against its current
 * folder in the service's VIRTUAL path space: absolute input starts at `/`, relative input at
 * `cwd`; `.` is dropped and `..` removes a segment but never climbs above `/` (clamped, as every
 * FTP server does); the result is checked (`badPath` for NUL, `\`, too long …). The storage only
 * ever sees the canonical result.
 */
export function resolveVirtual(cwd: string, input: string): string {
  if (typeof input !== 'string') throw bad(String(input), 'notString');
  if (input.length > MAX_PATH_BYTES) throw bad(input, 'tooLong');
  const start = input.startsWith('/') ? [] : checkPath(cwd).split('/').filter(Boolean);
  const out = [...start];
  for (const seg of input.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return checkPath(`/${out.join('/')}`);
}
