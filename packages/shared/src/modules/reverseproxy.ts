// The web service module (`reverseproxy`, screen `/web`): config slice, rule and sub rule
// schemas, request and response shapes. A rule is one listener; its sub rules route by
// front-end domain and path prefix; the default rule answers what no sub rule takes.
import { z } from 'zod';
import { type CodedText, fillTemplate, type LogEntryView } from '../contract/coded.js';
import { moduleSwitchShape } from '../contract/switch.js';
import { isCidrOrIp, isHostName, isIp, isIpv4 } from '../net.js';
import { CUSTOM_CONFIG_LIMITS, parseCustomConfig } from './customConfig.js';
import { issueKit } from './fieldIssue.js';

export * from './customConfig.js';

export const REVERSEPROXY_LIMITS = {
  logCapacity: { min: 0, max: 102400, default: 1000 },
  logLevel: { min: 2, max: 6, default: 4 },
  logShowLatest: { min: 1, max: 256, default: 10 },
  name: { max: 64 },
  domains: { max: 256 },
  targets: { max: 32 },
  list: { max: 1024 },
  cacheMaxAge: { min: 0, max: 31_536_000, default: 3600 },
} as const;

export const DEFAULT_CORS_METHODS = ['POST', 'GET', 'PUT', 'OPTIONS', 'DELETE'] as const;
export const LISTEN_TYPES = ['http', 'https', 'both'] as const;
/**
 * The listener's address family (spec §3 "network type", the ancestor's `Network`): `tcp` takes
 * IPv4 and IPv6 clients on one socket, `tcp4` IPv4 only, `tcp6` IPv6 only.
 */
export const NETWORK_TYPES = ['tcp', 'tcp4', 'tcp6'] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];
export const TLS_MIN_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
export const SERVICE_TYPES = ['proxy', 'redirect', 'jump', 'files', 'text', 'close'] as const;
export const FILTER_MODES = ['off', 'whitelist', 'blacklist'] as const;
export const REDIRECT_CODES = [301, 302, 303, 307, 308] as const;
export const CACHE_MODES = ['default', 'noStore', 'maxAge'] as const;

/**
 * The module's issue codes (the zod messages of its schemas) with their English text (the
 * spec's own wording where it has one; `{name}` is filled from the issue's params). The UI
 * shows `reverseproxy.err_<code>`.
 */
export const REVERSEPROXY_MESSAGES = {
  listenAddressInvalid: 'invalid listening address format',
  domainRequired: "the sub rule's domain name cannot be empty",
  domainInvalid: 'not a domain name (exact, or *. wildcard): {token}',
  batchDomainRequired: 'old and new domain cannot be empty',
  targetRequired: 'a reverse proxy needs at least one back-end address',
  targetInvalid: 'back-end address must be http(s)://host[:port][/path]: {token}',
  redirectTargetRequired: 'the redirect target cannot be empty',
  mountRequired: 'a file server needs at least one mount',
  mountDirRequired: 'a local mount needs a directory',
  mountPathInvalid: 'mount path must start with / and contain no ..',
  cidrInvalid: 'not an IP address or CIDR: {token}',
  pathPrefixInvalid: 'path prefix must start with /',
  headerInvalid: 'invalid header name: {token}',
  basicAuthUserRequired: 'basic auth needs a user',
  /** A header value sent with more masks than the stored value has secrets. */
  secretMaskUnmatched: 'the masked value does not match the stored one: type the value again',
  ruleNotFound: 'no such rule',
  subRuleNotFound: 'no such sub rule',
  portConflict: 'another rule ({rule}) listens on this address and port',
  networkAddressFamily: 'the listening address does not fit the network type (IPv4/IPv6)',
  customConfigUnknown: 'custom config, line {line}: unknown directive {token}',
  customConfigArgs: 'custom config, line {line}: wrong number of values for {token}',
  customConfigHeader: 'custom config, line {line}: invalid or reserved header name {token}',
  customConfigVariable: 'custom config, line {line}: variables are not expanded ({token}); write the value itself',
  customConfigSyntax: 'custom config, line {line}: unbalanced quotes or a control character',
} as const;
export type ReverseproxyMessage = keyof typeof REVERSEPROXY_MESSAGES;
export type ReverseproxyIssueCode = ReverseproxyMessage;
export const reverseproxyIssues = issueKit(REVERSEPROXY_MESSAGES);

/**
 * Why a rule does not serve, and the notes its status carries, as codes with English text
 * (`{name}` from the params). The UI shows `reverseproxy.reason_<code>`. A listener that cannot
 * bind reports the core's bind reasons (portInUse, portPermission, addressMissing, bindFailed).
 */
export const REVERSEPROXY_REASONS = {
  http3Unsupported: 'HTTP/3 is not supported by this runtime; HTTP/1.1 and HTTP/2 serve',
  firewallFailed: 'the host firewall could not be opened for this port: {detail}',
  noCertificate: 'no certificate is stored: HTTPS handshakes fail',
  moduleDisabled: 'the web service is switched off',
  rulesFailing: '{count} rule(s) could not start',
} as const;
export type ReverseproxyReasonCode = keyof typeof REVERSEPROXY_REASONS;

/** A reason of this module with its English text. */
export function reverseproxyReason(code: ReverseproxyReasonCode, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: fillTemplate(REVERSEPROXY_REASONS[code], params) };
}

/**
 * Codes of the lines the web service writes into a site's log (besides the access line itself,
 * which is data: address, method, URL, status, time). The UI shows `reverseproxy.log_<code>`.
 */
export const REVERSEPROXY_LOG = {
  refused: 'refused {status} [{client}] {method} {host}{url}',
  refusedTarget: 'refused {status} [{client}] {method} {host}{url} ({reason})',
  refusedWebsocket: 'refused websocket {status} [{client}] {host}{url}',
  refusedUpgrade: 'refused upgrade {status} [{client}] {host}{url}',
  refusedUpgradeType: 'refused upgrade to {upgrade}: only WebSocket is passed on',
  refusedBody: 'refused {status}: {reason}',
  closed: 'closed the connection of {client}',
  handlerError: 'handler error: {detail}',
  proxyError: 'proxy error {origin}: {detail}',
  websocketError: 'websocket proxy error {origin}: {detail}',
  backendUnreachable: 'back end {origin} unreachable ({errno}): the others go first for {seconds} s',
  backendBack: 'back end {origin} answers again',
} as const;
export type ReverseproxyLogCode = keyof typeof REVERSEPROXY_LOG;

/** Request values that targets, redirect targets and texts expand as `{name}` (or the ancestor's `#{name}`). */
export const REVERSEPROXY_VARIABLES = [
  'clientIP',
  'remoteIP',
  'host',
  'port',
  'hostAndPort',
  'method',
  'path',
  'url',
  'scheme',
  'userAgent',
  'time',
] as const;
export type ReverseproxyVariable = (typeof REVERSEPROXY_VARIABLES)[number];

const L = REVERSEPROXY_LIMITS;
type Code = ReverseproxyIssueCode;

/** Front-end domain: exact host name (`_` allowed) or IP, or `*.` + host name (one level). */
export const isFrontDomain = (d: string): boolean =>
  isHostName(d, { underscore: true }) || (!d.startsWith('*.') && isIp(d));

const BACKEND_URL = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:(\d{1,5}))?(\/[^\s?#]*)?$/i;
/** Back-end address: `http(s)://host[:port][/path]`. */
export function isBackendUrl(s: string): boolean {
  const m = BACKEND_URL.exec(s);
  if (!m) return false;
  return m[3] === undefined || (Number(m[3]) >= 1 && Number(m[3]) <= 65535);
}

const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);
const str = (max = 4096) => z.string().trim().max(max);

/** A string check whose issue names the offending entry (`{token}`) with the module's code. */
const entry = (ok: (s: string) => boolean, code: Code) =>
  z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      if (!ok(s)) ctx.addIssue({ code: 'custom', message: code, params: { token: s } });
    });

const cidrList = z.array(entry(isCidrOrIp, 'cidrInvalid')).max(L.list.max).default([]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headerPair = z.object({
  name: entry((n) => HEADER_NAME.test(n), 'headerInvalid'),
  value: str(),
});

const mountSchema = z.object({
  /** URL path the mount answers under (`/` for the whole site). */
  urlPath: z
    .string()
    .trim()
    .default('/')
    .refine((p) => p.startsWith('/') && !p.split('/').includes('..'), 'mountPathInvalid'),
  /** Local directory (type `local`; `store` mounts come with the storage module). */
  type: z.enum(['local', 'store']).default('local'),
  dir: str(),
  name: str(128).default(''),
});

/** Everything a sub rule (and the default rule) does with a request. */
const serviceShape = {
  name: str(L.name.max).default(''),
  enabled: z.boolean().default(true),
  remark: str(256).default(''),
  serviceType: z.enum(SERVICE_TYPES).default('proxy'),
  // reverse proxy
  targets: z.array(entry(isBackendUrl, 'targetInvalid')).max(L.targets.max).default([]),
  /** Send the client's Host to the back end (else the back end's own host). */
  keepHost: z.boolean().default(true),
  backendSkipVerify: z.boolean().default(false),
  websocket: z.boolean().default(true),
  // redirect / URL jump
  redirectTarget: str().default(''),
  redirectCode: z
    .number()
    .int()
    .refine((n) => (REDIRECT_CODES as readonly number[]).includes(n))
    .default(302),
  keepPath: z.boolean().default(true),
  // file server
  mounts: z.array(mountSchema).max(64).default([]),
  listDirs: z.boolean().default(false),
  indexFile: str(255).default('index.html'),
  hiddenFiles: z.boolean().default(false),
  // text output
  text: z.string().max(1_000_000).default(''),
  textContentType: str(128).default('text/plain; charset=utf-8'),
  // client IP
  clientIp: z
    .object({
      /** Believe forwarded headers when the peer is a trusted proxy. */
      fromHeaders: z.boolean().default(false),
      trustedProxies: cidrList,
      /** Add X-Forwarded-For/-Proto/-Host and X-Real-IP towards the back end. */
      addForwardedHeaders: z.boolean().default(true),
    })
    .default({ fromHeaders: false, trustedProxies: [], addForwardedHeaders: true }),
  basicAuth: z
    .object({
      enabled: z.boolean().default(false),
      user: str(128).default(''),
      password: z.string().max(256).default(''),
      /** Path prefixes it covers; empty = the whole sub rule. */
      paths: z.array(str(1024)).max(64).default([]),
    })
    .default({ enabled: false, user: '', password: '', paths: [] }),
  ipFilter: z.object({ mode: z.enum(FILTER_MODES).default('off'), list: cidrList }).default({ mode: 'off', list: [] }),
  uaFilter: z
    .object({ mode: z.enum(FILTER_MODES).default('off'), list: z.array(str(512)).max(L.list.max).default([]) })
    .default({ mode: 'off', list: [] }),
  cors: z
    .object({
      enabled: z.boolean().default(false),
      /** `*` or exact origins. */
      origins: z.array(str(512)).max(256).default(['*']),
      methods: z
        .array(z.string().trim().toUpperCase())
        .max(16)
        .default([...DEFAULT_CORS_METHODS]),
    })
    .default({ enabled: false, origins: ['*'], methods: [...DEFAULT_CORS_METHODS] }),
  cache: z
    .object({ mode: z.enum(CACHE_MODES).default('default'), maxAge: int(L.cacheMaxAge) })
    .default({ mode: 'default', maxAge: L.cacheMaxAge.default }),
  robots: z
    .object({
      enabled: z.boolean().default(false),
      text: z.string().max(65536).default('User-agent: *\nDisallow: /\n'),
    })
    .default({ enabled: false, text: 'User-agent: *\nDisallow: /\n' }),
  /** Added to the request towards the back end. */
  requestHeaders: z.array(headerPair).max(64).default([]),
  /** Added to every answer. */
  responseHeaders: z.array(headerPair).max(64).default([]),
  /**
   * nginx-style directives (`proxy_set_header`, `proxy_hide_header`, `add_header`; see
   * customConfig.ts): refused with the line at fault unless every line is understood.
   */
  customConfig: z
    .string()
    .max(CUSTOM_CONFIG_LIMITS.chars)
    .default('')
    .superRefine((text, ctx) => {
      const r = parseCustomConfig(text);
      if (!r.ok)
        ctx.addIssue({
          code: 'custom',
          message: r.problem.code,
          params: { line: r.problem.line, token: r.problem.token },
        });
    }),
  log: z
    .object({
      capacity: int(L.logCapacity),
      level: int(L.logLevel),
      toConsole: z.boolean().default(false),
      showLatest: int(L.logShowLatest),
    })
    .default({
      capacity: L.logCapacity.default,
      level: L.logLevel.default,
      toConsole: false,
      showLatest: L.logShowLatest.default,
    }),
};

type ServiceLike = {
  serviceType: (typeof SERVICE_TYPES)[number];
  targets: string[];
  redirectTarget: string;
  mounts: { dir: string; type: string }[];
  basicAuth: { enabled: boolean; user: string };
};

function checkService(s: ServiceLike, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: Code) => ctx.addIssue({ code: 'custom', path, message });
  if (s.serviceType === 'proxy' && s.targets.length === 0) issue(['targets'], 'targetRequired');
  if ((s.serviceType === 'redirect' || s.serviceType === 'jump') && !s.redirectTarget)
    issue(['redirectTarget'], 'redirectTargetRequired');
  if (s.serviceType === 'files') {
    if (s.mounts.length === 0) issue(['mounts'], 'mountRequired');
    s.mounts.forEach((m, i) => {
      if (m.type === 'local' && !m.dir) issue(['mounts', i, 'dir'], 'mountDirRequired');
    });
  }
  if (s.basicAuth.enabled && !s.basicAuth.user) issue(['basicAuth', 'user'], 'basicAuthUserRequired');
}

const subRuleShape = {
  ...serviceShape,
  domains: z
    .array(entry((d) => d === '' || isFrontDomain(d), 'domainInvalid').transform((d) => d.toLowerCase()))
    .max(L.domains.max)
    .default([])
    .transform((a) => a.filter(Boolean))
    .refine((a) => a.length > 0, 'domainRequired'),
  pathPrefix: z
    .string()
    .trim()
    .default('/')
    .refine((p) => p.startsWith('/'), 'pathPrefixInvalid'),
};

const KEY = /^[A-Za-z0-9_-]{1,32}$/;
/** A sub rule as a client sends it: `key` is kept when given (an edit), assigned by the server when not. */
export const reverseproxySubRuleInputSchema = z
  .object({ key: z.string().regex(KEY).optional(), ...subRuleShape })
  .superRefine(checkService);
export const reverseproxySubRuleSchema = z
  .object({ key: z.string().regex(KEY), ...subRuleShape })
  .superRefine(checkService);
export const reverseproxyDefaultRuleSchema = z.object(serviceShape).superRefine((s, ctx) => {
  // The default rule may answer nothing: an empty proxy target list means "404 page".
  if (s.serviceType !== 'proxy') checkService(s, ctx);
});

const ruleShape = {
  name: str(L.name.max).default(''),
  enabled: z.boolean().default(true),
  listenTypes: z.enum(LISTEN_TYPES).default('http'),
  /** '' = every address. */
  address: z
    .string()
    .trim()
    .default('')
    .refine((a) => a === '' || isIp(a.replace(/^\[|\]$/g, '')), 'listenAddressInvalid'),
  port: z.number().int().min(1).max(65535).default(16666),
  network: z.enum(NETWORK_TYPES).default('tcp'),
  /** Open the port in the host firewall (iptables / ip6tables) while the rule runs. */
  firewallAutoAllow: z.boolean().default(false),
  minTlsVersion: z.enum(TLS_MIN_VERSIONS).default('TLSv1.2'),
  http2: z.boolean().default(true),
  /** HTTP/2 without TLS (prior knowledge, the "PRI *" preface) on the plain side; off by default. */
  h2c: z.boolean().default(false),
  /** Stored; reported as unsupported by the runtime. */
  http3: z.boolean().default(false),
  /**
   * Peers (addresses / CIDRs) whose connections start with a PROXY protocol header (v1 or v2,
   * e.g. from frp, HAProxy or a load balancer): the client address it carries is the one the
   * filters, logs and forwarded headers see. Others connect as usual. Empty = off.
   */
  proxyProtocolFrom: cidrList,
  defaultRule: reverseproxyDefaultRuleSchema.default(reverseproxyDefaultRuleSchema.parse({})),
};

/** An address literal must be of the network type's family (`tcp` takes either). */
function checkListener(r: { address: string; network: NetworkType }, ctx: z.RefinementCtx): void {
  const a = r.address.replace(/^\[|\]$/g, '');
  if (!a || r.network === 'tcp' || !isIp(a)) return;
  if (isIpv4(a) !== (r.network === 'tcp4'))
    ctx.addIssue({ code: 'custom', path: ['address'], message: 'networkAddressFamily' });
}

export const reverseproxyRuleInputSchema = z
  .object({
    ...ruleShape,
    subRules: z.array(reverseproxySubRuleInputSchema).max(256).default([]),
  })
  .superRefine(checkListener);
export const reverseproxyRuleSchema = z
  .object({
    key: z.string().regex(KEY),
    ...ruleShape,
    subRules: z.array(reverseproxySubRuleSchema).max(256).default([]),
  })
  .superRefine(checkListener);

export const reverseproxyConfigSchema = z.object({
  /** Module switch (run by the supervisor): off, no rule listens; their settings stay. */
  ...moduleSwitchShape(true),
  rules: z.array(reverseproxyRuleSchema).default([]),
});

/** Whole-value secrets of the slice: read as SECRET_MASK, kept when sent back so. */
export const REVERSEPROXY_SECRETS = [
  'rules.*.defaultRule.basicAuth.password',
  'rules.*.subRules.*.basicAuth.password',
] as const;

/**
 * Header values towards the back end and the custom config: free text masked in its secret
 * parts only (a credential header's value, a token-like value; shared/modules/secretText.ts,
 * and customConfigPieces for the directives), so `X-Plain: visible` stays readable and
 * `Authorization: Bearer ******` shows its scheme.
 */
export const REVERSEPROXY_FREE_TEXT_SECRETS = [
  'rules.*.defaultRule.requestHeaders.*.value',
  'rules.*.subRules.*.requestHeaders.*.value',
  'rules.*.defaultRule.customConfig',
  'rules.*.subRules.*.customConfig',
] as const;

export const reverseproxyBatchDomainSchema = z.object({
  oldDomain: z.string().trim().toLowerCase().min(1, 'batchDomainRequired'),
  newDomain: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'batchDomainRequired')
    .superRefine((d, ctx) => {
      if (!isFrontDomain(d)) ctx.addIssue({ code: 'custom', message: 'domainInvalid', params: { token: d } });
    }),
});

/** The site of a rule's default rule in log calls (`site=`) and in `lastLogs`; sub rules go by their key. */
export const REVERSEPROXY_DEFAULT_SITE = 'default';

export const reverseproxyLogsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
  order: z.enum(['newest', 'oldest']).default('newest'),
  /** A sub rule key, or `default`. */
  site: z.string().min(1).max(64).default(REVERSEPROXY_DEFAULT_SITE),
});

export type ReverseproxyService = z.infer<typeof reverseproxyDefaultRuleSchema>;
export type ReverseproxySubRule = z.infer<typeof reverseproxySubRuleSchema>;
export type ReverseproxySubRuleInput = z.input<typeof reverseproxySubRuleInputSchema>;
export type ReverseproxyRule = z.infer<typeof reverseproxyRuleSchema>;
export type ReverseproxyRuleInput = z.input<typeof reverseproxyRuleInputSchema>;
export type ReverseproxyConfig = z.infer<typeof reverseproxyConfigSchema>;

/**
 * `running`: listening; `error`: cannot listen (see `reason`; a taken port or a missing address
 * is tried again, `retryAt`); `stopped`: not running (the module is off: reason moduleDisabled);
 * `disabled`: the rule is switched off.
 */
export type ReverseproxyRuleState = 'running' | 'error' | 'stopped' | 'disabled';

export interface ReverseproxyRuleStatus {
  state: ReverseproxyRuleState;
  /** Why the rule does not serve: code + params + English (portInUse, moduleDisabled, …). */
  reason?: CodedText;
  /** When a listener that could not bind is tried again (ms since the epoch). */
  retryAt?: number;
  /** Notes such as http3Unsupported (REVERSEPROXY_REASONS), coded like `reason`. */
  warnings: CodedText[];
  port?: number;
  /** Live figures while the rule listens. */
  traffic?: ReverseproxyTraffic;
}

/**
 * What a listening rule has carried since it started listening (helper processes included):
 * client connections open now, requests (an HTTP/2 stream or a WebSocket counts as one), bytes
 * received from and sent to clients as they cross the wire (TLS included), and the rates of the
 * last second.
 */
export interface ReverseproxyTraffic {
  connections: number;
  requests: number;
  bytesIn: number;
  bytesOut: number;
  requestRate: number;
  rateIn: number;
  rateOut: number;
}

// ---- views: what the GET routes answer --------------------------------------------------------

/** A default rule as read: basic-auth password masked whole, credential header values in part. */
export type ReverseproxyServiceView = ReverseproxyService;
/** A sub rule as read (masked like the default rule). */
export type ReverseproxySubRuleView = ReverseproxySubRule;

/** A rule as read: its settings (secrets masked), live status and each site's newest log lines. */
export interface ReverseproxyRuleView extends ReverseproxyRule {
  status: ReverseproxyRuleStatus;
  /** Newest first, `showLatest` per site: `default` and each sub rule key. */
  lastLogs: Record<string, LogEntryView[]>;
}

/** GET /api/reverseproxy/rules */
export interface ReverseproxyListResponse {
  ret: 0;
  /** The module switch (PUT /api/modules/reverseproxy/enabled). */
  enabled: boolean;
  list: ReverseproxyRuleView[];
}

/** GET /api/reverseproxy/rules/:key and every call that changes a rule. */
export interface ReverseproxyRuleResponse {
  ret: 0;
  rule: ReverseproxyRuleView;
}

/** POST /api/reverseproxy/rules: the new rule and its key. */
export interface ReverseproxyAddRuleResponse extends ReverseproxyRuleResponse {
  key: string;
}

/** POST /api/reverseproxy/domains/replace */
export interface ReverseproxyBatchResponse {
  ret: 0;
  /** Sub rules changed. */
  changed: number;
}

/** GET /api/reverseproxy/rules/:key/logs */
export interface ReverseproxyLogsResponse {
  ret: 0;
  page: number;
  pageSize: number;
  total: number;
  logs: LogEntryView[];
}
