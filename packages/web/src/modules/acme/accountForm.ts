// The account dialog as data, free of React so it is unit-tested: the values a new account
// starts with, the conversions to and from the API shapes, the directory a CA choice means, and
// the check before sending — the shared schema plus the rules between fields the server applies
// too (EAB for the CAs that need it, a custom CA's directory URL), answered with its codes.
import {
  ACME_CA_INFO,
  type AcmeAccountInput,
  type AcmeAccountView,
  type AcmeCa,
  type AcmeKeyType,
  acmeAccountInputSchema,
  acmeIssues,
  isDirectoryUrl,
  SECRET_MASK,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';

export interface AccountFormValues {
  name: string;
  email: string;
  ca: AcmeCa;
  directoryUrl: string;
  eab: { kid: string; hmacKey: string };
  keyType: AcmeKeyType;
  caCertPem: string;
}

export const newAccountValues = (): AccountFormValues => ({
  name: '',
  email: '',
  ca: 'letsencrypt',
  directoryUrl: '',
  eab: { kid: '', hmacKey: '' },
  keyType: 'ec256',
  caCertPem: '',
});

/** The form values of a listed account (masked secrets stay masked: kept unless replaced). */
export const accountToValues = (a: AcmeAccountView): AccountFormValues => ({
  name: a.name,
  email: a.email,
  ca: a.ca,
  directoryUrl: a.directoryUrl,
  eab: { kid: a.eab.kid, hmacKey: a.eab.hmacKey },
  keyType: a.keyType,
  caCertPem: a.caCertPem,
});

/** What is sent: trimmed text; a named CA sends no directory URL, a CA without EAB no EAB. */
export function valuesToAccount(v: AccountFormValues): AcmeAccountInput {
  const custom = v.ca === 'custom';
  const eab = custom || ACME_CA_INFO[v.ca as Exclude<AcmeCa, 'custom'>].eab;
  return {
    name: v.name.trim(),
    email: v.email.trim(),
    ca: v.ca,
    directoryUrl: custom ? v.directoryUrl.trim() : '',
    eab: eab ? { kid: v.eab.kid.trim(), hmacKey: v.eab.hmacKey.trim() } : { kid: '', hmacKey: '' },
    keyType: v.keyType,
    caCertPem: v.caCertPem.trim(),
  };
}

/** The directory a CA choice means ('' for a custom one not typed yet). */
export const directoryOf = (ca: AcmeCa, directoryUrl: string): string =>
  ca === 'custom' ? directoryUrl.trim() : ACME_CA_INFO[ca].directory;

/** Whether the dialog asks for EAB: 'required' for the CAs that need it, 'optional' for a custom CA. */
export function eabNeed(ca: AcmeCa): 'required' | 'optional' | 'none' {
  if (ca === 'custom') return 'optional';
  return ACME_CA_INFO[ca].eab ? 'required' : 'none';
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Every problem the server would name, with the same fields and codes; none = sendable. */
export function checkAccount(input: AcmeAccountInput): Failure[] {
  const out: Failure[] = [];
  const r = acmeAccountInputSchema.safeParse(input);
  if (!r.success)
    for (const i of r.error.issues) {
      const { field, code, params } = acmeIssues.fromZod(i, acmeAccountInputSchema);
      out.push({ field, code, params });
    }
  const ca = input.ca ?? 'letsencrypt';
  const url = (input.directoryUrl ?? '').trim();
  if (ca === 'custom' && !isDirectoryUrl(url))
    out.push({ field: 'directoryUrl', code: 'directoryUrlInvalid', params: {} });
  const kid = (input.eab?.kid ?? '').trim();
  const hmac = (input.eab?.hmacKey ?? '').trim();
  const need = eabNeed(ca);
  if (need === 'required' || (need === 'optional' && (kid !== '' || hmac !== ''))) {
    if (kid === '') out.push({ field: 'eab.kid', code: 'eabRequired', params: {} });
    if (hmac === '') out.push({ field: 'eab.hmacKey', code: 'eabRequired', params: {} });
  }
  if (hmac !== '' && hmac !== SECRET_MASK && !BASE64URL.test(hmac))
    out.push({ field: 'eab.hmacKey', code: 'eabKeyInvalid', params: {} });
  if (input.caCertPem && !/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(input.caCertPem))
    out.push({ field: 'caCertPem', code: 'caCertInvalid', params: {} });
  // The schema checks some of these too: each problem once.
  return out.filter((p, i) => out.findIndex((o) => o.field === p.field && o.code === p.code) === i);
}
