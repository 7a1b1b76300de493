// Account and certificate keys: made with node:crypto, kept as PKCS#8 PEM; the account key's
// public half as a JWK (RFC 7517) and its RFC 7638 thumbprint (the key authorisation's tail).
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import type { AcmeKeyType } from '@lucky/shared';

/** A new private key of the type, as PKCS#8 PEM. RSA 4096 takes a second or more: it runs off the event loop. */
export function generateKeyPem(type: AcmeKeyType): Promise<string> {
  const encoding = {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  } as const;
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, _pub: string, priv: string) => (err ? reject(err) : resolve(priv));
    if (type === 'ec256' || type === 'ec384') {
      generateKeyPair('ec', { namedCurve: type === 'ec256' ? 'P-256' : 'P-384', ...encoding }, done);
    } else {
      generateKeyPair('rsa', { modulusLength: type === 'rsa2048' ? 2048 : 4096, ...encoding }, done);
    }
  });
}

/** The public JWK with only the members RFC 7638 hashes (and JWS headers carry). */
export type PublicJwk =
  | { kty: 'EC'; crv: 'P-256' | 'P-384'; x: string; y: string }
  | { kty: 'RSA'; e: string; n: string };

/** A private key with what signing needs: its JWK, JWS algorithm and hash. */
export interface AcmeKey {
  key: KeyObject;
  jwk: PublicJwk;
  alg: 'ES256' | 'ES384' | 'RS256';
  /** Digest for the JWS signature and the CSR's signature. */
  hash: 'sha256' | 'sha384';
}

/** Loads a PKCS#8 (or SEC1 / PKCS#1) PEM private key; P-256, P-384 and RSA ≥ 2048 only. */
export function loadKey(pem: string): AcmeKey {
  const key = createPrivateKey(pem);
  const full = createPublicKey(key).export({ format: 'jwk' });
  if (full.kty === 'EC') {
    if (full.crv === 'P-256') return { key, jwk: ecJwk(full, 'P-256'), alg: 'ES256', hash: 'sha256' };
    if (full.crv === 'P-384') return { key, jwk: ecJwk(full, 'P-384'), alg: 'ES384', hash: 'sha384' };
    throw new Error(`unsupported EC curve ${full.crv}`);
  }
  if (full.kty === 'RSA') {
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error('RSA keys need at least 2048 bits');
    return { key, jwk: { kty: 'RSA', e: String(full.e), n: String(full.n) }, alg: 'RS256', hash: 'sha256' };
  }
  throw new Error(`unsupported key type ${full.kty}`);
}

function ecJwk(full: { x?: string; y?: string }, crv: 'P-256' | 'P-384'): PublicJwk {
  return { kty: 'EC', crv, x: String(full.x), y: String(full.y) };
}

/** RFC 7638 thumbprint: SHA-256 over the required members in lexicographic order, base64url. */
export function jwkThumbprint(jwk: PublicJwk): string {
  const canonical =
    jwk.kty === 'EC'
      ? JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })
      : JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return createHash('sha256').update(canonical).digest('base64url');
}
