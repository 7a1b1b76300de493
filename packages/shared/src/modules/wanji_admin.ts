// The wanji_admin module's shared half (`wanji_admin`, screen `/wanjiadmin`): one console manages
// several others. Config (the consoles with their API tokens and TLS trust), issue codes, reasons,
// log lines, API bodies and views. The remote side is core (contract/summary.ts): every console
// answers `GET /api/summary` and issues one-time login links to a caller holding its API token.
import { z } from 'zod';
import { type CodedText, englishWithCauses } from '../contract/coded.js';
import { logPageQuerySchema } from '../contract/logPage.js';
import { SECRET_MASK } from '../contract/secrets.js';
import type { SummaryResponse } from '../contract/summary.js';
import { moduleSwitchShape } from '../contract/switch.js';
import { isHostName, isIpv4, isIpv6 } from '../net.js';
import { issueKit } from './fieldIssue.js';

export const WANJI_ADMIN_LIMITS = {
  consoles: { max: 64 },
  name: { max: 64 },
  url: { max: 2048 },
  token: { max: 256 },
  note: { max: 512 },
  ca: { max: 64 * 1024 },
  /** Seconds between two summary reads of a console (while it answers). */
  refreshSeconds: { min: 5, max: 3600, default: 15 },
  /** Milliseconds one call to a console may take (connect + TLS + answer). */
  timeoutMs: { min: 1000, max: 60_000, default: 5000 },
  /** Longest wait between two tries of a console that keeps failing (doubling from refreshSeconds). */
  backoffMaxSeconds: 300,
  /** Consoles one bulk action talks to at the same time. */
  bulkParallel: 4,
  /** Keys of one bulk action. */
  bulkKeys: { max: 64 },
  /** Bytes of a remote's answer the manager reads at most (summary, link, refusals). */
  answerBytes: 1024 * 1024,
  /** Bytes of a remote's backup file the manager reads at most. */
  backupBytes: 16 * 1024 * 1024,
} as const;
const L = WANJI_ADMIN_LIMITS;

export const WANJI_TLS_MODES = ['pin', 'ca'] as const;
export type WanjiTlsMode = (typeof WANJI_TLS_MODES)[number];

/** SHA-256 of a certificate's DER, upper-case hex pairs joined by colons (node's `fingerprint256`). */
export const FINGERPRINT_RE = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;

/**
 * Why a call to a console failed (`CodedText`; the UI translates `wanji_admin.reason_<code>`);
 * `detail` is the system's or the peer's own words.
 */
export const WANJI_ADMIN_REASONS = {
  connectRefused: 'the console at {host}:{port} refused the connection',
  timeout: 'no answer within {ms} ms',
  tlsFailed: 'the TLS handshake failed',
  fingerprintMismatch: 'the certificate is not the pinned one (seen {seen}); nothing was sent',
  tokenRejected: 'the console refused the API token (HTTP {status})',
  notLucky: 'the answer is not a Lucky console summary',
  httpStatus: 'the console answered HTTP {status}',
  dnsFailed: 'the host name {host} cannot be resolved',
  networkFailed: 'the console cannot be reached',
  tooLarge: 'the answer is larger than {bytes} bytes',
  remoteRefused: 'the console refused (HTTP {status}, {remoteCode})',
  consoleDisabled: 'the console {name} is switched off',
  notChecked: 'not checked yet',
} as const;
export type WanjiAdminReasonCode = keyof typeof WANJI_ADMIN_REASONS;

/** English of a reason, `detail` appended (shared coded.ts). */
export function wanjiAdminReason(code: WanjiAdminReasonCode, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: englishWithCauses(WANJI_ADMIN_REASONS[code], params) };
}

/**
 * Issue codes (the zod messages, refusals of the routes) with their English text; the UI translates
 * `wanji_admin.err_<code>`. A call to a console that failed answers its reason's code (same words).
 */
export const WANJI_ADMIN_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another console is called {name}',
  urlInvalid: 'the address is https://host:port with an optional entrance path, nothing else',
  httpsRequired: 'plain http is refused: the API token would travel in clear',
  tokenRequired: "the console's API token (lkt_…) is required",
  fingerprintRequired: "pinning needs the certificate's fingerprint: check the certificate first",
  fingerprintInvalid: 'not a SHA-256 fingerprint (64 hex digits in pairs joined by colons)',
  caInvalid: 'not a PEM certificate',
  consoleNotFound: 'no such console: {key}',
  keysRequired: 'pick at least one console',
  moduleInvalid: 'not a module key: {module}',
  packageRequired: 'send the release package as a file (multipart/form-data)',
  packageInvalid: 'not a valid release package: {detail}',
  packageUnsigned: 'the package has no signature this console trusts; nothing was sent',
  packageBadSignature: 'the package signature is bad; nothing was sent',
  ...WANJI_ADMIN_REASONS,
} as const;
export type WanjiAdminIssueCode = keyof typeof WANJI_ADMIN_MESSAGES;
export const wanjiAdminIssues = issueKit(WANJI_ADMIN_MESSAGES);

/** Lines of the module's log (English, `{name}` from the params); the UI translates `wanji_admin.log_<code>`. */
export const WANJI_ADMIN_LOG = {
  started: 'watching {consoles} consoles every {seconds} s',
  reachable: '{name} answers (version {version})',
  unreachable: '{name} cannot be read: {reason}; next try in {seconds} s',
  loginLink: 'login link to {name} issued',
  linkFailed: 'login link to {name} failed: {reason}',
  bulkDone: '{action} on {count} consoles: {ok} done, {failed} failed',
  bulkFailed: '{action} on {name} failed: {reason}',
  updateRefused: 'release package refused before sending: {reason}',
} as const;
export type WanjiAdminLogCode = keyof typeof WANJI_ADMIN_LOG;

/** English of a log line. */
export function wanjiAdminLogText(code: WanjiAdminLogCode, params: Record<string, unknown>): string {
  return englishWithCauses(WANJI_ADMIN_LOG[code], params);
}

// ---- the console address ----------------------------------------------------------------------

/**
 * `https://host:port[/entrance]` → its normal form (no trailing slash), or the issue code. Plain
 * http is refused on its own code: the token would travel in clear.
 */
export function checkConsoleUrl(raw: string): { url: string } | { code: 'urlInvalid' | 'httpsRequired' } {
  const s = raw.trim();
  if (/^http:\/\//i.test(s)) return { code: 'httpsRequired' };
  // No URL class here (the shared package has neither DOM nor node types): scheme, host, port, path.
  const m = /^https:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?((?:\/[A-Za-z0-9._~-]+)*)\/?$/i.exec(s);
  if (!m) return { code: 'urlInvalid' };
  const host = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1];
  if (m[1].startsWith('[') ? !isIpv6(host) : !(isIpv4(host) || isHostName(host))) return { code: 'urlInvalid' };
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return { code: 'urlInvalid' };
  return { url: `https://${m[1].toLowerCase()}${port === undefined || port === 443 ? '' : `:${port}`}${m[3]}` };
}

/** A PEM with one certificate or more (nothing else). */
export function isCertificatePem(s: string): boolean {
  return /^(\s*-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----\s*)+$/.test(s);
}

/** `ab:cd…`, `ABCD…` or `AB CD …` → `AB:CD:…` (node's fingerprint256 form); anything else unchanged. */
export function normalizeFingerprint(s: string): string {
  const hex = s
    .trim()
    .replace(/[:\s-]/g, '')
    .toUpperCase();
  return /^[0-9A-F]{64}$/.test(hex) ? (hex.match(/../g) ?? []).join(':') : s.trim();
}

// ---- consoles ---------------------------------------------------------------------------------

const KEY = /^[A-Za-z0-9]{1,32}$/;

const tlsShape = z
  .object({
    /** pin: the certificate whose fingerprint is `fingerprint`, nothing else; ca: normal verification. */
    mode: z.enum(WANJI_TLS_MODES).default('pin'),
    fingerprint: z.string().trim().max(128).transform(normalizeFingerprint).default(''),
    /** mode ca: PEM of the CA(s) to trust; '' = the system's CAs. */
    ca: z.string().max(L.ca.max).default(''),
  })
  .prefault({});

const consoleShape = {
  name: z.string().trim().min(1, 'nameRequired').max(L.name.max),
  /** Off: not polled, left out of bulk actions. */
  enabled: z.boolean().default(true),
  /** `https://host:port[/entrance]`. */
  url: z.string().trim().max(L.url.max),
  /** The remote console's API token (`lkt_…`). A secret. */
  token: z.string().max(L.token.max).default(''),
  tls: tlsShape,
  note: z.string().trim().max(L.note.max).default(''),
};

/** Checks between a console's fields (the dialog runs them too). */
function checkConsole(
  c: { url: string; token: string; tls: { mode: WanjiTlsMode; fingerprint: string; ca: string } },
  ctx: z.RefinementCtx,
): void {
  const add = (path: string[], message: WanjiAdminIssueCode) => ctx.addIssue({ code: 'custom', path, message });
  const url = checkConsoleUrl(c.url);
  if ('code' in url) add(['url'], url.code);
  if (c.token === '') add(['token'], 'tokenRequired');
  if (c.tls.mode === 'pin') {
    if (c.tls.fingerprint === '') add(['tls', 'fingerprint'], 'fingerprintRequired');
    else if (!FINGERPRINT_RE.test(c.tls.fingerprint)) add(['tls', 'fingerprint'], 'fingerprintInvalid');
  }
  if (c.tls.mode === 'ca' && c.tls.ca.trim() !== '' && !isCertificatePem(c.tls.ca)) add(['tls', 'ca'], 'caInvalid');
}

/** The URL in its normal form (after the checks named it). */
const normalUrl = <T extends { url: string }>(c: T): T => {
  const u = checkConsoleUrl(c.url);
  return 'url' in u ? { ...c, url: u.url } : c;
};

/** A console as the browser sends it (the server assigns the key; a token sent as `******` is kept). */
export const wanjiConsoleInputSchema = z.object(consoleShape).superRefine(checkConsole).transform(normalUrl);
export const wanjiConsoleSchema = z
  .object({ key: z.string().regex(KEY), ...consoleShape })
  .superRefine(checkConsole)
  .transform(normalUrl);

// ---- settings ---------------------------------------------------------------------------------

const int = (r: { min: number; max: number; default: number }) =>
  z.number().int('invalidType').min(r.min).max(r.max).default(r.default);
const settingsShape = {
  refreshSeconds: int(L.refreshSeconds),
  timeoutMs: int(L.timeoutMs),
};
export const wanjiAdminSettingsSchema = z.object(settingsShape);
/** PUT /api/wanji_admin/settings: any subset. */
export const wanjiAdminSettingsPatchSchema = z.object({
  refreshSeconds: z.number().int().min(L.refreshSeconds.min).max(L.refreshSeconds.max).optional(),
  timeoutMs: z.number().int().min(L.timeoutMs.min).max(L.timeoutMs.max).optional(),
});

/** The config slice; `{}` parses to the module switched on with no consoles (it then reports `stopped`). */
export const wanjiAdminConfigSchema = z
  .object({
    ...moduleSwitchShape(true),
    consoles: z.array(wanjiConsoleSchema).max(L.consoles.max).default([]),
    ...settingsShape,
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.consoles.forEach((d, i) => {
      const name = d.name.toLowerCase();
      if (seen.has(name))
        ctx.addIssue({ code: 'custom', path: ['consoles', i, 'name'], message: 'nameTaken', params: { name: d.name } });
      seen.add(name);
    });
  });

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const WANJI_ADMIN_SECRETS = ['consoles.*.token'] as const;

export type WanjiConsoleInput = z.input<typeof wanjiConsoleInputSchema>;
export type WanjiConsole = z.infer<typeof wanjiConsoleSchema>;
export type WanjiAdminSettings = z.infer<typeof wanjiAdminSettingsSchema>;
export type WanjiAdminSettingsPatch = z.infer<typeof wanjiAdminSettingsPatchSchema>;
export type WanjiAdminConfig = z.infer<typeof wanjiAdminConfigSchema>;

// ---- API bodies -------------------------------------------------------------------------------

/** POST /api/wanji_admin/probe: connect (TLS only, nothing sent) and show the certificate. */
export const wanjiProbeBodySchema = z
  .object({
    url: consoleShape.url,
    /** PEM to judge "CA-valid" by; '' = the system's CAs. */
    ca: z.string().max(L.ca.max).default(''),
  })
  .superRefine((b, ctx) => {
    const url = checkConsoleUrl(b.url);
    if ('code' in url) ctx.addIssue({ code: 'custom', path: ['url'], message: url.code });
    if (b.ca.trim() !== '' && !isCertificatePem(b.ca))
      ctx.addIssue({ code: 'custom', path: ['ca'], message: 'caInvalid' });
  });
export type WanjiProbeBody = z.input<typeof wanjiProbeBodySchema>;

const keysShape = z
  .array(z.string().regex(KEY, 'consoleNotFound'))
  .min(1, 'keysRequired')
  .max(L.bulkKeys.max)
  .transform((k) => [...new Set(k)]);
/** POST bulk/restart, bulk/backup. */
export const wanjiBulkBodySchema = z.object({ keys: keysShape });
/** POST bulk/module: switch one module on or off on every console named. */
export const wanjiBulkModuleBodySchema = z.object({
  keys: keysShape,
  module: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'moduleInvalid'),
  enabled: z.boolean(),
});
/** POST bulk/update?keys=a,b[&install=0] (multipart: the package as field `file`). */
export const wanjiBulkUpdateQuerySchema = z.object({
  keys: z
    .string()
    .max(64 * 33)
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(keysShape),
  /** 1: install on each console (it swaps and restarts); 0: upload and verify only (it stays staged there). */
  install: z.enum(['0', '1']).default('1'),
});
/** Action `refreshNow` (scheduled tasks): read a console now, by key or name. */
export const wanjiRefreshInputSchema = z.object({
  key: z.string().trim().min(1, 'consoleNotFound').max(L.name.max),
});
export type WanjiRefreshInput = z.infer<typeof wanjiRefreshInputSchema>;
export type WanjiBulkBody = z.input<typeof wanjiBulkBodySchema>;
export type WanjiBulkModuleBody = z.input<typeof wanjiBulkModuleBodySchema>;
export const wanjiAdminLogsQuerySchema = logPageQuerySchema;

// ---- views: what the GET routes answer --------------------------------------------------------

/** The remote's summary without the envelope. */
export type WanjiRemoteSummary = Omit<SummaryResponse, 'ret'>;

/** A console's live state (the server polls; the browser only reads). */
export interface WanjiConsoleState {
  /** The last read succeeded. */
  reachable: boolean;
  /** Why the last read failed (reachable false), or `notChecked` before the first. */
  reason?: CodedText;
  /** Last successful read / last try / next try (ISO 8601, UTC). */
  lastSeen?: string;
  checkedAt?: string;
  nextCheckAt?: string;
  /** Failed reads in a row (the wait doubles with each, up to 5 min). */
  failures: number;
  /** reason fingerprintMismatch: the certificate the console shows now (offer "re-pin" after confirming). */
  seenFingerprint?: string;
  /** The last summary read (kept while the console fails, with lastSeen telling its age). */
  summary?: WanjiRemoteSummary;
}

/** A console as read: token masked (`******`), with its live state. */
export type WanjiConsoleView = WanjiConsole & WanjiConsoleState;

/** GET /api/wanji_admin/consoles */
export interface WanjiConsoleListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  settings: WanjiAdminSettings;
  list: WanjiConsoleView[];
}

/** POST/PUT consoles, PUT consoles/:key/enable, POST consoles/:key/refresh */
export interface WanjiConsoleResponse {
  ret: 0;
  console: WanjiConsoleView;
}

/** GET/PUT /api/wanji_admin/settings */
export interface WanjiAdminSettingsResponse {
  ret: 0;
  settings: WanjiAdminSettings;
}

/** POST /api/wanji_admin/probe */
export interface WanjiProbeResponse {
  ret: 0;
  /** SHA-256 of the certificate's DER, `AB:CD:…`. */
  fingerprint: string;
  subject: string;
  issuer: string;
  /** ISO 8601, UTC. */
  validFrom: string;
  validTo: string;
  /** DNS names and IP addresses the certificate is for. */
  altNames: string[];
  selfSigned: boolean;
  /** Valid for the host under the system CAs (or the `ca` sent). */
  caValid: boolean;
  /** Why not (the TLS library's words), when caValid is false. */
  caError?: string;
}

/** POST /api/wanji_admin/consoles/:key/login-link: the full URL to open (console url + the remote's path). */
export interface WanjiLoginLinkResponse {
  ret: 0;
  url: string;
  /** ISO 8601: the ticket dies then (60 s). */
  expiresAt: string;
}

/** One console's outcome in a bulk action; `code` + `params` (reason codes) when it failed. */
export interface WanjiBulkResult {
  key: string;
  name: string;
  ok: boolean;
  code?: string;
  params?: Record<string, unknown>;
  /** English of the failure. */
  text?: string;
  /** bulk/update: the version the console staged / installs. */
  version?: string;
}

/**
 * POST bulk/restart, bulk/module, bulk/update. bulk/backup answers a zip instead
 * (`<name>.json` per console that answered, `results.json` with every WanjiBulkResult).
 */
export interface WanjiBulkResponse {
  ret: 0;
  results: WanjiBulkResult[];
}

/** True when a token field holds a value typed by the user (not the mask, not empty). */
export const typedSecret = (v: string) => v !== '' && v !== SECRET_MASK;
