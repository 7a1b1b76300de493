// Detached ed25519 signatures of release packages. `scripts/package.mjs` writes
// `lucky-console/release.sig` = {alg, keyId, sig} where `sig` signs the exact bytes of
// `release.json`; that manifest holds the sha256 of every other file and the updater refuses
// any file it does not list, so the one signature covers the whole package.
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILT_IN_RELEASE_KEYS } from './releaseKeys.js';

export const SIGNATURE_FILE = 'release.sig';
/** Folder under the config dir where an admin may drop extra trusted public keys (*.pem). */
export const TRUSTED_KEYS_DIR = 'trusted-keys';

export interface TrustedKey {
  keyId: string;
  name: string;
  key: KeyObject;
}

/** What the updater learnt about a package's signature. */
export type SignatureCheck =
  | { status: 'trusted'; keyId: string; keyName: string }
  | { status: 'unsigned' }
  | { status: 'unknown-key'; keyId: string }
  | { status: 'bad'; reason: string };

/** First 16 hex digits of the sha256 of the key's SPKI DER: short, stable, shown to the admin. */
export function keyIdOf(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

function ed25519Public(pem: string): KeyObject | null {
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'ed25519' ? key : null;
  } catch {
    return null;
  }
}

/**
 * The built-in keys plus every `*.pem` public key in `<configDir>/trusted-keys/`. Read on each
 * upload, so a key dropped there counts at once; a file that is not an ed25519 public key is
 * skipped and reported through `onSkip`.
 */
export async function loadTrustedKeys(configDir?: string, onSkip?: (file: string) => void): Promise<TrustedKey[]> {
  const out: TrustedKey[] = [];
  for (const k of BUILT_IN_RELEASE_KEYS) {
    const key = ed25519Public(k.pem);
    if (key) out.push({ keyId: keyIdOf(key), name: k.name, key });
  }
  if (!configDir) return out;
  const dir = join(configDir, TRUSTED_KEYS_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.sort()) {
    if (!name.endsWith('.pem')) continue;
    const key = ed25519Public(await readFile(join(dir, name), 'utf8').catch(() => ''));
    if (key) out.push({ keyId: keyIdOf(key), name: `${TRUSTED_KEYS_DIR}/${name}`, key });
    else onSkip?.(name);
  }
  return out;
}

/**
 * Checks `release.sig` (its text, or null when the package has none) against the manifest
 * bytes. A signature by a key we do not hold cannot be checked, so it counts as unsigned
 * (`unknown-key`); a malformed file or one that a trusted key does not verify is `bad`.
 */
export function checkReleaseSignature(
  manifestBytes: Buffer,
  sigText: string | null,
  keys: readonly TrustedKey[],
): SignatureCheck {
  if (sigText === null) return { status: 'unsigned' };
  let raw: { alg?: unknown; keyId?: unknown; sig?: unknown };
  try {
    raw = JSON.parse(sigText);
  } catch {
    return { status: 'bad', reason: `${SIGNATURE_FILE} is not valid JSON` };
  }
  if (!raw || typeof raw !== 'object') return { status: 'bad', reason: `${SIGNATURE_FILE} is not an object` };
  if (raw.alg !== 'ed25519') return { status: 'bad', reason: `${SIGNATURE_FILE}: alg must be "ed25519"` };
  if (typeof raw.keyId !== 'string' || !/^[0-9a-f]{16}$/.test(raw.keyId))
    return { status: 'bad', reason: `${SIGNATURE_FILE}: bad keyId` };
  if (typeof raw.sig !== 'string' || !/^[A-Za-z0-9+/]{86}==$/.test(raw.sig))
    return { status: 'bad', reason: `${SIGNATURE_FILE}: bad signature encoding` };
  const sig = Buffer.from(raw.sig, 'base64');
  const candidates = keys.filter((k) => k.keyId === raw.keyId);
  if (candidates.length === 0) return { status: 'unknown-key', keyId: raw.keyId };
  for (const k of candidates) {
    if (verify(null, manifestBytes, k.key, sig)) return { status: 'trusted', keyId: k.keyId, keyName: k.name };
  }
  return { status: 'bad', reason: `the signature by key ${raw.keyId} does not match release.json` };
}
