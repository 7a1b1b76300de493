// The port-forwarding module (`portforward`): config slice, rule schema, request and response
// shapes, and its words: issue codes (`PORTFORWARD_MESSAGES`, the UI's `portforward.err_<code>`),
// log line codes (`portforward.log_<code>`) and reasons (`portforward.reason_<code>`), each with
// its English text. The server answers refusals as `{ret, msg, field, code, params}`.
import { z } from 'zod';
import type { Coded, LogEntryView } from '../contract/coded.js';
import { logPageQuerySchema } from '../contract/logPage.js';
import { moduleSwitchShape } from '../contract/switch.js';
import { isCidrOrIp, isIp, isTargetAddress } from '../net.js';
import { type GenericIssueCode, issueKit } from './fieldIssue.js';
import {
  bindFor,
  FORWARD_TYPES,
  type ForwardType,
  findForwardLoop,
  pairPorts,
  parsePortList,
} from './portforwardPorts.js';

export * from './portforwardPorts.js';

export const PORTFORWARD_LIMITS = {
  /** Proxies (forward types × listen ports) over all rules. */
  ruleLimit: { min: 1, max: 1024, default: 128 },
  maxTcpConnections: { min: 1, max: 16384, default: 1024 },
  maxUdpSessions: { min: 1, max: 16384, default: 1024 },
  /** 0 = no limit. */
  perIpMaxConnections: { min: 0, max: 16384, default: 0 },
  /** A rule's share for one client address (IPv6: its /64): one address cannot hold a rule's every slot. */
  rulePerIpMaxConnections: { min: 0, max: 16384, default: 64 },
  /** A TCP connection with no byte either way for this long is closed; 0 = never. */
  tcpIdleTimeoutMs: { min: 0, max: 86_400_000, default: 1_800_000 },
  ruleMaxTcpConnections: { min: 1, max: 16384, default: 256 },
  ruleMaxUdpSessions: { min: 1, max: 16384, default: 256 },
  connectTimeoutMs: { min: 100, max: 60000, default: 5000 },
  udpTimeoutMs: { min: 100, max: 3_600_000, default: 30_000 },
  udpPacketSize: { min: 64, max: 65507, default: 1500 },
  /** Bytes per second; 0 = no limit. */
  speedLimit: { min: 0, max: 100_000_000_000, default: 0 },
  logLevel: { min: 2, max: 6, default: 4 },
  logCapacity: { min: 0, max: 102400, default: 1024 },
  logShowLatest: { min: 1, max: 256, default: 20 },
  targetAddresses: { max: 16 },
  accessList: { max: 1024 },
  name: { max: 64 },
} as const;

/** Spec log levels: 2 Error, 3 Warn, 4 Info, 5 Debug, 6 Trace. */
export const PORTFORWARD_LOG_LEVELS = { 2: 'error', 3: 'warn', 4: 'info', 5: 'debug', 6: 'trace' } as const;
export type PortforwardLogLevel = keyof typeof PORTFORWARD_LOG_LEVELS;

export const TLS_MODES = ['none', 'terminate', 'originate'] as const;

/**
 * What a new rule forwards: TCP on one dual-stack socket, so IPv4 and IPv6 clients both get
 * through (the ancestor pre-selected TCP6 alone, which refuses IPv4 clients on most systems).
 */
export const DEFAULT_FORWARD_TYPES: readonly ForwardType[] = ['tcp'];
export const ACCESS_MODES = ['off', 'whitelist', 'blacklist'] as const;

/**
 * The module's issue codes with their English text (`{name}` filled from the params); the
 * schemas use the codes as zod messages, the UI translates `portforward.err_<code>`. zod's own
 * checks answer the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid).
 */
export const PORTFORWARD_MESSAGES = {
  typesRequired: 'choose at least one forwarding type',
  typesOverlap: 'tcp already covers tcp4 and tcp6 (and udp covers udp4 and udp6)',
  listenAddressInvalid: 'invalid listening address format',
  listenAddressFamily: 'this listening address does not fit the IPv4/IPv6 forwarding type',
  portsRequired: 'the port cannot be empty',
  listenPortsRequired: 'listening port cannot be empty',
  targetPortsRequired: 'target port cannot be empty',
  portListInvalid: 'ports are a comma list of 1-65535 and ranges a-b with a < b ({token})',
  portListDuplicate: 'a port is listed twice ({token})',
  targetPortsCount: 'give one target port, or as many target ports as listening ports ({count})',
  targetAddressRequired: 'target address cannot be empty',
  targetAddressInvalid: 'not an IP address or host name',
  forwardLoop: 'the target is this rule’s own listening port {port}',
  accessListInvalid: 'not an IP address or CIDR',
  accessListRequired: 'a whitelist needs at least one address',
  tlsNeedsTcp: 'TLS options need a TCP forwarding type',
  tlsKeyRequired: 'a certificate needs its private key',
  tlsCertRequired: 'a private key needs its certificate',
  tlsPairInvalid: 'the certificate and key are not a valid PEM pair',
  tlsCaInvalid: 'the CA certificate is not valid PEM',
  ruleLimitExceeded: 'too many proxies (forward types × ports over all rules): {count} of at most {limit}',
  portConflict: '{protocol} port {port} is already used by rule {rule}',
  ruleNotFound: 'no such rule',
} as const;
export type PortforwardIssueCode = keyof typeof PORTFORWARD_MESSAGES;
/** Every code a port-forwarding refusal can carry: the module's own and the generic ones. */
export type PortforwardErrorCode = PortforwardIssueCode | GenericIssueCode;
/** The module's issue vocabulary (the route registry answers refusals with it). */
export const portforwardIssues = issueKit(PORTFORWARD_MESSAGES);

/** Whole-value secrets of the slice: read as SECRET_MASK, kept when sent back so. */
export const PORTFORWARD_SECRETS = ['rules.*.tlsKey'] as const;

const L = PORTFORWARD_LIMITS;
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);

const unbracket = (s: string) => (s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s);

const settingsShape = {
  /** The module switch (run by the supervisor): off, no rule listens. */
  ...moduleSwitchShape(false),
  ruleLimit: int(L.ruleLimit),
  maxTcpConnections: int(L.maxTcpConnections),
  maxUdpSessions: int(L.maxUdpSessions),
  /** TCP connections + UDP sessions from one client address over all rules (0 = no limit). */
  perIpMaxConnections: int(L.perIpMaxConnections),
  /** Speed cap of every single connection or session, each direction, bytes/s (0 = none). */
  connectionSpeedLimit: int(L.speedLimit),
  /** Time to reach a target before the next target address is tried. */
  connectTimeoutMs: int(L.connectTimeoutMs),
};

const ruleShape = {
  name: z.string().trim().max(L.name.max).default(''),
  enabled: z.boolean().default(true),
  forwardTypes: z
    .array(z.enum(FORWARD_TYPES))
    .min(1, 'typesRequired')
    .max(6)
    .default(() => [...DEFAULT_FORWARD_TYPES]),
  listenAddress: z
    .string()
    .trim()
    .transform(unbracket)
    .refine((s) => s === '' || isIp(s), 'listenAddressInvalid')
    .default(''),
  listenPorts: z.string().trim().min(1, 'listenPortsRequired').max(2000),
  targetAddresses: z
    .array(z.string().trim().transform(unbracket).refine(isTargetAddress, 'targetAddressInvalid'))
    .min(1, 'targetAddressRequired')
    .max(L.targetAddresses.max),
  targetPorts: z.string().trim().min(1, 'targetPortsRequired').max(2000),
  /** Live TCP connections over all ports of the rule. */
  maxTcpConnections: int(L.ruleMaxTcpConnections),
  maxUdpSessions: int(L.ruleMaxUdpSessions),
  /** TCP connections + UDP sessions of one client address on this rule (0 = no limit). */
  perIpMaxConnections: int(L.rulePerIpMaxConnections),
  /** A relayed TCP connection idle this long either way is closed (0 = never). */
  tcpIdleTimeoutMs: int(L.tcpIdleTimeoutMs),
  /** A UDP session with no datagram either way for this long is closed. */
  udpTimeoutMs: int(L.udpTimeoutMs),
  /** Largest datagram relayed; larger ones are dropped and logged. */
  udpPacketSize: int(L.udpPacketSize),
  /** Client → target, bytes/s over the whole rule (0 = none). */
  speedLimitIn: int(L.speedLimit),
  /** Target → client, bytes/s over the whole rule (0 = none). */
  speedLimitOut: int(L.speedLimit),
  /** terminate: accept TLS and forward plain; originate: accept plain and connect to a TLS target. */
  tlsMode: z.enum(TLS_MODES).default('none'),
  /** PEM pair for `terminate`; both empty = the admin's self-signed certificate. */
  tlsCert: z.string().max(65536).default(''),
  tlsKey: z.string().max(65536).default(''),
  /** `originate`: extra trusted CA (PEM); empty = the system CAs. */
  tlsCa: z.string().max(65536).default(''),
  /** `originate`: SNI and the name to verify; empty = the target host name. */
  tlsServerName: z.string().trim().max(253).default(''),
  tlsSkipVerify: z.boolean().default(false),
  accessMode: z.enum(ACCESS_MODES).default('off'),
  accessList: z.array(z.string().trim().refine(isCidrOrIp, 'accessListInvalid')).max(L.accessList.max).default([]),
  logLevel: int(L.logLevel),
  logCapacity: int(L.logCapacity),
  logShowLatest: int(L.logShowLatest),
  logToConsole: z.boolean().default(false),
};

type RuleFields = z.infer<z.ZodObject<typeof ruleShape>>;

/** Checks between fields of one rule; messages are codes. */
function checkRule(r: RuleFields, ctx: z.RefinementCtx): void {
  const add = (path: string, message: PortforwardIssueCode, params?: Record<string, unknown>) =>
    ctx.addIssue({ code: 'custom', path: [path], message, params });
  const types = new Set<ForwardType>(r.forwardTypes);
  if (
    (types.has('tcp') && (types.has('tcp4') || types.has('tcp6'))) ||
    (types.has('udp') && (types.has('udp4') || types.has('udp6')))
  )
    add('forwardTypes', 'typesOverlap');
  if (r.listenAddress !== '' && [...types].some((t) => !bindFor(t, r.listenAddress)))
    add('listenAddress', 'listenAddressFamily');
  const listen = parsePortList(r.listenPorts);
  if (!listen.ok)
    add('listenPorts', listen.code === 'portsRequired' ? 'listenPortsRequired' : listen.code, { token: listen.token });
  const target = parsePortList(r.targetPorts);
  if (!target.ok)
    add('targetPorts', target.code === 'portsRequired' ? 'targetPortsRequired' : target.code, { token: target.token });
  else if (listen.ok && !pairPorts(r.listenPorts, r.targetPorts))
    add('targetPorts', 'targetPortsCount', { count: listen.ports.length });
  if (r.tlsMode !== 'none' && ![...types].some((t) => t.startsWith('tcp'))) add('tlsMode', 'tlsNeedsTcp');
  if (r.tlsMode === 'terminate') {
    if (r.tlsCert.trim() && !r.tlsKey.trim()) add('tlsKey', 'tlsKeyRequired');
    if (!r.tlsCert.trim() && r.tlsKey.trim()) add('tlsCert', 'tlsCertRequired');
  }
  if (r.accessMode === 'whitelist' && r.accessList.length === 0) add('accessList', 'accessListRequired');
  // Forwarding a port to itself would loop until the limits stop it.
  const loop = findForwardLoop(r);
  if (loop) add('targetPorts', 'forwardLoop', { port: loop.port });
}

const RULE_KEY = /^[A-Za-z0-9]{1,32}$/;
/** A rule as the browser sends it (no key: the server assigns it). */
export const portforwardRuleInputSchema = z.object(ruleShape).superRefine(checkRule);
/** A stored rule. */
export const portforwardRuleSchema = z.object({ key: z.string().regex(RULE_KEY), ...ruleShape }).superRefine(checkRule);
/** Global settings, without the rules. */
export const portforwardSettingsSchema = z.object(settingsShape);

/** A shape's fields without their defaults, each optional: a body that changes only what it names. */
type PatchShape<T extends z.ZodRawShape> = {
  [K in keyof T]: z.ZodOptional<T[K] extends z.ZodDefault<infer I extends z.ZodType> ? I : T[K]>;
};
function patchShape<T extends z.ZodRawShape>(shape: T): PatchShape<T> {
  return Object.fromEntries(
    Object.entries(shape).map(([k, v]) => [k, z.optional(v instanceof z.ZodDefault ? v.unwrap() : v)]),
  ) as PatchShape<T>;
}

/** PUT /api/portforward/settings: any subset of the global settings (the switch included). */
export const portforwardSettingsPatchSchema = z.object(patchShape(settingsShape));

/** The module's config slice; `{}` parses to the module switched off with no rules. */
export const portforwardConfigSchema = z.object({
  ...settingsShape,
  rules: z.array(portforwardRuleSchema).max(L.ruleLimit.max).default([]),
});

export type PortforwardRuleInput = z.input<typeof portforwardRuleInputSchema>;
export type PortforwardRule = z.infer<typeof portforwardRuleSchema>;
export type PortforwardSettings = z.infer<typeof portforwardSettingsSchema>;
export type PortforwardSettingsPatch = z.infer<typeof portforwardSettingsPatchSchema>;
export type PortforwardConfig = z.infer<typeof portforwardConfigSchema>;

/** GET /api/portforward/rules/:key/logs — `order` newest (default) or oldest first. */
export const portforwardLogsQuerySchema = logPageQuerySchema;

// ---- words the runtime writes: reasons and log lines (code + params + English) -----------------

/** Why a port could not be bound (core/net/bindPort.ts names them); port reasons and log lines. */
export const BIND_REASON_CODES = ['portInUse', 'portPermission', 'addressMissing', 'bindFailed'] as const;

/** States of a rule or the module, English; the UI translates `portforward.reason_<code>`. */
export const PORTFORWARD_REASONS = {
  portsFailed: '{failed} of {total} port(s) not running',
  tlsPairInvalid: 'the certificate and key of the rule cannot be used: {detail}',
  noCertificate: 'TLS without a pasted certificate is served from the certificate store, which has none',
  portsNotRunning: '{count} port(s) or rule(s) could not be started; see the port-forwarding list',
} as const;
export type PortforwardReasonCode = keyof typeof PORTFORWARD_REASONS | (typeof BIND_REASON_CODES)[number];

/**
 * Log lines of a rule, English (`{name}` from the params); the UI translates
 * `portforward.log_<code>`. `id` is the port (`tcp4@:8080`), `client` the client's address and port.
 * Bind failures are logged with their bind code (BIND_REASON_CODES) and the core's English text.
 */
export const PORTFORWARD_LOG = {
  listening: '{id}: listening now',
  acceptError: '{id}: {detail}',
  accessRevoked: '{id}: closing a connection from {ip}: no longer allowed by the access list',
  notWhitelisted: '{id} refused {client}: the whitelist does not allow it',
  blacklisted: '{id} refused {client}: the blacklist does not allow it',
  globalTcpLimit: '{id} refused {client}: global limit of {cap} TCP connections',
  globalUdpLimit: '{id} refused {client}: global limit of {cap} UDP sessions',
  globalPerIpLimit: '{id} refused {client}: global limit of {cap} connections per client address',
  ruleTcpLimit: '{id} refused {client}: rule limit of {cap} TCP connections',
  ruleUdpLimit: '{id} refused {client}: rule limit of {cap} UDP sessions',
  rulePerIpLimit: '{id} refused {client}: rule limit of {cap} connections per client address',
  tlsHandshakeFailed: '{id} {client}: TLS with the client failed: {detail}',
  noCertificate: '{id} {client}: the certificate store has no certificate for TLS, closing',
  idleClosed: '{id} {client}: idle for {seconds} s, closing',
  noTarget: '{id} {client}: no target answered ({targets}), closing',
  targetFailed: '{id} {client}: target {target} failed: {detail}',
  opened: '{id} {client} → {target} open',
  clientError: '{id} {client}: client error {detail}',
  targetError: '{id} {client}: target error {detail}',
  closed: '{id} {client} closed after {seconds} s, in {in}, out {out}',
  sessionOpened: '{id} {client} → {target} session open',
  sessionIdle: '{id} {client} session closed: idle for {ms} ms',
  sessionRevoked: '{id} {client} session closed: no longer allowed by the access list',
  sessionPortClosed: '{id} {client} session closed: port closed',
  sessionTargetError: '{id} {client} session closed: target {target}: {detail}',
  sessionNoTarget: '{id} {client} session closed: no target',
  oversizeFromClient: '{id} {client}: dropped a {bytes}-byte datagram from the client, larger than {max}',
  oversizeFromTarget: '{id} {client}: dropped a {bytes}-byte datagram from the target, larger than {max}',
  droppedIn: '{id} {client}: datagram dropped by the in speed limit',
  droppedOut: '{id} {client}: datagram dropped by the out speed limit',
} as const;
export type PortforwardLogCode = keyof typeof PORTFORWARD_LOG | (typeof BIND_REASON_CODES)[number];

// ---- views: what the GET routes answer -------------------------------------------------------

export type PortforwardRunState = 'running' | 'starting' | 'error' | 'stopped';

/** One (type × listen port) of a rule, live. Rates are bytes/s over the last second. */
export interface PortforwardProxyStatus {
  id: string;
  protocol: 'tcp' | 'udp';
  type: ForwardType;
  listen: string;
  port: number;
  targetPort: number;
  state: PortforwardRunState;
  /** Why the port is not running (a bind failure: `portInUse` …), for the UI. */
  reason?: Coded;
  /** The same in English. */
  error?: string;
  connections: number;
  sessions: number;
  bytesIn: number;
  bytesOut: number;
  rateIn: number;
  rateOut: number;
  /** Connections/sessions accepted and refused (limits, access list) since the port opened. */
  accepted: number;
  refused: number;
}

/** A line of a rule's log: code + params for the UI, English `text`. */
export type PortforwardLogEntry = LogEntryView;

/** `disabled`: the rule is off; `stopped`: the module is off; `error`: at least one port failed. */
export type PortforwardRuleState = 'running' | 'error' | 'stopped' | 'disabled';

/** A rule as the API shows it: secrets masked (`tlsKey` reads SECRET_MASK when set), live figures. */
export interface PortforwardRuleView extends PortforwardRule {
  state: PortforwardRuleState;
  /** Why the rule is in error (`portsFailed`, `noCertificate` …), for the UI. */
  reason?: Coded;
  /** The same in English. */
  error?: string;
  connections: number;
  sessions: number;
  bytesIn: number;
  bytesOut: number;
  rateIn: number;
  rateOut: number;
  proxies: PortforwardProxyStatus[];
  /** The newest `logShowLatest` log lines, newest first. */
  lastLogs: PortforwardLogEntry[];
}

export interface PortforwardSummary {
  /** The module switch. */
  enabled: boolean;
  rules: number;
  proxies: number;
  proxyLimit: number;
  tcpConnections: number;
  maxTcpConnections: number;
  udpSessions: number;
  maxUdpSessions: number;
  bytesIn: number;
  bytesOut: number;
  rateIn: number;
  rateOut: number;
}

/** GET /api/portforward/rules */
export interface PortforwardListResponse {
  ret: 0;
  summary: PortforwardSummary;
  list: PortforwardRuleView[];
}
/** GET /api/portforward/rules/:key, and every rule change. */
export interface PortforwardRuleResponse {
  ret: 0;
  rule: PortforwardRuleView;
}
/** POST /api/portforward/rules */
export interface PortforwardRuleAddedResponse extends PortforwardRuleResponse {
  key: string;
}
/** GET /api/portforward/rules/:key/logs */
export interface PortforwardLogsResponse {
  ret: 0;
  total: number;
  page: number;
  pageSize: number;
  order: 'newest' | 'oldest';
  logs: PortforwardLogEntry[];
}
/** GET and PUT /api/portforward/settings */
export interface PortforwardSettingsResponse {
  ret: 0;
  settings: PortforwardSettings;
  summary: PortforwardSummary;
}
