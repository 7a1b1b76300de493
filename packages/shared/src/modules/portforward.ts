// The port-forwarding module (`portforward`): config slice, rule schema, request and response
// shapes. Validation messages are stable codes (`PortforwardErrorCode`) that the web translates
// under `portforward.err.<code>`; the server answers them as `{ret, msg, field, code, params}`.
import { z } from 'zod';
import { isCidrOrIp, isIp } from '../net.js';
import { classifyIssue, describeGenericIssue, type FieldIssue, GENERIC_ISSUE_MESSAGES } from './fieldIssue.js';
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

/** English text of each validation code; the web has its own translations under the same keys. */
export const PORTFORWARD_MESSAGES = {
  typesRequired: 'choose at least one forwarding type',
  typesOverlap: 'tcp already covers tcp4 and tcp6 (and udp covers udp4 and udp6)',
  listenAddressInvalid: 'invalid listening address format',
  listenAddressFamily: 'this listening address does not fit the IPv4/IPv6 forwarding type',
  portsRequired: 'the port cannot be empty',
  listenPortsRequired: 'listening port cannot be empty',
  targetPortsRequired: 'target port cannot be empty',
  portListInvalid: 'ports are a comma list of 1-65535 and ranges a-b with a < b',
  portListDuplicate: 'a port is listed twice',
  targetPortsCount: 'give one target port, or as many target ports as listening ports',
  targetAddressRequired: 'target address cannot be empty',
  targetAddressInvalid: 'not an IP address or host name',
  forwardLoop: 'the target is this rule’s own listening port',
  accessListInvalid: 'not an IP address or CIDR',
  accessListRequired: 'a whitelist needs at least one address',
  tlsNeedsTcp: 'TLS options need a TCP forwarding type',
  tlsKeyRequired: 'a certificate needs its private key',
  tlsCertRequired: 'a private key needs its certificate',
  tlsPairInvalid: 'the certificate and key are not a valid PEM pair',
  tlsCaInvalid: 'the CA certificate is not valid PEM',
  ruleLimitExceeded: 'too many proxies (forward types × ports over all rules)',
  portConflict: 'this port is already used by another rule',
  ruleNotFound: 'no such rule',
  ...GENERIC_ISSUE_MESSAGES,
} as const;
export type PortforwardErrorCode = keyof typeof PORTFORWARD_MESSAGES;

const L = PORTFORWARD_LIMITS;
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);

const HOST_NAME =
  /^(?=.{1,253}\.?$)[a-zA-Z0-9_](?:[a-zA-Z0-9_-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9_](?:[a-zA-Z0-9_-]{0,61}[a-zA-Z0-9])?)*\.?$/;
/** IPv4, IPv6 (brackets allowed and removed) or a DNS host name. */
export const isTargetAddress = (s: string): boolean => isIp(s) || (HOST_NAME.test(s) && !/^[\d.]+$/.test(s));
const unbracket = (s: string) => (s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s);

const settingsShape = {
  /** Module switch: off stops every listener. */
  enabled: z.boolean().default(false),
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
  const add = (path: string, message: PortforwardErrorCode, params?: Record<string, unknown>) =>
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
/** Global settings (PUT /api/portforward/settings), without the rules. */
export const portforwardSettingsSchema = z.object(settingsShape);
/**
 * Rules saved before a rule had a per-address cap by default (it was 0, no cap) and an idle
 * time-out: such a rule has no `tcpIdleTimeoutMs`, and gets the default cap new rules get, so an
 * upgrade does not leave one address able to hold every slot of an old rule. A cap of 0 chosen
 * since then (the rule has `tcpIdleTimeoutMs`) stays 0.
 */
function capRulesSavedBeforeDefaults(slice: unknown): unknown {
  if (!slice || typeof slice !== 'object' || !Array.isArray((slice as { rules?: unknown }).rules)) return slice;
  const rules = (slice as { rules: unknown[] }).rules.map((r) =>
    r &&
    typeof r === 'object' &&
    !('tcpIdleTimeoutMs' in r) &&
    (r as { perIpMaxConnections?: unknown }).perIpMaxConnections === 0
      ? { ...r, perIpMaxConnections: L.rulePerIpMaxConnections.default }
      : r,
  );
  return { ...slice, rules };
}

/** The module's config slice; `{}` parses to the module switched off with no rules. */
export const portforwardConfigSchema = z.preprocess(
  capRulesSavedBeforeDefaults,
  z.object({
    ...settingsShape,
    rules: z.array(portforwardRuleSchema).max(L.ruleLimit.max).default([]),
  }),
);

export type PortforwardRuleInput = z.input<typeof portforwardRuleInputSchema>;
export type PortforwardRule = z.infer<typeof portforwardRuleSchema>;
export type PortforwardSettings = z.infer<typeof portforwardSettingsSchema>;
export type PortforwardConfig = z.infer<typeof portforwardConfigSchema>;

/** PUT /api/portforward/rules/:key/enable */
export const portforwardEnableSchema = z.object({ enabled: z.boolean() });
/** GET /api/portforward/rules/:key/logs — `order` newest (default) or oldest first. */
export const portforwardLogsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
  order: z.enum(['newest', 'oldest']).default('newest'),
});

/** A validation problem as the API answers it and the form shows it. */
export type PortforwardIssue = FieldIssue<PortforwardErrorCode>;

/** Turns a zod issue of these schemas into field + stable code + English text. */
export function portforwardIssue(issue: z.core.$ZodIssue): PortforwardIssue {
  const c = classifyIssue(issue, PORTFORWARD_MESSAGES) as Omit<PortforwardIssue, 'msg'>;
  return { ...c, msg: describePortforwardCode(c.code, c.params) };
}

/** English message for a code, with its numbers filled in. */
export function describePortforwardCode(code: PortforwardErrorCode, params: Record<string, unknown> = {}): string {
  const base: string = PORTFORWARD_MESSAGES[code];
  if (code === 'ruleLimitExceeded') return `${base}: ${params.count} of at most ${params.limit}`;
  if (code === 'portConflict') return `${params.protocol} port ${params.port} is already used by rule ${params.rule}`;
  if ((code === 'portListInvalid' || code === 'portListDuplicate') && params.token) return `${base} (${params.token})`;
  return describeGenericIssue(code, params, base);
}

// ---- responses -------------------------------------------------------------------------------

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
  /** Why the port is not running (bind failure …). */
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

export interface PortforwardLogEntry {
  /** Increasing per rule; lets a view fetch only what is new. */
  seq: number;
  /** ISO 8601, UTC. */
  time: string;
  level: PortforwardLogLevel;
  text: string;
}

/** `disabled`: the rule is off; `stopped`: the module is off; `error`: at least one port failed. */
export type PortforwardRuleState = 'running' | 'error' | 'stopped' | 'disabled';

/** A rule as the API shows it: secrets masked (`tlsKey` empty, `tlsKeySet` tells), live figures. */
export interface PortforwardRuleView extends PortforwardRule {
  tlsKeySet: boolean;
  state: PortforwardRuleState;
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

export interface PortforwardListResponse {
  ret: 0;
  summary: PortforwardSummary;
  list: PortforwardRuleView[];
}
export interface PortforwardRuleResponse {
  ret: 0;
  rule: PortforwardRuleView;
}
export interface PortforwardLogsResponse {
  ret: 0;
  total: number;
  page: number;
  pageSize: number;
  order: 'newest' | 'oldest';
  logs: PortforwardLogEntry[];
}
export interface PortforwardSettingsResponse {
  ret: 0;
  settings: PortforwardSettings;
  summary: PortforwardSummary;
}
/** Error answer of the port-forwarding calls. */
export interface PortforwardErrorResponse {
  ret: number;
  msg: string;
  field?: string;
  code?: PortforwardErrorCode;
  params?: Record<string, unknown>;
}

/** A new rule as the add dialog starts it: dual-stack TCP (`DEFAULT_FORWARD_TYPES`). */
export function defaultPortforwardRule(): PortforwardRuleInput {
  return { forwardTypes: [...DEFAULT_FORWARD_TYPES], listenPorts: '', targetAddresses: [''], targetPorts: '' };
}
