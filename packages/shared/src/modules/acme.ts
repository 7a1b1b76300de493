// The ACME module's shared half (`acme`, screen `/acme`): config schema, issue codes, reasons, log
// lines, API bodies and views. Accounts at a CA (Let's Encrypt, ZeroSSL and Google Trust Services
// with External Account Binding, any RFC 8555 directory) order certificates for names of the box;
// challenges are answered over HTTP-01 (the web service's port-80 listeners or a stand-alone
// responder) or DNS-01 (the core DNS providers: every DDNS provider API, RFC 2136, PowerDNS).
// Issued certificates go into the core certificate store and serve at the next handshake.
import { z } from 'zod';
import { type CodedText, fillTemplate } from '../contract/coded.js';
import { type LogPageResponse, logPageQuerySchema } from '../contract/logPage.js';
import { moduleSwitchShape } from '../contract/switch.js';
import { WEBHOOK_MESSAGES, webhookSchemas } from '../contract/webhook.js';
import { isHostName, isHttpUrl, isIp } from '../net.js';
import { DDNS_PROVIDERS, TSIG_ALGORITHMS } from './ddnsConstants.js';
import { issueKit } from './fieldIssue.js';

export const ACME_LIMITS = {
  accounts: { max: 32 },
  certificates: { max: 256 },
  /** Names (SANs) of one certificate: Let's Encrypt's own limit. */
  names: { max: 100 },
  name: { max: 64 },
  email: { max: 254 },
  /** Renew when the certificate has this many days left (or ARI's window opens earlier). */
  renewDaysBefore: { min: 1, max: 365, default: 30 },
  /** Tell the webhook when a certificate has this many days left and no renewal succeeded. */
  expiryWarnDays: { min: 1, max: 90, default: 14 },
  /** Seconds to wait for a DNS-01 TXT record to show at every authoritative server. */
  propagationTimeout: { min: 5, max: 3600, default: 300 },
  /** Seconds between two propagation checks. */
  propagationInterval: { min: 1, max: 300, default: 5 },
  /** TTL of the challenge TXT record (raised to the provider's minimum). */
  txtTtl: { min: 0, max: 86400, default: 120 },
  /** Port the stand-alone HTTP-01 responder listens on when no web-service rule holds it (CAs validate on 80). */
  httpPort: { min: 1, max: 65535, default: 80 },
  /** Seconds a post-renewal command may run. */
  commandTimeout: { min: 1, max: 3600, default: 60 },
  /** Seconds of each call to the CA. */
  httpTimeout: { min: 5, max: 300, default: 30 },
} as const;
const L = ACME_LIMITS;

/** Key of an account, a certificate (server-assigned). */
const KEY = /^[A-Za-z0-9]{1,32}$/;

/** The CAs the dialog offers by name; `custom` takes `directoryUrl`. */
export const ACME_CAS = [
  'letsencrypt',
  'letsencrypt-staging',
  'zerossl',
  'google',
  'google-staging',
  'custom',
] as const;
export type AcmeCa = (typeof ACME_CAS)[number];

/** Directory URLs of the named CAs, and whether they require External Account Binding. */
export const ACME_CA_INFO: Record<Exclude<AcmeCa, 'custom'>, { directory: string; eab: boolean }> = {
  letsencrypt: { directory: 'https://acme-v02.api.letsencrypt.org/directory', eab: false },
  'letsencrypt-staging': { directory: 'https://acme-staging-v02.api.letsencrypt.org/directory', eab: false },
  zerossl: { directory: 'https://acme.zerossl.com/v2/DV90', eab: true },
  google: { directory: 'https://dv.acme-v02.api.pki.goog/directory', eab: true },
  'google-staging': { directory: 'https://dv.acme-v02.test-api.pki.goog/directory', eab: true },
};

/** Key types of account keys and certificate keys; ECDSA P-256 is the default. */
export const ACME_KEY_TYPES = ['ec256', 'ec384', 'rsa2048', 'rsa4096'] as const;
export type AcmeKeyType = (typeof ACME_KEY_TYPES)[number];

export const ACME_CHALLENGES = ['http-01', 'dns-01'] as const;
export type AcmeChallengeType = (typeof ACME_CHALLENGES)[number];

/** DNS-01 through a provider API (the DDNS providers but its callback). */
export const ACME_DNS_PROVIDERS = DDNS_PROVIDERS.filter((p) => p !== 'callback') as Exclude<
  (typeof DDNS_PROVIDERS)[number],
  'callback'
>[];

/** RFC 5280 revocation reasons a user may give. */
export const ACME_REVOKE_REASONS = {
  unspecified: 0,
  keyCompromise: 1,
  superseded: 4,
  cessationOfOperation: 5,
} as const;
export type AcmeRevokeReason = keyof typeof ACME_REVOKE_REASONS;

/**
 * Issue codes (the zod messages) with their English text; the UI translates `acme.err_<code>`.
 * zod's own checks answer the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid).
 */
export const ACME_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another item is called {name}',
  emailInvalid: 'not an e-mail address',
  directoryUrlInvalid: 'the directory URL is an https:// URL (http:// only for localhost)',
  eabRequired: 'this CA needs External Account Binding: a key id and an HMAC key',
  eabKeyInvalid: 'the HMAC key is base64url (as the CA shows it)',
  caCertInvalid: 'not a PEM certificate',
  accountRequired: 'choose an account',
  accountUnknown: 'no account with key {account}',
  accountInUse: 'the account is used by {names}',
  namesRequired: 'at least one name',
  domainInvalid: 'not a domain name, wildcard (*.example.com) or IP address: {name}',
  domainDuplicate: '{name} is listed twice',
  wildcardNeedsDns: 'a wildcard name ({name}) can only be validated by DNS-01',
  ipNeedsHttp: 'an IP address ({name}) can only be validated by HTTP-01',
  dnsProviderRequired: 'choose the DNS provider that writes the TXT records',
  dnsProviderNoTxt: 'this provider cannot write TXT records',
  nameserverInvalid: 'not an address with an optional port: {token}',
  exportDirInvalid: 'the export folder is an absolute path',
  fileModeInvalid: 'a file mode is three octal digits (600, 640, 644)',
  itemNotFound: 'no such item',
  certificateNotFound: 'no such certificate',
  notIssued: 'the certificate has not been issued yet',
  busy: 'an order for this certificate is running already',
  revokeFailed: 'the CA did not revoke the certificate: {detail}',
  moduleDisabled: 'the ACME module is switched off',
  ...WEBHOOK_MESSAGES,
} as const;
export type AcmeIssueCode = keyof typeof ACME_MESSAGES;
export const acmeIssues = issueKit(ACME_MESSAGES);

/**
 * Why an order or a renewal failed (`CodedText`; the UI translates `acme.reason_<code>`) — never a
 * bare "internal error": each names the step and what the CA, the DNS or the responder said.
 */
export const ACME_REASONS = {
  directoryUnreachable: 'the CA directory {url} cannot be reached: {detail}',
  caProblem: 'the CA refused ({type}): {detail}',
  rateLimited: 'the CA rate limit was hit; it says to retry after {retryAfter}',
  eabRefused: 'the CA refused the External Account Binding: {detail}',
  accountMissing: 'the account is not registered at the CA (or was deactivated)',
  challengeUnavailable: 'the CA offers no {type} challenge for {name}',
  httpPortBusy:
    'nothing answers HTTP-01 on port {port}: no web-service rule listens there and the port is taken by {owner}',
  httpResponderFailed: 'the HTTP-01 responder could not listen on port {port}: {detail}',
  dnsWriteFailed: 'the DNS provider could not write the TXT record {record}: {detail}',
  propagationTimeout: 'the TXT record {record} did not appear at {servers} within {seconds} s',
  authoritativeUnknown: 'no authoritative name server found for {record}: {detail}',
  validationFailed: 'the CA could not validate {name} by {type}: {detail}',
  orderInvalid: 'the order became invalid: {detail}',
  finalizeFailed: 'the CA did not issue the certificate: {detail}',
  timeout: 'the CA did not answer within {seconds} s ({step})',
  storeFailed: 'the certificate could not be saved to the store: {detail}',
  exportFailed: 'the certificate could not be written to {path}: {detail}',
  commandFailed: 'the command after renewal failed (exit {code}): {detail}',
  revokeFailed: 'the CA did not revoke the certificate: {detail}',
  cancelled: 'stopped (the module was switched off or the certificate removed)',
} as const;
export type AcmeReasonCode = keyof typeof ACME_REASONS;

/** Lines of the module's log (English, `{name}` from the params); the UI translates `acme.log_<code>`. */
export const ACME_LOG = {
  accountRegistered: 'account {account} registered at {ca}',
  orderStarted: 'order for {names} started ({type})',
  challengeReady: '{type} challenge of {name} published',
  propagationWait: 'waiting for {record} at {servers}',
  validated: '{name} validated by {type}',
  issued: 'certificate {cert} issued: {names}, valid until {notAfter}',
  renewed: 'certificate {cert} renewed, valid until {notAfter}',
  failed: 'certificate {cert}: {reason}',
  retryAt: 'certificate {cert}: next try at {at}',
  ariWindow: 'certificate {cert}: the CA suggests renewing between {start} and {end}',
  revoked: 'certificate {cert} revoked ({reason})',
  exported: 'certificate {cert} written to {path}',
  commandRan: 'command after renewal of {cert} exited {code}',
  expiringSoon: 'certificate {cert} expires in {days} days',
} as const;
export type AcmeLogCode = keyof typeof ACME_LOG;

/** English of a log line. */
export function acmeLogText(code: AcmeLogCode, params: Record<string, unknown>): string {
  return fillTemplate(ACME_LOG[code], params);
}

const str = (max: number) => z.string().trim().max(max).default('');
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int('invalidType').min(r.min).max(r.max).default(r.default);

/** One name of an order: a host name, a `*.` wildcard one level deep, or an IP address. */
export function isAcmeName(name: string): boolean {
  if (isIp(name)) return true;
  const host = name.startsWith('*.') ? name.slice(2) : name;
  // isHostName takes a leading `*.` itself: a second one (`*.*.example.com`) is no name for a CA.
  return host.includes('.') && !host.startsWith('*.') && isHostName(host);
}

const FILE_MODE = /^[0-7]{3}$/;

// ---- accounts ---------------------------------------------------------------------------------

const accountShape = {
  name: z.string().trim().min(1, 'nameRequired').max(L.name.max),
  email: z
    .string()
    .trim()
    .max(L.email.max)
    .refine((e) => e === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e), 'emailInvalid')
    .default(''),
  ca: z.enum(ACME_CAS).default('letsencrypt'),
  /** `custom` only. */
  directoryUrl: str(2048),
  eab: z
    .object({
      kid: str(512),
      /** base64url, as the CA shows it. A secret. */
      hmacKey: z.string().trim().max(1024).default(''),
    })
    .prefault({}),
  keyType: z.enum(ACME_KEY_TYPES).default('ec256'),
  /** A private CA's root for the directory's TLS (a custom directory on the LAN, a test CA). */
  caCertPem: z
    .string()
    .max(64 * 1024)
    .default(''),
};

/** A directory URL: https, or http to this machine only (a test CA). */
export function isDirectoryUrl(u: string): boolean {
  if (!isHttpUrl(u)) return false;
  return /^https:/i.test(u) || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/i.test(u);
}

/** Checks between an account's fields (the dialog runs them too). */
function checkAccountFields(
  a: { ca: AcmeCa; directoryUrl: string; eab: { kid: string; hmacKey: string } },
  ctx: z.RefinementCtx,
): void {
  if (a.ca === 'custom') {
    if (!isDirectoryUrl(a.directoryUrl))
      ctx.addIssue({ code: 'custom', path: ['directoryUrl'], message: 'directoryUrlInvalid' });
  } else if (ACME_CA_INFO[a.ca].eab && (!a.eab.kid || !a.eab.hmacKey)) {
    ctx.addIssue({ code: 'custom', path: ['eab', a.eab.kid ? 'hmacKey' : 'kid'], message: 'eabRequired' });
  }
}

/** An account as the browser sends it (the server assigns the key and makes the key pair). */
export const acmeAccountInputSchema = z.object(accountShape).superRefine(checkAccountFields);
export const acmeAccountSchema = z
  .object({
    key: z.string().regex(KEY),
    ...accountShape,
    /** PKCS#8 PEM of the account key, made on first save. A secret; never read back. */
    accountKeyPem: z
      .string()
      .max(16 * 1024)
      .default(''),
    /** The account's URL at the CA once registered ('' = not yet). */
    accountUrl: str(2048),
  })
  .superRefine(checkAccountFields);

// ---- certificates -----------------------------------------------------------------------------

const dnsChallengeShape = z
  .object({
    /** Provider API and credentials: the same fields as a DDNS task's `dns` (no callback). */
    provider: z.enum(ACME_DNS_PROVIDERS as [string, ...string[]]).default('cloudflare'),
    id: str(512),
    secret: z.string().trim().max(4096).default(''),
    server: str(512),
    zone: str(253),
    tsigAlgorithm: z.enum(TSIG_ALGORITHMS).default('hmac-sha256'),
    ttl: int(L.txtTtl),
    /**
     * CNAME delegation: write the TXT under this name instead of `_acme-challenge.<name>` (which is
     * a CNAME to it). Empty: follow a CNAME of `_acme-challenge.<name>` if there is one.
     */
    delegateTo: str(253),
    /** Check every authoritative server answers the TXT before telling the CA. */
    propagationCheck: z.boolean().default(true),
    propagationTimeout: int(L.propagationTimeout),
    propagationInterval: int(L.propagationInterval),
    /** `host[:port]` servers asked instead of the zone's NS (split horizon, a lab). Empty: the zone's NS. */
    nameservers: z.array(z.string().trim().max(260)).max(8).default([]),
  })
  .prefault({});

const httpChallengeShape = z
  .object({
    /** The stand-alone responder's port when no web-service rule listens on it. */
    port: int(L.httpPort),
  })
  .prefault({});

const exportShape = z
  .object({
    enabled: z.boolean().default(false),
    /** Absolute folder; files cert.pem, chain.pem, fullchain.pem, key.pem. */
    dir: str(1024),
    certMode: z.string().regex(FILE_MODE, 'fileModeInvalid').default('644'),
    keyMode: z.string().regex(FILE_MODE, 'fileModeInvalid').default('600'),
  })
  .prefault({});

/** The webhook: the same fields, template, test button and history as DDNS and STUN webhooks (core). */
export const acmeWebhook = webhookSchemas();

const certificateShape = {
  name: z.string().trim().min(1, 'nameRequired').max(L.name.max),
  enabled: z.boolean().default(true),
  account: z.string().trim().min(1, 'accountRequired').max(32),
  names: z.array(z.string().trim().toLowerCase().max(253)).max(L.names.max).default([]),
  keyType: z.enum(ACME_KEY_TYPES).default('ec256'),
  challenge: z.enum(ACME_CHALLENGES).default('http-01'),
  dns: dnsChallengeShape,
  http: httpChallengeShape,
  renewDaysBefore: int(L.renewDaysBefore),
  /** Follow the CA's ACME Renewal Information (RFC 9773) when it offers it. */
  useAri: z.boolean().default(true),
  export: exportShape,
  /** Shell command run after each issue / renewal (`sh -c`), with LUCKY_CERT_* variables. */
  command: z.string().max(4096).default(''),
  commandTimeout: int(L.commandTimeout),
  webhook: acmeWebhook.schema.prefault({}),
};

/** A certificate as the browser sends it (the server assigns the key). */
/**
 * Checks between a certificate's fields (the dialog runs them too): names valid and not twice,
 * wildcards only by DNS-01, IP addresses only by HTTP-01, an absolute export folder.
 */
function checkCertificateFields(
  c: { names: string[]; challenge: AcmeChallengeType; export: { enabled: boolean; dir: string } },
  ctx: z.RefinementCtx,
): void {
  const add = (path: (string | number)[], message: AcmeIssueCode, params?: Record<string, unknown>) =>
    ctx.addIssue({ code: 'custom', path, message, ...(params ? { params } : {}) });
  if (c.names.length === 0) add(['names'], 'namesRequired');
  const seen = new Set<string>();
  c.names.forEach((name, i) => {
    if (!isAcmeName(name)) add(['names', i], 'domainInvalid', { name });
    else if (seen.has(name)) add(['names', i], 'domainDuplicate', { name });
    else if (name.startsWith('*.') && c.challenge !== 'dns-01') add(['names', i], 'wildcardNeedsDns', { name });
    else if (isIp(name) && c.challenge !== 'http-01') add(['names', i], 'ipNeedsHttp', { name });
    seen.add(name);
  });
  if (c.export.enabled && !c.export.dir.startsWith('/')) add(['export', 'dir'], 'exportDirInvalid');
}

export const acmeCertificateInputSchema = z.object(certificateShape).superRefine(checkCertificateFields);
export const acmeCertificateSchema = z
  .object({ key: z.string().regex(KEY), ...certificateShape })
  .superRefine(checkCertificateFields);

const settingsShape = {
  expiryWarnDays: int(L.expiryWarnDays),
  httpTimeout: int(L.httpTimeout),
};
export const acmeSettingsSchema = z.object(settingsShape);
export const acmeSettingsPatchSchema = z.object({
  expiryWarnDays: z.number().int().min(L.expiryWarnDays.min).max(L.expiryWarnDays.max).optional(),
  httpTimeout: z.number().int().min(L.httpTimeout.min).max(L.httpTimeout.max).optional(),
});

/** The config slice; `{}` parses to the module switched on with nothing ordered. */
export const acmeConfigSchema = z.object({
  ...moduleSwitchShape(true),
  accounts: z.array(acmeAccountSchema).max(L.accounts.max).default([]),
  certificates: z.array(acmeCertificateSchema).max(L.certificates.max).default([]),
  ...settingsShape,
});

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const ACME_SECRETS = [
  'accounts.*.eab.hmacKey',
  'accounts.*.accountKeyPem',
  'certificates.*.dns.secret',
  'certificates.*.webhook.proxy.password',
] as const;
/** Free-text fields masked in their secret parts (webhook URL, header lines, body). */
export const ACME_FREE_TEXT_SECRETS = [
  'certificates.*.webhook.url',
  'certificates.*.webhook.headers',
  'certificates.*.webhook.body',
] as const;

export type AcmeAccountInput = z.input<typeof acmeAccountInputSchema>;
export type AcmeAccount = z.infer<typeof acmeAccountSchema>;
export type AcmeCertificateInput = z.input<typeof acmeCertificateInputSchema>;
export type AcmeCertificate = z.infer<typeof acmeCertificateSchema>;
export type AcmeConfig = z.infer<typeof acmeConfigSchema>;
export type AcmeSettings = z.infer<typeof acmeSettingsSchema>;

// ---- API bodies -------------------------------------------------------------------------------

/** POST /api/acme/certificates/:key/revoke */
export const acmeRevokeBodySchema = z.object({
  reason: z.enum(Object.keys(ACME_REVOKE_REASONS) as [AcmeRevokeReason, ...AcmeRevokeReason[]]).default('unspecified'),
});
/** POST /api/acme/certificates/:key/issue — issue now (or renew now), `force` even when not due. */
export const acmeIssueBodySchema = z.object({ force: z.boolean().default(true) });
export const acmeLogsQuerySchema = logPageQuerySchema;
/** Action `renewNow` (scheduled tasks, other modules): start an order for the certificate now. */
export const acmeRenewNowInputSchema = z.object({
  certificate: z.string().trim().min(1, 'certificateNotFound').max(32),
});
export type AcmeRenewNowInput = z.infer<typeof acmeRenewNowInputSchema>;

// ---- views: what the GET routes answer --------------------------------------------------------

/** An account as read: secrets masked, the key pair never. */
export type AcmeAccountView = Omit<AcmeAccount, 'accountKeyPem'> & {
  /** Registered at the CA. */
  registered: boolean;
};

/** Where a certificate stands. */
export const ACME_CERT_STATES = [
  'pending', // never issued, waiting for the first order
  'ordering', // an order is running now
  'valid', // issued, not due
  'renewing', // due, an order is running
  'failing', // the last order failed; retrying with back-off
  'expired',
  'revoked',
  'disabled',
] as const;
export type AcmeCertState = (typeof ACME_CERT_STATES)[number];

export interface AcmeCertificateStatus {
  state: AcmeCertState;
  /** The issued leaf's validity (ISO), when there is one. */
  notBefore?: string;
  notAfter?: string;
  /** Serial (hex) and the issuer's name of the issued leaf. */
  serial?: string;
  issuer?: string;
  /** Key of the certificate store entry it fills. */
  storeKey?: string;
  lastIssuedAt?: string;
  /** When the scheduler will next try (ISO): the renewal time, or the back-off's next try. */
  nextRenewalAt?: string;
  /** ARI's suggested window, when the CA gave one. */
  ariWindow?: { start: string; end: string; explanationUrl?: string };
  lastAttemptAt?: string;
  /** Why the last attempt failed (coded); absent after a success. */
  lastError?: CodedText & { code: AcmeReasonCode };
  /** Failures in a row (drives the back-off). */
  failures: number;
  /** The running order's step, while one runs. */
  step?: 'account' | 'order' | 'challenge' | 'propagation' | 'validation' | 'finalize' | 'download' | 'store';
}

export type AcmeCertificateView = AcmeCertificate & { status: AcmeCertificateStatus };

export interface AcmeListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  settings: AcmeSettings;
  accounts: AcmeAccountView[];
  certificates: AcmeCertificateView[];
  /** DNS provider APIs that can write TXT records (for the dialog's picker). */
  dnsProviders: string[];
}

/** GET /api/acme/accounts */
export interface AcmeAccountsResponse {
  ret: 0;
  list: AcmeAccountView[];
}

/** GET /api/acme/certificates */
export interface AcmeCertificatesResponse {
  ret: 0;
  list: AcmeCertificateView[];
}

export interface AcmeAccountResponse {
  ret: 0;
  account: AcmeAccountView;
}

export interface AcmeCertificateResponse {
  ret: 0;
  certificate: AcmeCertificateView;
}

export type AcmeLogsResponse = LogPageResponse;

/** English of a reason. */
export function acmeReasonText(code: AcmeReasonCode, params: Record<string, unknown>): string {
  return fillTemplate(ACME_REASONS[code], params);
}
