// The web service module (`reverseproxy`, screen `/web`): config slice, rule and sub rule
// schemas, request and response shapes. A rule is one listener; its sub rules route by
// front-end domain and path prefix; the default rule answers what no sub rule takes.
import { z } from 'zod';
import { isCidrOrIp, isIp } from '../net.js';

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
export const TLS_MIN_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
export const SERVICE_TYPES = ['proxy', 'redirect', 'jump', 'files', 'text', 'close'] as const;
export const FILTER_MODES = ['off', 'whitelist', 'blacklist'] as const;
export const REDIRECT_CODES = [301, 302, 303, 307, 308] as const;
export const CACHE_MODES = ['default', 'noStore', 'maxAge'] as const;

/** English text of the validation messages (the spec's own wording where it has one). */
export const REVERSEPROXY_MESSAGES = {
  listenAddressInvalid: 'invalid listening address format',
  domainRequired: "the sub rule's domain name cannot be empty",
  domainInvalid: 'not a domain name (exact, or *. wildcard)',
  batchDomainRequired: 'old and new domain cannot be empty',
  targetRequired: 'a reverse proxy needs at least one back-end address',
  targetInvalid: 'back-end address must be http(s)://host[:port][/path]',
  redirectTargetRequired: 'the redirect target cannot be empty',
  mountRequired: 'a file server needs at least one mount',
  mountPathInvalid: 'mount path must start with / and contain no ..',
  cidrInvalid: 'not an IP address or CIDR',
  pathPrefixInvalid: 'path prefix must start with /',
  headerInvalid: 'invalid header name',
  basicAuthUserRequired: 'basic auth needs a user',
  ruleNotFound: 'no such rule',
  subRuleNotFound: 'no such sub rule',
  portConflict: 'another rule listens on this address and port',
} as const;
export type ReverseproxyMessage = keyof typeof REVERSEPROXY_MESSAGES;

/** Notes a rule's `status.warnings` carries; the web shows its own translation of each. */
export const REVERSEPROXY_WARNINGS = {
  http3Unsupported: 'HTTP/3 is not supported by this runtime; HTTP/1.1 and HTTP/2 serve',
  /** Followed by ": " and the reason (no iptables, not root, …). */
  firewallFailed: 'the host firewall could not be opened for this port',
  noCertificate: 'no certificate is stored: HTTPS handshakes fail',
} as const;
export type ReverseproxyWarning = keyof typeof REVERSEPROXY_WARNINGS;

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

const M = REVERSEPROXY_MESSAGES;
const L = REVERSEPROXY_LIMITS;

const HOST_LABELS = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
/** Front-end domain: exact host name or IP, or `*.` + host name (one level). */
export const isFrontDomain = (d: string): boolean => {
  const s = d.toLowerCase();
  if (s.startsWith('*.')) return HOST_LABELS.test(s.slice(2));
  return HOST_LABELS.test(s) || isIp(s);
};

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
const cidrList = z.array(z.string().trim().refine(isCidrOrIp, M.cidrInvalid)).max(L.list.max).default([]);

const headerPair = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, M.headerInvalid),
  value: str(),
});

const mountSchema = z.object({
  /** URL path the mount answers under (`/` for the whole site). */
  urlPath: z
    .string()
    .trim()
    .default('/')
    .refine((p) => p.startsWith('/') && !p.split('/').includes('..'), M.mountPathInvalid),
  /** Local directory (type `local`; `store` mounts come with the storage module). */
  type: z.enum(['local', 'store']).default('local'),
  dir: str(),
  name: str(128).default(''),
});

/** Everything a sub rule (and the default rule) does with a request. */
const serviceShape = {
  name: str(L.name.max).default(''),
  enable: z.boolean().default(true),
  remark: str(256).default(''),
  serviceType: z.enum(SERVICE_TYPES).default('proxy'),
  // reverse proxy
  targets: z.array(z.string().trim().refine(isBackendUrl, M.targetInvalid)).max(L.targets.max).default([]),
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
      enable: z.boolean().default(false),
      user: str(128).default(''),
      password: z.string().max(256).default(''),
      /** Path prefixes it covers; empty = the whole sub rule. */
      paths: z.array(str(1024)).max(64).default([]),
    })
    .default({ enable: false, user: '', password: '', paths: [] }),
  ipFilter: z.object({ mode: z.enum(FILTER_MODES).default('off'), list: cidrList }).default({ mode: 'off', list: [] }),
  uaFilter: z
    .object({ mode: z.enum(FILTER_MODES).default('off'), list: z.array(str(512)).max(L.list.max).default([]) })
    .default({ mode: 'off', list: [] }),
  cors: z
    .object({
      enable: z.boolean().default(false),
      /** `*` or exact origins. */
      origins: z.array(str(512)).max(256).default(['*']),
      methods: z
        .array(z.string().trim().toUpperCase())
        .max(16)
        .default([...DEFAULT_CORS_METHODS]),
    })
    .default({ enable: false, origins: ['*'], methods: [...DEFAULT_CORS_METHODS] }),
  cache: z
    .object({ mode: z.enum(CACHE_MODES).default('default'), maxAge: int(L.cacheMaxAge) })
    .default({ mode: 'default', maxAge: L.cacheMaxAge.default }),
  robots: z
    .object({ enable: z.boolean().default(false), text: z.string().max(65536).default('User-agent: *\nDisallow: /\n') })
    .default({ enable: false, text: 'User-agent: *\nDisallow: /\n' }),
  /** Added to the request towards the back end. */
  requestHeaders: z.array(headerPair).max(64).default([]),
  /** Added to every answer. */
  responseHeaders: z.array(headerPair).max(64).default([]),
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
  basicAuth: { enable: boolean; user: string };
};

function checkService(s: ServiceLike, ctx: z.RefinementCtx): void {
  if (s.serviceType === 'proxy' && s.targets.length === 0)
    ctx.addIssue({ code: 'custom', path: ['targets'], message: M.targetRequired });
  if ((s.serviceType === 'redirect' || s.serviceType === 'jump') && !s.redirectTarget)
    ctx.addIssue({ code: 'custom', path: ['redirectTarget'], message: M.redirectTargetRequired });
  if (s.serviceType === 'files') {
    if (s.mounts.length === 0) ctx.addIssue({ code: 'custom', path: ['mounts'], message: M.mountRequired });
    s.mounts.forEach((m, i) => {
      if (m.type === 'local' && !m.dir)
        ctx.addIssue({ code: 'custom', path: ['mounts', i, 'dir'], message: M.mountRequired });
    });
  }
  if (s.basicAuth.enable && !s.basicAuth.user)
    ctx.addIssue({ code: 'custom', path: ['basicAuth', 'user'], message: M.basicAuthUserRequired });
}

const subRuleShape = {
  ...serviceShape,
  domains: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .refine((d) => d === '' || isFrontDomain(d), M.domainInvalid),
    )
    .max(L.domains.max)
    .default([])
    .transform((a) => a.filter(Boolean))
    .refine((a) => a.length > 0, M.domainRequired),
  pathPrefix: z
    .string()
    .trim()
    .default('/')
    .refine((p) => p.startsWith('/'), M.pathPrefixInvalid),
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
  enable: z.boolean().default(true),
  listenTypes: z.enum(LISTEN_TYPES).default('http'),
  /** '' = every address. */
  address: z
    .string()
    .trim()
    .default('')
    .refine((a) => a === '' || isIp(a.replace(/^\[|\]$/g, '')), M.listenAddressInvalid),
  port: z.number().int().min(1).max(65535).default(16666),
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

export const reverseproxyRuleInputSchema = z.object({
  ...ruleShape,
  subRules: z.array(reverseproxySubRuleInputSchema).max(256).default([]),
});
export const reverseproxyRuleSchema = z.object({
  key: z.string().regex(KEY),
  ...ruleShape,
  subRules: z.array(reverseproxySubRuleSchema).max(256).default([]),
});

export const reverseproxyConfigSchema = z.object({
  /** Module switch: off stops every rule (their settings stay). */
  enabled: z.boolean().default(true),
  rules: z.array(reverseproxyRuleSchema).default([]),
});

export const reverseproxyBatchDomainSchema = z.object({
  oldDomain: z.string().trim().toLowerCase().min(1, M.batchDomainRequired),
  newDomain: z.string().trim().toLowerCase().min(1, M.batchDomainRequired).refine(isFrontDomain, M.domainInvalid),
});

export const reverseproxyLogsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
  order: z.enum(['newest', 'oldest']).default('newest'),
});

export type ReverseproxyService = z.infer<typeof reverseproxyDefaultRuleSchema>;
export type ReverseproxySubRule = z.infer<typeof reverseproxySubRuleSchema>;
export type ReverseproxySubRuleInput = z.input<typeof reverseproxySubRuleInputSchema>;
export type ReverseproxyRule = z.infer<typeof reverseproxyRuleSchema>;
export type ReverseproxyRuleInput = z.input<typeof reverseproxyRuleInputSchema>;
export type ReverseproxyConfig = z.infer<typeof reverseproxyConfigSchema>;

/** `running`: listening; `error`: could not start (see `error`); `disabled`: switched off. */
export type ReverseproxyRuleState = 'running' | 'error' | 'stopped' | 'disabled';

export interface ReverseproxyRuleStatus {
  state: ReverseproxyRuleState;
  error?: string;
  /** Notes such as "HTTP/3 is not supported by this runtime". */
  warnings: string[];
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

export interface ReverseproxyLogEntry {
  seq: number;
  time: string;
  level: 2 | 3 | 4 | 5 | 6;
  text: string;
}
