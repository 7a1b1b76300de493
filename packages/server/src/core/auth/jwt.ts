import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HS256 JSON Web Tokens (RFC 7519) with node:crypto. The admin login needs
 * exactly one algorithm with one secret; the algorithm is fixed here and the
 * header is never trusted to choose it (no "alg: none", no key confusion).
 * A library (jose) cost ~10 MB of resident memory for this.
 */
const HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export interface JwtClaims {
  sub: string;
  sid: string;
  iat: number;
  exp: number;
}

export function signJwt(claims: JwtClaims, secret: Uint8Array): string {
  const body = `${HEADER}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${mac(body, secret)}`;
}

/** The claims of a token signed with `secret` and not expired at `nowMs`; undefined otherwise. */
export function verifyJwt(token: string, secret: Uint8Array, nowMs: number): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return undefined;
  const expected = Buffer.from(mac(`${parts[0]}.${parts[1]}`, secret));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let claims: Partial<JwtClaims>;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return undefined;
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs) return undefined;
  return claims as JwtClaims;
}

function mac(data: string, secret: Uint8Array): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

function b64url(s: string): string {
  return Buffer.from(s).toString('base64url');
}
