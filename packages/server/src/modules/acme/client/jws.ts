// Flattened JWS (RFC 7515 §7.2.2) as ACME sends every POST (RFC 8555 §6.2): a protected header
// with alg, nonce, url and either the account's JWK (newAccount, revocation by certificate key)
// or its URL (kid); ECDSA signatures as raw r||s (JWA §3.4), not DER. And the inner JWS of
// External Account Binding (RFC 8555 §7.3.4): HS256 over the account JWK with the CA's MAC key.
import { createHmac, sign } from 'node:crypto';
import type { AcmeKey } from './keys.js';

export interface FlattenedJws {
  protected: string;
  payload: string;
  signature: string;
}

const b64u = (s: string | Buffer) => Buffer.from(s).toString('base64url');

/**
 * Signs `payload` (an object, or undefined for POST-as-GET's empty payload) for `url`.
 * `kid` is the account URL; without it the JWK goes into the header.
 */
export function signJws(
  key: AcmeKey,
  payload: unknown,
  header: { url: string; nonce?: string; kid?: string },
): FlattenedJws {
  const protectedHeader: Record<string, unknown> = { alg: key.alg, url: header.url };
  if (header.nonce !== undefined) protectedHeader.nonce = header.nonce;
  if (header.kid) protectedHeader.kid = header.kid;
  else protectedHeader.jwk = key.jwk;
  const p = b64u(JSON.stringify(protectedHeader));
  const body = payload === undefined ? '' : b64u(JSON.stringify(payload));
  const signature = sign(key.hash, Buffer.from(`${p}.${body}`), {
    key: key.key,
    ...(key.jwk.kty === 'EC' ? { dsaEncoding: 'ieee-p1363' as const } : {}),
  });
  return { protected: p, payload: body, signature: signature.toString('base64url') };
}

/**
 * The externalAccountBinding member of a newAccount payload: a JWS over the account's public
 * JWK, keyed by the CA's base64url HMAC key and naming the CA's key id.
 */
export function eabJws(key: AcmeKey, eab: { kid: string; hmacKey: string }, newAccountUrl: string): FlattenedJws {
  const p = b64u(JSON.stringify({ alg: 'HS256', kid: eab.kid, url: newAccountUrl }));
  const body = b64u(JSON.stringify(key.jwk));
  const mac = createHmac('sha256', Buffer.from(eab.hmacKey, 'base64url')).update(`${p}.${body}`).digest('base64url');
  return { protected: p, payload: body, signature: mac };
}
