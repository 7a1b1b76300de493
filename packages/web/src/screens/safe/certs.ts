// The core's certificate store (`/api/ssl`, docs/API.md "Certificates"):
// the calls, what the list shows about validity, the form's PEM checks and
// the server's refusals in the user's language.
import type { Translate } from '../../api/callErrors';
import { ApiError, del, get, post, put } from '../../api/client';

export interface CertChainEntry {
  Domains: string[];
  NotBeforeTime: string;
  NotAfterTime: string;
}

/** One stored certificate as GET api/ssl lists it (never the key material). */
export interface CertView {
  Key: string;
  Remark: string;
  Enable: boolean;
  AddTime: string;
  /** sha256 of the leaf's DER, lower-case hex; empty when the stored PEM does not parse. */
  Fingerprint: string;
  Expired: boolean;
  /** Leaf first, then the intermediates; empty when the stored PEM does not parse. */
  CertsInfo: CertChainEntry[];
}

export const certKeys = { list: ['certs'] as const };

/** "Expires soon" below this many days. */
export const SOON_DAYS = 30;
const DAY_MS = 86_400_000;

export async function fetchCerts(signal?: AbortSignal): Promise<CertView[]> {
  return (await get<{ ret: number; list?: CertView[] }>('api/ssl', { signal })).list ?? [];
}

/** Adds a pair; `silent`: the dialog puts a refusal on its field itself. */
export async function addCert(input: { remark: string; cert: string; key: string }): Promise<string> {
  const r = await post<{ ret: number; key: string }>(
    'api/ssl',
    { Remark: input.remark, CertBase64: input.cert, KeyBase64: input.key },
    { silent: true },
  );
  return r.key;
}

export function setCertEnabled(key: string, enable: boolean) {
  return put('api/ssl', undefined, { query: { key, field: 'enable', value: String(enable) } });
}

export function setCertRemark(key: string, remark: string) {
  return put('api/ssl', undefined, { query: { key, field: 'remark', value: remark } });
}

export function deleteCert(key: string) {
  return del('api/ssl', { query: { key } });
}

export type CertState = 'unreadable' | 'notYetValid' | 'expired' | 'soon' | 'valid';

export interface CertValidity {
  state: CertState;
  /** Whole days until the leaf expires (negative once expired); undefined when unreadable. */
  daysLeft?: number;
  notBefore?: string;
  notAfter?: string;
}

/** The leaf's validity at `now`: what the tags and the "days left" text show. */
export function certValidity(c: Pick<CertView, 'CertsInfo' | 'Expired'>, now = Date.now()): CertValidity {
  const leaf = c.CertsInfo[0];
  const from = leaf ? Date.parse(leaf.NotBeforeTime) : Number.NaN;
  const until = leaf ? Date.parse(leaf.NotAfterTime) : Number.NaN;
  if (!leaf || Number.isNaN(until)) return { state: 'unreadable' };
  const out = { notBefore: leaf.NotBeforeTime, notAfter: leaf.NotAfterTime };
  const left = until - now;
  // Floor: "3 days left" until the last full day; expired counts the days since.
  const daysLeft = left >= 0 ? Math.floor(left / DAY_MS) : -Math.ceil(-left / DAY_MS);
  if (left < 0) return { ...out, state: 'expired', daysLeft };
  if (!Number.isNaN(from) && from > now) return { ...out, state: 'notYetValid', daysLeft };
  // The server's own clock decides too (it is the one serving the certificate).
  if (c.Expired) return { ...out, state: 'expired', daysLeft };
  return { ...out, state: daysLeft < SOON_DAYS ? 'soon' : 'valid', daysLeft };
}

/** The intermediates' names (each entry's first name: its CN), i.e. who issued the leaf. */
export function chainNames(c: Pick<CertView, 'CertsInfo'>): string[] {
  return c.CertsInfo.slice(1)
    .map((x) => x.Domains[0] ?? '')
    .filter(Boolean);
}

/** `AB:12:CD:34…9F:01`: enough to tell certificates apart in a list. */
export function shortFingerprint(fp: string): string {
  const hex = fp.replace(/[^0-9a-f]/gi, '').toUpperCase();
  if (hex.length <= 12) return hex.match(/.{1,2}/g)?.join(':') ?? '';
  return `${hex.slice(0, 8).match(/.{2}/g)?.join(':')}…${hex.slice(-4).match(/.{2}/g)?.join(':')}`;
}

/** Full fingerprint as tools print it (`AB:CD:…`), for the clipboard. */
export function formatFingerprint(fp: string): string {
  return (
    fp
      .replace(/[^0-9a-f]/gi, '')
      .toUpperCase()
      .match(/.{2}/g)
      ?.join(':') ?? ''
  );
}

const CERT_BEGIN = /-----BEGIN CERTIFICATE-----/;
const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const KEY_BLOCK = /-----BEGIN ((?:RSA |EC |DSA |ENCRYPTED )?)PRIVATE KEY-----[\s\S]+?-----END \1PRIVATE KEY-----/;
const KEY_BEGIN = /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/;

export type PemProblem = 'required' | 'notPem' | 'wrongKind' | 'encrypted';

/** Client-side look at the certificate box: is there a PEM certificate block at all? */
export function checkCertPem(text: string | undefined): PemProblem | undefined {
  const s = text?.trim() ?? '';
  if (!s) return 'required';
  if (CERT_BLOCK.test(s)) return undefined;
  if (KEY_BEGIN.test(s)) return 'wrongKind';
  return 'notPem';
}

/** Client-side look at the key box: a PEM private key, not passphrase-protected. */
export function checkKeyPem(text: string | undefined): PemProblem | undefined {
  const s = text?.trim() ?? '';
  if (!s) return 'required';
  const m = KEY_BLOCK.exec(s);
  if (!m) return CERT_BEGIN.test(s) ? 'wrongKind' : 'notPem';
  if (m[1] === 'ENCRYPTED ' || /Proc-Type:\s*4,\s*ENCRYPTED/i.test(s)) return 'encrypted';
  return undefined;
}

export type CertField = 'cert' | 'key';

export function pemProblemText(t: Translate, field: CertField, p: PemProblem): string {
  if (field === 'cert') {
    if (p === 'required') return t('safe.certRequired');
    return p === 'wrongKind' ? t('safe.certIsKey') : t('safe.certNotPem');
  }
  if (p === 'required') return t('safe.certKeyRequired');
  if (p === 'encrypted') return t('safe.certKeyEncrypted');
  return p === 'wrongKind' ? t('safe.certKeyIsCert') : t('safe.certKeyNotPem');
}

/**
 * A refused add on the field it belongs to: `certInvalid` (400) names
 * `CertBase64` or `KeyBase64`; `certDuplicate` (409) is the certificate's.
 * The server's message tells a key of another certificate from one that does
 * not parse. Undefined: not one of these (the caller shows it as a message).
 */
export function addIssue(err: unknown, t: Translate): { field: CertField; text: string } | undefined {
  if (!(err instanceof ApiError) || err.kind !== 'ret' || !err.reply) return undefined;
  const { code, field, msg = '' } = err.reply;
  if (code === 'certDuplicate') return { field: 'cert', text: t('safe.certErrDuplicate') };
  if (code !== 'certInvalid' && !(field === 'CertBase64' || field === 'KeyBase64')) return undefined;
  if (field === 'KeyBase64') {
    if (/does not belong|not match/i.test(msg)) return { field: 'key', text: t('safe.certErrKeyMismatch') };
    if (/required/i.test(msg)) return { field: 'key', text: t('safe.certKeyRequired') };
    return { field: 'key', text: t('safe.certErrKeyInvalid') };
  }
  if (/required/i.test(msg)) return { field: 'cert', text: t('safe.certRequired') };
  return { field: 'cert', text: t('safe.certErrCertInvalid') };
}

/**
 * A file holding both the chain and the key (a "bundle" PEM): the certificate
 * blocks and the key block apart. Undefined when the text is not such a bundle.
 */
export function splitBundle(text: string): { cert: string; key: string } | undefined {
  const certs = text.match(new RegExp(CERT_BLOCK.source, 'g'));
  const key = KEY_BLOCK.exec(text)?.[0];
  if (!certs || !key) return undefined;
  return { cert: certs.join('\n'), key };
}
