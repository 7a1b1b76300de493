// The WebDAV server module's shared half (`webdav`, screen `/webdav`): config schema, issue codes,
// reasons, log lines, API bodies and views. One listener serves the mounts (a storage of storage
// management under a name shown as a top folder) to the users, each with read-write or read-only
// access per mount.
import { z } from 'zod';
import { type CodedText, fillTemplate, type LogEntryView } from '../contract/coded.js';
import { type LogPageResponse, logPageQuerySchema } from '../contract/logPage.js';
import { moduleSwitchShape } from '../contract/switch.js';
import { isCidrOrIp, isHostName, isIp, isIpv4 } from '../net.js';
import { type GenericIssueCode, issueKit } from './fieldIssue.js';
import { NETWORK_TYPES } from './reverseproxy.js';
import { SECRET_MASK } from './secretText.js';

export const WEBDAV_LIMITS = {
  /**
   * Not a well-known port (/etc/services has none of 16601–16699): beside the admin console's
   * 16601 and the web service's 16666, so the box's own services sit together.
   */
  port: { min: 1, max: 65535, default: 16680 },
  maxConnections: { min: 1, max: 65535, default: 1024 },
  /** Windows' redirector and rclone (4 transfers + 8 checkers) open a dozen connections each. */
  perAddressMaxConnections: { min: 1, max: 65535, default: 64 },
  /** As the admin password (base settings' newPassword). */
  password: { min: 6, max: 128 },
  name: { max: 64 },
  pathPrefix: { max: 256 },
  list: { max: 1024 },
  mounts: { max: 64 },
  users: { max: 256 },
} as const;

/** Key of a mount, a user (server-assigned, keyed.ts newKey). */
const KEY = /^[A-Za-z0-9]{1,32}$/;

/**
 * Issue codes (the zod messages) with their English text; the UI translates `webdav.err_<code>`.
 * zod's own checks answer the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid).
 */
export const WEBDAV_MESSAGES = {
  listenAddressInvalid: 'invalid listening address format',
  networkAddressFamily: 'the listening address does not fit the network type (IPv4/IPv6)',
  certificateInvalid: 'not a domain name (a certificate of the store is picked by it)',
  pathPrefixInvalid: 'the path prefix is / or /name[/name…] of letters, digits, . _ ~ -',
  cidrInvalid: 'not an IP address or CIDR: {token}',
  mountNameRequired: 'a mount needs a name',
  mountNameInvalid: 'a mount name is one folder name: no / or \\, not . or .., no control characters',
  mountNameTaken: 'another mount is called {name}',
  storageRequired: 'choose a storage',
  storageUnknown: 'storage management has no storage {storage}',
  userNameRequired: 'a user needs a name',
  userNameInvalid: 'a user name has no colon and no control characters',
  userNameTaken: 'another user is called {name}',
  passwordRequired: 'a new user needs a password',
  passwordTooShort: 'the password needs at least {min} characters',
  accessMountUnknown: 'no mount with key {mount}',
  mountNotFound: 'no such mount',
  userNotFound: 'no such user',
  moduleDisabled: 'the WebDAV module is switched off',
} as const;
export type WebdavIssueCode = keyof typeof WEBDAV_MESSAGES;
export type WebdavErrorCode = WebdavIssueCode | GenericIssueCode;
export const webdavIssues = issueKit(WEBDAV_MESSAGES);

/** Why a bind failed (core/net/bindPort.ts): the UI words them from `errors.<code>` / `webdav.reason_<code>`. */
export const WEBDAV_BIND_REASONS = ['portInUse', 'portPermission', 'addressMissing', 'bindFailed'] as const;

/**
 * States and notes of the server (English); the UI translates `webdav.reason_<code>`. A listener
 * that cannot bind reports the core's bind reasons (WEBDAV_BIND_REASONS) with their English.
 */
export const WEBDAV_REASONS = {
  plainHttpPasswords: 'users sign in over plain HTTP: their passwords cross the network readable; switch TLS on',
  noCertificate: 'TLS is on but the certificate store has no certificate: every handshake fails',
  noUsers: 'no user is switched on: every request is refused',
  noMounts: 'no mount is switched on: users see an empty folder',
  storageUnavailable:
    'mount {mount}: storage {storage} is not available (storage management is off or has no such entry)',
  moduleDisabled: 'the WebDAV module is switched off',
} as const;
export type WebdavReasonCode = keyof typeof WEBDAV_REASONS | (typeof WEBDAV_BIND_REASONS)[number];

/** A reason of this module with its English text. */
export function webdavReason(code: keyof typeof WEBDAV_REASONS, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: fillTemplate(WEBDAV_REASONS[code], params) };
}

/**
 * Lines of the server's log (English, `{name}` from the params); the UI translates
 * `webdav.log_<code>`. `client` is the client's address; the bind reasons are logged with their
 * core code and English.
 */
export const WEBDAV_LOG = {
  listening: 'listening on {address} ({scheme}, prefix {prefix})',
  stopped: 'stopped listening',
  refusedNotLan: 'refused {client}: outside the LAN (LAN only is on)',
  refusedBlocked: 'refused {client}: on the block list',
  refusedNotAllowed: 'refused {client}: not on the allow list',
  authFailed: '{client}: wrong user name or password for {user}',
  authLocked: '{client}: too many failed sign-ins, refused for {seconds} s',
  authBusy: '{client}: too many sign-ins at once, refused',
  request: '{client} {user} {method} {path} → {status} ({bytes} bytes)',
  requestCut: '{client} {user} {method} {path}: cut off before the answer was whole',
  handlerError: '{client} {method} {path}: {detail}',
  bodyStalled: '{client} {method} {path}: the request body stalled for {seconds} s, closed',
} as const;
/** A line the module writes itself (the bind reasons come with the core's English). */
export type WebdavLogLine = keyof typeof WEBDAV_LOG;
export type WebdavLogCode = WebdavLogLine | (typeof WEBDAV_BIND_REASONS)[number];

/** English of a log line. */
export function webdavLogText(code: WebdavLogLine, params: Record<string, unknown>): string {
  return fillTemplate(WEBDAV_LOG[code], params);
}

/** Why an address may not connect, and the log line that says so. */
export const WEBDAV_REFUSAL_LOG = {
  notLan: 'refusedNotLan',
  blocked: 'refusedBlocked',
  notAllowed: 'refusedNotAllowed',
} as const satisfies Record<string, WebdavLogLine>;
export type WebdavRefusal = keyof typeof WEBDAV_REFUSAL_LOG;

type Code = WebdavIssueCode;
const L = WEBDAV_LIMITS;
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);

/** A string check whose issue names the offending entry (`{token}`) with the module's code. */
const entry = (ok: (s: string) => boolean, code: Code) =>
  z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      if (!ok(s)) ctx.addIssue({ code: 'custom', message: code, params: { token: s } });
    });
const cidrList = z.array(entry(isCidrOrIp, 'cidrInvalid')).max(L.list.max);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
/** One URL segment of the prefix: unreserved characters only, so the form users type is the form compared. */
const PREFIX_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** `/`, or `/a/b` (a trailing slash dropped); `.` / `..` and empty segments refused. */
export function normalizePathPrefix(raw: string): string | undefined {
  const s = raw.trim();
  if (!s.startsWith('/')) return undefined;
  const segments = s.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  if (segments.length === 0) return '/';
  if (segments.some((seg) => !PREFIX_SEGMENT.test(seg) || seg === '.' || seg === '..')) return undefined;
  return `/${segments.join('/')}`;
}

/** A mount's name is one folder name in every client's path: what a storage path segment allows. */
export function isDavMountName(name: string): boolean {
  return (
    name.length > 0 &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    !name.includes('\\') &&
    !CONTROL.test(name) &&
    // Windows drops trailing dots and spaces from folder names: such a mount could not be opened there.
    !/[. ]$/.test(name)
  );
}

/** A Basic-auth user name: the part before the first colon, so no colon in it. */
export const isDavUserName = (name: string): boolean => name.length > 0 && !name.includes(':') && !CONTROL.test(name);

const accessLevel = z.enum(['rw', 'ro']);
export type WebdavAccessLevel = z.infer<typeof accessLevel>;

const mountShape = {
  /** The top folder's name in the clients (a URL segment; NFC, as the storage compares names). */
  name: z
    .string()
    .trim()
    .min(1, 'mountNameRequired')
    .max(L.name.max)
    .transform((s) => s.normalize('NFC'))
    .refine(isDavMountName, 'mountNameInvalid'),
  /** The storage management entry's key. */
  storage: z.string().trim().min(1, 'storageRequired').max(32),
  enabled: z.boolean().default(true),
  /** Read-only for clients that sign in as nobody, when `anonymousReadOnly` is on. */
  public: z.boolean().default(false),
};

export const webdavMountInputSchema = z.object(mountShape);
export const webdavMountSchema = z.object({ key: z.string().regex(KEY), ...mountShape });

const userShape = {
  name: z.string().trim().min(1, 'userNameRequired').max(L.name.max).refine(isDavUserName, 'userNameInvalid'),
  enabled: z.boolean().default(true),
  /** Per mount key: read-write or read-only; a mount not listed is not visible to the user. */
  access: z.record(z.string().regex(KEY), accessLevel).default({}),
};

/**
 * A user as stored: `password` is the scrypt hash (`scrypt$N$r$p$salt$hash`, core/auth/password.ts),
 * never the password; reads mask it (WEBDAV_SECRETS).
 */
export const webdavUserSchema = z.object({
  key: z.string().regex(KEY),
  ...userShape,
  password: z.string().max(512).default(''),
});

/**
 * A user as the browser sends it: `password` is a new password in plain text (hashed by the
 * server), or SECRET_MASK / '' to keep the stored one (required when the user is new).
 */
export const webdavUserInputSchema = z.object({
  ...userShape,
  password: z
    .string()
    .max(L.password.max)
    .default('')
    .superRefine((p, ctx) => {
      if (p !== '' && p !== SECRET_MASK && p.length < L.password.min)
        ctx.addIssue({ code: 'custom', message: 'passwordTooShort', params: { min: L.password.min } });
    }),
});

const tlsShape = {
  /** HTTPS only on the port (h2 by ALPN); plain HTTP connections are refused. */
  enabled: z.boolean().default(false),
  /**
   * The name whose certificate answers clients that send no server name (an IP address typed
   * in); '' = the store's default. A client that sends a name gets that name's certificate.
   */
  certificate: z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .refine((n) => n === '' || isHostName(n.replace(/^\*\./, '')), 'certificateInvalid')
    .default(''),
};

/** `/` or `/a/b`, stored in its normal form (no trailing slash). */
const pathPrefixSchema = z
  .string()
  .max(L.pathPrefix.max)
  .superRefine((p, ctx) => {
    if (normalizePathPrefix(p) === undefined) ctx.addIssue({ code: 'custom', message: 'pathPrefixInvalid' });
  })
  .transform((p) => normalizePathPrefix(p) ?? '/');

const settingsShape = {
  /** The module switch; off by default: a file server publishes nothing before the owner sets it up. */
  ...moduleSwitchShape(false),
  port: int(L.port),
  /** '' = every address. */
  address: z
    .string()
    .trim()
    .default('')
    .refine((a) => a === '' || isIp(a.replace(/^\[|\]$/g, '')), 'listenAddressInvalid'),
  network: z.enum(NETWORK_TYPES).default('tcp'),
  tls: z.object(tlsShape).prefault({}),
  /** The URL path the server answers under ('/' or e.g. '/dav', for publishing through a web service rule). */
  pathPrefix: pathPrefixSchema.default('/'),
  /** Only clients on the LAN (loopback, RFC 1918, link-local, ULA) connect; on by default. */
  lanOnly: z.boolean().default(true),
  /** Non-empty: only these addresses / CIDRs connect (LAN only still applies when on). */
  allowList: cidrList.default([]),
  /** These addresses / CIDRs never connect. */
  blockList: cidrList.default([]),
  /**
   * Peers whose X-Forwarded-For names the client (the web service on this box publishing the
   * server under a path): the address checks, the sign-in throttle and the log see that client.
   */
  trustedProxies: cidrList.default(['127.0.0.1', '::1']),
  /** Clients without credentials read the mounts marked public (write verbs still ask to sign in). */
  anonymousReadOnly: z.boolean().default(false),
  maxConnections: int(L.maxConnections),
  perAddressMaxConnections: int(L.perAddressMaxConnections),
};

/** An address literal must be of the network type's family (`tcp` takes either). */
function checkListener(r: { address: string; network: (typeof NETWORK_TYPES)[number] }, ctx: z.RefinementCtx): void {
  const a = r.address.replace(/^\[|\]$/g, '');
  if (!a || r.network === 'tcp' || !isIp(a)) return;
  if (isIpv4(a) !== (r.network === 'tcp4'))
    ctx.addIssue({ code: 'custom', path: ['address'], message: 'networkAddressFamily' });
}

const fold = (s: string) => s.toLowerCase();

/** Names unique (case-insensitively: Windows and macOS clients are), access naming existing mounts. */
function checkLists(
  c: { mounts: { key: string; name: string }[]; users: { name: string; access: Record<string, string> }[] },
  ctx: z.RefinementCtx,
): void {
  const mountNames = new Set<string>();
  c.mounts.forEach((m, i) => {
    if (mountNames.has(fold(m.name)))
      ctx.addIssue({
        code: 'custom',
        path: ['mounts', i, 'name'],
        message: 'mountNameTaken',
        params: { name: m.name },
      });
    mountNames.add(fold(m.name));
  });
  const userNames = new Set<string>();
  const mountKeys = new Set(c.mounts.map((m) => m.key));
  c.users.forEach((u, i) => {
    if (userNames.has(fold(u.name)))
      ctx.addIssue({ code: 'custom', path: ['users', i, 'name'], message: 'userNameTaken', params: { name: u.name } });
    userNames.add(fold(u.name));
    for (const mount of Object.keys(u.access)) {
      if (!mountKeys.has(mount))
        ctx.addIssue({
          code: 'custom',
          path: ['users', i, 'access', mount],
          message: 'accessMountUnknown',
          params: { mount },
        });
    }
  });
}

/** The settings without the lists (GET/PUT /api/webdav/settings). */
export const webdavSettingsSchema = z.object(settingsShape).superRefine(checkListener);

/** PUT /api/webdav/settings: any subset of the settings (the switch included). */
export const webdavSettingsPatchSchema = z.object({
  enabled: z.boolean().optional(),
  port: settingsShape.port.unwrap().optional(),
  address: settingsShape.address.unwrap().optional(),
  network: settingsShape.network.unwrap().optional(),
  /** Partial: the fields sent replace the stored ones. */
  tls: z
    .object({ enabled: tlsShape.enabled.unwrap().optional(), certificate: tlsShape.certificate.unwrap().optional() })
    .optional(),
  pathPrefix: pathPrefixSchema.optional(),
  lanOnly: z.boolean().optional(),
  allowList: cidrList.optional(),
  blockList: cidrList.optional(),
  trustedProxies: cidrList.optional(),
  anonymousReadOnly: z.boolean().optional(),
  maxConnections: settingsShape.maxConnections.unwrap().optional(),
  perAddressMaxConnections: settingsShape.perAddressMaxConnections.unwrap().optional(),
});

/** The config slice; `{}` parses to the module switched off, on port 16680, LAN only, with no mounts or users. */
export const webdavConfigSchema = z
  .object({
    ...settingsShape,
    mounts: z.array(webdavMountSchema).max(L.mounts.max).default([]),
    users: z.array(webdavUserSchema).max(L.users.max).default([]),
  })
  .superRefine((c, ctx) => {
    checkListener(c, ctx);
    checkLists(c, ctx);
  });

/** Paths of the slice's whole-value secrets: the users' password hashes (masked on read, kept unless replaced). */
export const WEBDAV_SECRETS = ['users.*.password'] as const;

export type WebdavMountInput = z.input<typeof webdavMountInputSchema>;
export type WebdavMount = z.infer<typeof webdavMountSchema>;
export type WebdavUserInput = z.input<typeof webdavUserInputSchema>;
export type WebdavUser = z.infer<typeof webdavUserSchema>;
export type WebdavSettings = z.infer<typeof webdavSettingsSchema>;
export type WebdavSettingsPatch = z.infer<typeof webdavSettingsPatchSchema>;
export type WebdavConfig = z.infer<typeof webdavConfigSchema>;

/** GET /api/webdav/logs */
export const webdavLogsQuerySchema = logPageQuerySchema;

// ---- views: what the GET routes answer --------------------------------------------------------

/**
 * `running`: listening; `error`: cannot listen (`reason`; a taken port or a missing address is
 * tried again at `retryAt`); `stopped`: not running (the module is off: reason moduleDisabled).
 */
export type WebdavRunState = 'running' | 'error' | 'stopped';

export interface WebdavStatus {
  state: WebdavRunState;
  reason?: CodedText;
  retryAt?: number;
  /** Notes: plainHttpPasswords, noCertificate, noUsers, storageUnavailable … (WEBDAV_REASONS). */
  warnings: CodedText[];
  /** Where it listens (the bound address and port) and how. */
  address?: string;
  port?: number;
  scheme: 'http' | 'https';
  pathPrefix: string;
  /** Since the listener started: connections open now, requests, bytes on the wire, rates of the last second. */
  connections: number;
  requests: number;
  bytesIn: number;
  bytesOut: number;
  requestRate: number;
  rateIn: number;
  rateOut: number;
  /** Connections refused at accept (address rules, caps) since the module started. */
  refused: number;
}

/** A user as read: the password hash masked (SECRET_MASK when set). */
export type WebdavUserView = WebdavUser;

/** GET /api/webdav/settings, PUT /api/webdav/settings */
export interface WebdavSettingsResponse {
  ret: 0;
  settings: WebdavSettings;
  status: WebdavStatus;
}

/** GET /api/webdav/status */
export interface WebdavStatusResponse {
  ret: 0;
  enabled: boolean;
  status: WebdavStatus;
  /** Newest first. */
  lastLogs: LogEntryView[];
}

/** GET /api/webdav/mounts */
export interface WebdavMountsResponse {
  ret: 0;
  list: WebdavMount[];
}
/** POST / PUT /api/webdav/mounts(/:key) */
export interface WebdavMountResponse {
  ret: 0;
  mount: WebdavMount;
}

/** GET /api/webdav/users */
export interface WebdavUsersResponse {
  ret: 0;
  list: WebdavUserView[];
}
/** POST / PUT /api/webdav/users(/:key) */
export interface WebdavUserResponse {
  ret: 0;
  user: WebdavUserView;
}

/** GET /api/webdav/logs */
export type WebdavLogsResponse = LogPageResponse;
