// The FTP server's shared half: config schema, issue codes, reasons, log lines, API bodies and
// views. The server publishes MOUNTS (a storage of storage management under a folder name at the
// root) to USERS with per-mount access (rw / ro; absent = not visible), over plain FTP or explicit
// FTPS (AUTH TLS) with passive data connections from a port range.
import { z } from 'zod';
import type { Coded } from '../contract/coded.js';
import { type LogPageResponse, logPageQuerySchema } from '../contract/logPage.js';
import { moduleSwitchShape } from '../contract/switch.js';
import { isCidrOrIp, isHostName, isIp, isIpv4 } from '../net.js';
import { type GenericIssueCode, issueKit } from './fieldIssue.js';

export const FTPSERVER_LIMITS = {
  /** 21 needs root or CAP_NET_BIND_SERVICE: the default is 2121. */
  port: { min: 1, max: 65535, default: 2121 },
  passivePort: { min: 1024, max: 65535 },
  passiveDefault: { min: 50000, max: 50100 },
  /** Ports a passive range may hold (each one is claimed in the port registry). */
  passiveRangeMax: 1000,
  idleTimeoutSec: { min: 10, max: 86_400, default: 300 },
  /** From accept to a successful PASS. */
  loginTimeoutSec: { min: 5, max: 600, default: 30 },
  maxConnections: { min: 1, max: 4096, default: 64 },
  perAddressMaxConnections: { min: 1, max: 4096, default: 8 },
  list: { max: 256 },
  mounts: { max: 64 },
  users: { max: 256 },
  name: { max: 64 },
  logLevel: { min: 2, max: 6, default: 4 },
  logCapacity: { min: 0, max: 102_400, default: 1024 },
} as const;

export const FTP_TLS_MODES = ['off', 'explicit', 'required'] as const;
export type FtpTlsMode = (typeof FTP_TLS_MODES)[number];
export const FTP_ACCESS = ['rw', 'ro'] as const;
export type FtpAccess = (typeof FTP_ACCESS)[number];
/** The names anonymous clients log in with (RFC 1635); no user may take them. */
export const FTP_ANONYMOUS_NAMES = ['anonymous', 'ftp'] as const;

/**
 * Issue codes (the zod messages and the module's checks) with their English text; the UI
 * translates `ftpserver.err_<code>`. zod's own checks answer the generic codes.
 */
export const FTPSERVER_MESSAGES = {
  addressInvalid: 'not an IP address of this box (empty = every address)',
  announceInvalid: 'the announced address is an IPv4 address or a host name (empty = the local address)',
  passiveInverted: 'the passive range starts at {min} but ends at {max}',
  passiveTooLarge: 'the passive range holds {count} ports; at most {max}',
  passiveHoldsControl: 'the passive range {min}-{max} holds the control port {port}',
  cidrInvalid: 'not an IP address or CIDR: {token}',
  certificateInvalid: 'not a host name (the certificate to present; empty = the store picks)',
  nameRequired: 'a name is required',
  nameTaken: 'another entry is called {name}',
  mountNameInvalid: 'a folder name cannot hold / or \\ or control characters, nor be . or ..',
  userNameInvalid: 'a user name is 1-64 characters without spaces, colons, slashes or control characters',
  userNameReserved: '{name} is the anonymous login; enable anonymous access instead',
  passwordRequired: 'a password is required',
  storageRequired: 'choose a storage',
  storageNotFound: 'storage management has no storage {storage}',
  mountNotFound: 'no mount with key {mount}',
  userNotFound: 'no such user',
  sessionNotFound: 'no such session',
  moduleDisabled: 'the FTP server is off',
} as const;
export type FtpserverIssueCode = keyof typeof FTPSERVER_MESSAGES;
export type FtpserverErrorCode = FtpserverIssueCode | GenericIssueCode;
export const ftpserverIssues = issueKit(FTPSERVER_MESSAGES);

const L = FTPSERVER_LIMITS;
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);
const port = z.number().int().min(L.port.min).max(L.port.max);
const passivePort = z.number().int().min(L.passivePort.min).max(L.passivePort.max);
const KEY = /^[A-Za-z0-9]{1,32}$/;

/** A string check whose issue names the offending entry (`{token}`). */
const cidrEntry = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    if (!isCidrOrIp(s)) ctx.addIssue({ code: 'custom', message: 'cidrInvalid', params: { token: s } });
  });
const cidrList = z.array(cidrEntry).max(L.list.max).default([]);

/** A top-level folder name: one path segment as clients see it (no separators, no control characters). */
export function isMountName(s: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  return s !== '.' && s !== '..' && !/[/\\\u0000-\u001f\u007f]/.test(s);
}

/** A login name: what USER carries, without the characters that make logs and clients ambiguous. */
export function isFtpUserName(s: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  return /^[^\s:/\\\u0000-\u001f\u007f]{1,64}$/u.test(s);
}

const accessMap = z.record(z.string().regex(KEY), z.enum(FTP_ACCESS)).default({});

const mountShape = {
  /** The folder clients see at the root. */
  name: z.string().trim().min(1, 'nameRequired').max(L.name.max).refine(isMountName, 'mountNameInvalid'),
  /** Key of a storage of storage management. */
  storage: z.string().trim().min(1, 'storageRequired').max(32),
  enabled: z.boolean().default(true),
};

const userShape = {
  name: z.string().trim().min(1, 'nameRequired').refine(isFtpUserName, 'userNameInvalid'),
  /**
   * Stored: the scrypt hash (`scrypt$…`). Read: SECRET_MASK when set. Written: a new plain
   * password (the server hashes it before saving), or the mask to keep the stored one.
   */
  password: z.string().max(1024).default(''),
  enabled: z.boolean().default(true),
  /** Per mount key: `rw`, `ro`; a mount that is absent is not visible to the user. */
  access: accessMap,
};

export const ftpserverMountInputSchema = z.object(mountShape);
export const ftpserverMountSchema = z.object({ key: z.string().regex(KEY), ...mountShape });
export const ftpserverUserInputSchema = z.object(userShape);
export const ftpserverUserSchema = z.object({ key: z.string().regex(KEY), ...userShape });

const passiveSchema = z.object({
  portMin: passivePort.default(L.passiveDefault.min),
  portMax: passivePort.default(L.passiveDefault.max),
  /**
   * The address PASV (227) tells clients: '' = the control connection's local address; an IPv4
   * address or a host name (resolved at each PASV) for a box behind NAT or published through STUN.
   */
  announceAddress: z
    .string()
    .trim()
    .max(253)
    .refine((s) => s === '' || isIpv4(s) || isHostName(s, { underscore: true }), 'announceInvalid')
    .default(''),
  /** Announce it to LAN clients too (off: they get the local address, which works without NAT hairpinning). */
  announceForLan: z.boolean().default(false),
});

const tlsSchema = z.object({
  /**
   * off: no AUTH TLS; explicit: AUTH TLS offered (TLS 1.2+); required: USER refused before AUTH
   * TLS and data connections refused without PROT P.
   */
  mode: z.enum(FTP_TLS_MODES).default('explicit'),
  /** The name whose stored certificate is presented; '' = the client's SNI, else the store's default. */
  certificate: z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .refine((s) => s === '' || isHostName(s), 'certificateInvalid')
    .default(''),
});

const anonymousSchema = z.object({
  /** USER anonymous / ftp with any password; read-only whatever the storage allows. */
  enabled: z.boolean().default(false),
  /** Per mount key: only `ro`. */
  access: z.record(z.string().regex(KEY), z.literal('ro')).default({}),
});

const settingsShape = {
  /** The module switch; off by default: a file server listens only when the owner turns it on. */
  ...moduleSwitchShape(false),
  port: port.default(L.port.default),
  /** '' = every address (dual stack). */
  address: z
    .string()
    .trim()
    .refine((s) => s === '' || isIp(s), 'addressInvalid')
    .default(''),
  passive: passiveSchema.prefault({}),
  tls: tlsSchema.prefault({}),
  idleTimeoutSec: int(L.idleTimeoutSec),
  loginTimeoutSec: int(L.loginTimeoutSec),
  maxConnections: int(L.maxConnections),
  /** Open control connections from one address (IPv6: its /64). */
  perAddressMaxConnections: int(L.perAddressMaxConnections),
  /** Only LAN addresses may connect (a home NAS does not publish files to the internet unless told). */
  lanOnly: z.boolean().default(true),
  /** When not empty, only these addresses / CIDRs may connect (whatever lanOnly says). */
  allowList: cidrList,
  /** Never these addresses / CIDRs (checked first). */
  blockList: cidrList,
  anonymous: anonymousSchema.prefault({}),
  logLevel: int(L.logLevel),
  logCapacity: int(L.logCapacity),
};

export const ftpserverSettingsSchema = z.object(settingsShape);

type SettingsFields = z.infer<typeof ftpserverSettingsSchema>;

/** Cross-field checks of the settings (also run by the settings PUT before the whole slice is). */
function checkSettings(s: SettingsFields, ctx: z.RefinementCtx): void {
  const { portMin: min, portMax: max } = s.passive;
  if (min > max)
    ctx.addIssue({ code: 'custom', path: ['passive', 'portMax'], message: 'passiveInverted', params: { min, max } });
  else if (max - min + 1 > L.passiveRangeMax)
    ctx.addIssue({
      code: 'custom',
      path: ['passive', 'portMax'],
      message: 'passiveTooLarge',
      params: { count: max - min + 1, max: L.passiveRangeMax },
    });
  else if (s.port >= min && s.port <= max)
    ctx.addIssue({
      code: 'custom',
      path: ['passive', 'portMin'],
      message: 'passiveHoldsControl',
      params: { min, max, port: s.port },
    });
}

/** The config slice; `{}` parses to the server switched off, port 2121, no mounts, no users. */
export const ftpserverConfigSchema = z
  .object({
    ...settingsShape,
    mounts: z.array(ftpserverMountSchema).max(L.mounts.max).default([]),
    users: z.array(ftpserverUserSchema).max(L.users.max).default([]),
  })
  .superRefine((c, ctx) => {
    checkSettings(c, ctx);
    const mountKeys = new Set(c.mounts.map((m) => m.key));
    const seen = new Set<string>();
    c.mounts.forEach((m, i) => {
      const name = m.name.normalize('NFC').toLowerCase();
      if (seen.has(name))
        ctx.addIssue({ code: 'custom', path: ['mounts', i, 'name'], message: 'nameTaken', params: { name: m.name } });
      seen.add(name);
    });
    const users = new Set<string>();
    c.users.forEach((u, i) => {
      const name = u.name.toLowerCase();
      if ((FTP_ANONYMOUS_NAMES as readonly string[]).includes(name))
        ctx.addIssue({
          code: 'custom',
          path: ['users', i, 'name'],
          message: 'userNameReserved',
          params: { name: u.name },
        });
      else if (users.has(name))
        ctx.addIssue({ code: 'custom', path: ['users', i, 'name'], message: 'nameTaken', params: { name: u.name } });
      users.add(name);
      for (const mount of Object.keys(u.access))
        if (!mountKeys.has(mount))
          ctx.addIssue({
            code: 'custom',
            path: ['users', i, 'access', mount],
            message: 'mountNotFound',
            params: { mount },
          });
    });
    for (const mount of Object.keys(c.anonymous.access))
      if (!mountKeys.has(mount))
        ctx.addIssue({
          code: 'custom',
          path: ['anonymous', 'access', mount],
          message: 'mountNotFound',
          params: { mount },
        });
  });

/** Whole-value secrets of the slice: read as SECRET_MASK, kept when sent back so. */
export const FTPSERVER_SECRETS = ['users.*.password'] as const;

/** PUT /api/ftpserver/settings: any subset of the settings (mounts and users have their own calls). */
export const ftpserverSettingsPatchSchema = z.object({
  enabled: z.boolean().optional(),
  port: port.optional(),
  address: settingsShape.address.unwrap().optional(),
  passive: passiveSchema.partial().optional(),
  tls: tlsSchema.partial().optional(),
  idleTimeoutSec: settingsShape.idleTimeoutSec.unwrap().optional(),
  loginTimeoutSec: settingsShape.loginTimeoutSec.unwrap().optional(),
  maxConnections: settingsShape.maxConnections.unwrap().optional(),
  perAddressMaxConnections: settingsShape.perAddressMaxConnections.unwrap().optional(),
  lanOnly: z.boolean().optional(),
  allowList: z.array(cidrEntry).max(L.list.max).optional(),
  blockList: z.array(cidrEntry).max(L.list.max).optional(),
  anonymous: anonymousSchema.partial().optional(),
  logLevel: settingsShape.logLevel.unwrap().optional(),
  logCapacity: settingsShape.logCapacity.unwrap().optional(),
});

/** GET /api/ftpserver/logs */
export const ftpserverLogsQuerySchema = logPageQuerySchema;

export type FtpserverMountInput = z.input<typeof ftpserverMountInputSchema>;
export type FtpserverMount = z.infer<typeof ftpserverMountSchema>;
export type FtpserverUserInput = z.input<typeof ftpserverUserInputSchema>;
export type FtpserverUser = z.infer<typeof ftpserverUserSchema>;
export type FtpserverSettings = z.infer<typeof ftpserverSettingsSchema>;
export type FtpserverSettingsPatch = z.infer<typeof ftpserverSettingsPatchSchema>;
export type FtpserverConfig = z.infer<typeof ftpserverConfigSchema>;

// ---- words the server writes for the UI --------------------------------------------------------

/** States and reasons, English; the UI translates `ftpserver.reason_<code>`. */
export const FTPSERVER_REASONS = {
  moduleDisabled: 'the FTP server is off',
  noCertificate: 'no certificate is stored: AUTH TLS is refused',
  noCertificateRequired: 'TLS is required but no certificate is stored: nobody can log in',
  certificateMissing: 'no stored certificate for {name}: the store default is presented',
  storageUnavailable: 'storage {storage} is not available (storage management is off or the entry is gone)',
  noUsers: 'no user can log in: add a user with a password and a mount',
} as const;
export type FtpserverReasonCode = keyof typeof FTPSERVER_REASONS;

/** Log lines, English; the UI translates `ftpserver.log_<code>`. `client` is address:port. */
export const FTPSERVER_LOG = {
  listening: 'listening on {address} port {port}, passive ports {portMin}-{portMax}',
  listenFailed: 'cannot listen on {address} port {port}: {detail}',
  stopped: 'stopped',
  connected: '{client} connected',
  refusedBlocked: '{client} refused: blocked by the address lists',
  refusedLan: '{client} refused: not a LAN address (LAN only)',
  refusedCap: '{client} refused: limit of {cap} connections',
  refusedAddressCap: '{client} refused: limit of {cap} connections from one address',
  loginOk: '{client} logged in as {user}',
  loginFailed: '{client} failed to log in as {user}',
  loginLocked: '{client} locked out for {seconds} s after failed logins',
  loginTimeout: '{client} did not log in within {seconds} s',
  idleTimeout: '{client} ({user}) idle for {seconds} s, closing',
  tooManyFailures: '{client} closed after {count} failed logins',
  lineTooLong: '{client} sent a command line over {max} bytes',
  commandsThrottled: '{client} sends over {rate} commands per second: slowed down',
  tlsFailed: '{client} TLS handshake failed: {detail}',
  tlsStarted: '{client} switched to TLS ({protocol})',
  dataForeign: '{client}: data connection from {peer} refused (not the control peer)',
  passiveExhausted: '{client}: no free passive port in {portMin}-{portMax}',
  transferDone: '{user} {client} {verb} {path}: {bytes} bytes in {ms} ms',
  transferFailed: '{user} {client} {verb} {path} failed after {bytes} bytes: {detail}',
  transferAborted: '{user} {client} {verb} {path} aborted after {bytes} bytes',
  changed: '{user} {client} {verb} {path}',
  refused: '{user} {client} {verb} {path} refused: {detail}',
  disconnected: '{client} ({user}) disconnected after {seconds} s, in {in}, out {out}',
  kicked: '{client} ({user}) disconnected by the administrator',
} as const;
export type FtpserverLogCode = keyof typeof FTPSERVER_LOG;

// ---- views: what the GET routes answer --------------------------------------------------------

/** A user as read: the password masked (SECRET_MASK when one is set, '' when not). */
export type FtpserverUserView = FtpserverUser;

/** A mount as read, with what storage management says of its storage now. */
export interface FtpserverMountView extends FtpserverMount {
  /** The storage's name in storage management ('' when it is gone). */
  storageName: string;
  /** Open in storage management now (false: off, or the entry is gone). */
  available: boolean;
  /** The storage refuses writes whatever a user's access says. */
  storageReadOnly: boolean;
}

/** The settings as read (mounts and users have their own calls). */
export type FtpserverSettingsView = FtpserverSettings;

/** What a session is moving now. */
export interface FtpserverTransferView {
  verb: 'RETR' | 'STOR' | 'APPE' | 'STOU' | 'LIST' | 'NLST' | 'MLSD';
  /** The virtual path (`/<mount>/…`). */
  path: string;
  /** ms since the epoch. */
  since: number;
  bytes: number;
  /** Bytes per second over the last seconds. */
  rate: number;
}

export interface FtpserverSessionView {
  id: string;
  /** '' before login; `anonymous` for an anonymous login. */
  user: string;
  /** The client's address:port. */
  address: string;
  since: number;
  /** TLS on the control connection, and PROT P for data. */
  tls: boolean;
  protectedData: boolean;
  cwd: string;
  transfer?: FtpserverTransferView;
  bytesIn: number;
  bytesOut: number;
}

export interface FtpserverStatusView {
  enabled: boolean;
  listening: boolean;
  /** Why it is not listening, or what is wrong (no certificate for TLS, a storage gone …). */
  reasons: Coded[];
  port: number;
  address: string;
  /** A certificate is there for AUTH TLS. */
  tlsReady: boolean;
  sessions: FtpserverSessionView[];
  /** Since the module started. */
  bytesIn: number;
  bytesOut: number;
  logins: number;
  failedLogins: number;
}

/** GET and PUT /api/ftpserver/settings */
export interface FtpserverSettingsResponse {
  ret: 0;
  settings: FtpserverSettingsView;
}
/** GET /api/ftpserver/users */
export interface FtpserverUsersResponse {
  ret: 0;
  list: FtpserverUserView[];
}
/** POST, PUT /api/ftpserver/users(/:key) */
export interface FtpserverUserResponse {
  ret: 0;
  user: FtpserverUserView;
}
/** GET /api/ftpserver/mounts */
export interface FtpserverMountsResponse {
  ret: 0;
  list: FtpserverMountView[];
}
/** POST, PUT /api/ftpserver/mounts(/:key) */
export interface FtpserverMountResponse {
  ret: 0;
  mount: FtpserverMountView;
}
/** GET /api/ftpserver/status */
export interface FtpserverStatusResponse {
  ret: 0;
  status: FtpserverStatusView;
}
/** GET /api/ftpserver/logs */
export type FtpserverLogsResponse = LogPageResponse;
