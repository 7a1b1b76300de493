// Answers of the ACME API for the screen's tests.
import {
  type AcmeAccountView,
  type AcmeCertificateStatus,
  type AcmeCertificateView,
  type AcmeListResponse,
  acmeAccountSchema,
  acmeCertificateSchema,
  acmeSettingsSchema,
} from '@lucky/shared';

export const ACCOUNT_KEY = 'Acct1';
export const CERT_KEY = 'Cert1';

export function accountView(over: Partial<AcmeAccountView> = {}): AcmeAccountView {
  const { accountKeyPem: _k, ...a } = acmeAccountSchema.parse({
    key: ACCOUNT_KEY,
    name: 'le',
    email: 'me@example.com',
  });
  return { ...a, registered: true, ...over };
}

export function certView(
  over: Partial<AcmeCertificateView> = {},
  status: Partial<AcmeCertificateStatus> = {},
): AcmeCertificateView {
  const c = acmeCertificateSchema.parse({
    key: CERT_KEY,
    name: 'home',
    account: ACCOUNT_KEY,
    names: ['home.example.com'],
  });
  return { ...c, ...over, status: { state: 'pending', failures: 0, ...status } };
}

export function listAnswer(over: Partial<AcmeListResponse> = {}): AcmeListResponse {
  return {
    ret: 0,
    enabled: true,
    settings: acmeSettingsSchema.parse({}),
    accounts: [accountView()],
    certificates: [certView()],
    dnsProviders: ['cloudflare', 'powerdns', 'rfc2136'],
    ...over,
  };
}
