// The global security lists of `/safe` (core, not a module): IP allow and block lists applied at
// accept by every listener of every module, a "knock" URL that puts its caller on the allow list
// for some hours, and auto-ban of addresses that keep failing to authenticate anywhere (admin
// login, web-service basic auth, WebDAV, FTP, share-link passwords, the knock password).
//
// One decision for every listener (`core/safe/`): for an address and a scope (the admin console or
// a module key):
//   1. the scope is exempt (`exempt`)                → in   (rule `exempt`)
//   2. a block-list entry matches                    → out  (rule `block`, the entry)
//   3. the address is banned                         → out  (rule `ban`)
//   4. an allow-list entry matches                   → in   (rule `allow`, the entry)
//   5. allowMode `off`                               → in   (rule `default`)
//   6. allowMode `outsideLan` and a LAN address      → in   (rule `lan`)
//   7. otherwise                                     → out  (rule `notAllowed`)
// The block list wins over the allow list. Auto-ban never bans a LAN address unless `banLan`.
import { z } from 'zod';
import { BUILT_MODULES, type BuiltModule } from './modules.js';
import { isCidrOrIp, isIp, isIpv4, isIpv6 } from './net.js';

export const SAFE_LIMITS = {
  /** Entries of one list. */
  entries: { max: 10_000 },
  comment: { max: 256 },
  /** Hours a knock keeps its caller on the allow list. */
  knockHours: { min: 1, max: 8760, default: 36 },
  /** The knock URL's secret path segment. */
  knockPath: { min: 16, max: 128 },
  knockPassword: { min: 6, max: 128 },
  /** Failed authentications from one address within `windowMinutes` that ban it. */
  banFailures: { min: 2, max: 1000, default: 10 },
  windowMinutes: { min: 1, max: 1440, default: 10 },
  banMinutes: { min: 1, max: 525_600, default: 60 },
  /** Bans kept at once (the oldest goes first). */
  bans: { max: 100_000 },
} as const;
const L = SAFE_LIMITS;

/**
 * Who may be refused: the admin console's listener, or a module's listeners (any built module; one
 * without listeners never asks). Share links are the file manager's scope.
 */
export const SAFE_SCOPES = ['admin', ...BUILT_MODULES] as const;
export type SafeScope = 'admin' | BuiltModule;

/** Where a counted authentication failure came from (auto-ban; the bans list says it). */
export const SAFE_FAILURE_SOURCES = ['admin', 'knock', ...BUILT_MODULES] as const;
export type SafeFailureSource = 'admin' | 'knock' | BuiltModule;

export const SAFE_ALLOW_MODES = ['off', 'outsideLan', 'all'] as const;
export type SafeAllowMode = (typeof SAFE_ALLOW_MODES)[number];

export const SAFE_LISTS = ['allow', 'block'] as const;
export type SafeList = (typeof SAFE_LISTS)[number];

/**
 * Issue codes with their English text; the browser shows `safe.err_<code>`. zod's own checks answer
 * the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid).
 */
export const SAFE_MESSAGES = {
  entryInvalid: 'not an IP address, CIDR (10.0.0.0/8) or range (10.0.0.1-10.0.0.9): {value}',
  rangeReversed: 'the range ends before it starts: {value}',
  rangeMixed: 'a range has two addresses of one family: {value}',
  entryDuplicate: '{value} is on the list already',
  expiryPast: 'the expiry is in the past',
  entryNotFound: 'no such entry',
  knockPathInvalid: 'the knock path is {min}-{max} letters, digits, - or _',
  knockPasswordTooShort: 'the password needs at least {min} characters',
  wouldLockOut:
    'this would refuse your own address {ip} ({rule}) on the admin console; add it to the allow list or exempt the admin console first',
  ipInvalid: 'not an IP address',
  banNotFound: 'that address is not banned',
} as const;
export type SafeIssueCode = keyof typeof SAFE_MESSAGES;

/** Lines of the program log about the lists (English); the UI translates `safe.log_<code>`. */
export const SAFE_LOG = {
  banned: '{ip} banned for {minutes} min after {failures} failed logins ({sources})',
  unbanned: '{ip} unbanned',
  banExpired: 'ban of {ip} ended',
  knocked: '{ip} knocked: on the allow list until {until}',
  knockFailed: '{ip}: wrong knock password',
  refused: '{ip} refused by {scope} ({rule})',
} as const;
export type SafeLogCode = keyof typeof SAFE_LOG;

/** An entry's value: an address, a CIDR or a range `a-b` of one family. */
export function isSafeEntryValue(value: string): boolean {
  return safeEntryProblem(value) === undefined;
}

/** Why `value` is not a list entry (a code of SAFE_MESSAGES), or undefined. */
export function safeEntryProblem(value: string): 'entryInvalid' | 'rangeMixed' | undefined {
  const dash = value.indexOf('-');
  if (dash < 0) return isCidrOrIp(value) ? undefined : 'entryInvalid';
  const a = value.slice(0, dash).trim();
  const b = value.slice(dash + 1).trim();
  if (!isIp(a) || !isIp(b)) return 'entryInvalid';
  if (isIpv4(a) !== isIpv4(b) || isIpv6(a) !== isIpv6(b)) return 'rangeMixed';
  return undefined;
}

const entryShape = {
  value: z
    .string()
    .trim()
    .min(1, 'entryInvalid')
    .max(100)
    .refine((v) => safeEntryProblem(v) === undefined, 'entryInvalid'),
  comment: z.string().trim().max(L.comment.max).default(''),
  /** ISO time the entry stops counting (and is pruned); null = never. */
  expiresAt: z.iso.datetime().nullable().default(null),
};

/** An entry as the browser sends it (the server assigns the key). */
export const safeEntryInputSchema = z.object(entryShape);
export const safeEntrySchema = z.object({
  key: z.string().regex(/^[A-Za-z0-9]{1,32}$/),
  ...entryShape,
  /** `knock`: added by the knock URL (its caller). */
  source: z.enum(['manual', 'knock']).default('manual'),
  addedAt: z.iso.datetime(),
});
export type SafeEntryInput = z.input<typeof safeEntryInputSchema>;
export type SafeEntry = z.infer<typeof safeEntrySchema>;

const knockShape = z
  .object({
    enabled: z.boolean().default(false),
    /** The secret path segment: the knock URL is `/knock/<path>` on the admin listener. */
    path: z.string().default(''),
    /** scrypt hash of the optional password ('' = none). Never read back; set through `password`. */
    passwordHash: z.string().default(''),
    hours: z.number().int().min(L.knockHours.min).max(L.knockHours.max).default(L.knockHours.default),
  })
  .prefault({});

const autoBanShape = z
  .object({
    enabled: z.boolean().default(true),
    failures: z.number().int().min(L.banFailures.min).max(L.banFailures.max).default(L.banFailures.default),
    windowMinutes: z.number().int().min(L.windowMinutes.min).max(L.windowMinutes.max).default(L.windowMinutes.default),
    banMinutes: z.number().int().min(L.banMinutes.min).max(L.banMinutes.max).default(L.banMinutes.default),
    /** Off by default: the owner's LAN is never banned. */
    banLan: z.boolean().default(false),
  })
  .prefault({});

/** The config's `safe` slice (core config, beside `base`); `{}` parses to lists empty, nothing enforced but auto-ban. */
export const safeConfigSchema = z.object({
  allowMode: z.enum(SAFE_ALLOW_MODES).default('off'),
  /** Scopes the lists do not apply to (auto-ban neither). */
  exempt: z.array(z.enum(SAFE_SCOPES as unknown as [SafeScope, ...SafeScope[]])).default([]),
  allow: z.array(safeEntrySchema).max(L.entries.max).default([]),
  block: z.array(safeEntrySchema).max(L.entries.max).default([]),
  knock: knockShape,
  autoBan: autoBanShape,
});
export type SafeConfig = z.infer<typeof safeConfigSchema>;

// ---- API bodies -------------------------------------------------------------------------------

/** PUT /api/safe/settings: any of these; `knock.password` '' clears the password, absent keeps it. */
export const safeSettingsPatchSchema = z.object({
  allowMode: z.enum(SAFE_ALLOW_MODES).optional(),
  exempt: z.array(z.enum(SAFE_SCOPES as unknown as [SafeScope, ...SafeScope[]])).optional(),
  knock: z
    .object({
      enabled: z.boolean().optional(),
      path: z.string().optional(),
      password: z.string().max(L.knockPassword.max).optional(),
      hours: z.number().int().min(L.knockHours.min).max(L.knockHours.max).optional(),
    })
    .optional(),
  autoBan: z
    .object({
      enabled: z.boolean().optional(),
      failures: z.number().int().min(L.banFailures.min).max(L.banFailures.max).optional(),
      windowMinutes: z.number().int().min(L.windowMinutes.min).max(L.windowMinutes.max).optional(),
      banMinutes: z.number().int().min(L.banMinutes.min).max(L.banMinutes.max).optional(),
      banLan: z.boolean().optional(),
    })
    .optional(),
});
export type SafeSettingsPatch = z.infer<typeof safeSettingsPatchSchema>;

/** POST /api/safe/test: would this address get in through this scope? */
export const safeTestBodySchema = z.object({
  ip: z.string().trim().refine(isIp, 'ipInvalid'),
  scope: z.enum(SAFE_SCOPES).default('admin'),
});

// ---- views ------------------------------------------------------------------------------------

export interface SafeSettingsView {
  allowMode: SafeAllowMode;
  exempt: SafeScope[];
  knock: { enabled: boolean; path: string; hours: number; hasPassword: boolean };
  autoBan: SafeConfig['autoBan'];
}

/** GET /api/safe */
export interface SafeResponse {
  ret: 0;
  settings: SafeSettingsView;
  allow: SafeEntry[];
  block: SafeEntry[];
  /** The caller's own address as the admin sees it (the screen warns before locking it out). */
  you: string;
}

export interface SafeBanView {
  ip: string;
  /** ISO. */
  since: string;
  until: string;
  failures: number;
  /** Where the failures came from, most first. */
  sources: SafeFailureSource[];
}

/** GET /api/safe/bans */
export interface SafeBansResponse {
  ret: 0;
  bans: SafeBanView[];
}

export const SAFE_DECISION_RULES = ['exempt', 'block', 'ban', 'allow', 'default', 'lan', 'notAllowed'] as const;
export type SafeDecisionRule = (typeof SAFE_DECISION_RULES)[number];

/** POST /api/safe/test */
export interface SafeTestResponse {
  ret: 0;
  allowed: boolean;
  rule: SafeDecisionRule;
  /** The list entry that decided (rules `block` and `allow`). */
  entry?: SafeEntry;
  /** The ban that decided (rule `ban`). */
  ban?: SafeBanView;
}
