import { createHash, randomBytes } from 'node:crypto';

const ISSUER = 'Lucky';

// Loaded on first use: most installs never turn 2FA on.
const otpauth = () => import('otpauth');

export async function newTotpSecret(): Promise<string> {
  const { Secret } = await otpauth();
  return new Secret({ size: 20 }).base32;
}

export async function totpUri(secretBase32: string, account: string): Promise<string> {
  const { Secret, TOTP } = await otpauth();
  return new TOTP({ issuer: ISSUER, label: account, secret: Secret.fromBase32(secretBase32) }).toString();
}

/**
 * RFC 6238 check with ±1 step. Returns the matched time step so the caller
 * can refuse a replay of the same (or an older) code.
 */
export async function checkTotp(secretBase32: string, code: string, now = Date.now()): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const { Secret, TOTP } = await otpauth();
  const totp = new TOTP({ secret: Secret.fromBase32(secretBase32) });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / 30) + delta;
}

export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.trim().toLowerCase()).digest('hex');
}
