// Fake certificates for the certificate tab's tests: validity relative to now.
import type { CertView } from './certs';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

export const FP = 'ab12cd34ef5678900123456789abcdef0123456789abcdef0123456789abcd9f';

/** A stored certificate valid from `fromDays` (relative to now) until `untilDays`. */
export function certView(over: Partial<CertView> & { untilDays?: number; fromDays?: number; domains?: string[] } = {}) {
  const { untilDays = 90, fromDays = -1, domains = ['a.test', 'www.a.test'], ...rest } = over;
  const now = Date.now();
  const view: CertView = {
    Key: 'K1',
    Remark: '',
    Enable: true,
    AddTime: '2024-05-01T10:00:00.000Z',
    Fingerprint: FP,
    Expired: untilDays < 0,
    CertsInfo: [
      { Domains: domains, NotBeforeTime: iso(now + fromDays * DAY), NotAfterTime: iso(now + untilDays * DAY) },
    ],
    ...rest,
  };
  return view;
}

export const CERT_PEM = '-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIUfake\n-----END CERTIFICATE-----';
export const KEY_PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49fake\n-----END PRIVATE KEY-----';
export const EC_KEY_PEM = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIfake\n-----END EC PRIVATE KEY-----';
export const ENCRYPTED_KEY_PEM =
  '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIHsMFcGfake\n-----END ENCRYPTED PRIVATE KEY-----';
