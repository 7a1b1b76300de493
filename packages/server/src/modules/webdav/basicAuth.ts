// The Authorization header of a WebDAV request: Basic credentials (RFC 7617) in UTF-8, the charset
// the server's challenge announces.

/** Basic auth challenge: every 401 carries it (Windows, macOS and rclone send UTF-8 then). */
export const CHALLENGE = 'Basic realm="Lucky WebDAV", charset="UTF-8"';

/** Longer credentials are not credentials (a user name ≤ 64 and a password ≤ 128 characters, UTF-8). */
const MAX_ENCODED = 1024;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * `undefined`: no Authorization header (anonymous); `null`: a header that is not usable Basic
 * credentials (another scheme, bad base64, no colon, not UTF-8) — answered like a wrong password.
 */
export function parseBasic(
  header: string | string[] | undefined,
): { user: string; password: string } | null | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) return null;
  const m = /^Basic[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!m || m[1].length > MAX_ENCODED || !BASE64.test(m[1])) return null;
  const bytes = Buffer.from(m[1], 'base64');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}
