// The STUN module's shared half: config schema, issue codes, reasons, log lines, API bodies and
// views. A rule keeps a NAT mapping open from one local port (per protocol, TCP and/or UDP, IPv4)
// by talking STUN from that port, learns the public address, forwards what arrives to a target
// and tells scripts, webhooks and DDNS when the public address changes.
import { z } from 'zod';
import type { Coded, LogEntryView } from '../contract/coded.js';
import { type LogPageResponse, logPageQuerySchema } from '../contract/logPage.js';
import { moduleSwitchShape } from '../contract/switch.js';
import {
  WEBHOOK_MESSAGES,
  type WebhookCallView,
  type WebhookTestResponse,
  webhookSchemas,
} from '../contract/webhook.js';
import { isHttpUrl, isIpv4, isTargetAddress } from '../net.js';
import { type GenericIssueCode, issueKit } from './fieldIssue.js';

export const STUN_LIMITS = {
  /** Seconds between keep-alive probes and STUN re-checks of a mapping. */
  heartbeatSec: { min: 5, max: 3600, default: 25 },
  /** First pause before a lost mapping is opened again; it doubles while it fails, up to retryMaxSec. */
  retrySec: { min: 1, max: 3600, default: 10 },
  retryMaxSec: 300,
  /** Time to wait for a STUN answer (UDP: the RFC 8489 retransmissions stop there) or a TCP connect. */
  timeoutMs: { min: 500, max: 39_500, default: 5000 },
  /** UPnP / NAT-PMP lease, renewed at half time (0 = ask for a permanent mapping). */
  leaseSec: { min: 0, max: 604_800, default: 3600 },
  maxConnections: { min: 1, max: 16384, default: 256 },
  perIpMaxConnections: { min: 0, max: 16384, default: 64 },
  udpTimeoutMs: { min: 1000, max: 3_600_000, default: 60_000 },
  /** A relayed TCP connection with no byte either way for this long is closed; 0 = never. */
  tcpIdleTimeoutMs: { min: 0, max: 86_400_000, default: 1_800_000 },
  servers: { max: 32 },
  logLevel: { min: 2, max: 6, default: 4 },
  logCapacity: { min: 0, max: 102400, default: 1024 },
  /** Spec §5: the frontend log count of a STUN rule is 1–64. */
  logShowLatest: { min: 1, max: 64, default: 16 },
  name: { max: 64 },
  script: { max: 4096 },
  ruleLimit: { max: 256 },
} as const;

/**
 * The STUN servers a new install uses (editable in the global settings). Public servers that
 * answer Binding over UDP, and the ones marked in STUN_TCP_CAPABLE also over TCP (needed for a TCP
 * mapping); a rule tries them in order and moves on when one fails.
 */
export const DEFAULT_STUN_SERVERS: readonly string[] = [
  'stun.miwifi.com:3478',
  'stun.chat.bilibili.com:3478',
  'turn.cloudflare.com:3478',
  'fwa.lifesizecloud.com:3478',
  'stun.nextcloud.com:443',
  'stun.l.google.com:19302',
];

/** Where a TCP mapping keeps a connection alive: an HTTP server that honours keep-alive (as Natter and natmap do). */
export const DEFAULT_KEEPALIVE_URL = 'http://www.baidu.com/';

export const STUN_PROTOCOLS = ['tcp', 'udp'] as const;
export type StunProtocol = (typeof STUN_PROTOCOLS)[number];
/** How the rule's sockets leave the box: from an address (any when empty) or an interface. */
export const CHANNEL_MODES = ['ip', 'interface'] as const;
/** NAT-PMP (RFC 6886), PCP (RFC 6887), or PCP falling back to NAT-PMP. */
export const NATPMP_METHODS = ['auto', 'natpmp', 'pcp'] as const;

/**
 * Issue codes (the zod messages) with their English text; the UI translates `stun.err_<code>`.
 * zod's own checks answer the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid).
 */
export const STUN_MESSAGES = {
  nameRequired: 'rule name cannot be empty',
  nameTaken: 'rule name must be unique: another rule is called {name}',
  protocolsRequired: 'choose TCP, UDP or both',
  channelIpInvalid: 'not an IPv4 address of this box (empty = any)',
  channelInterfaceRequired: 'choose the network interface to use',
  channelInterfaceInvalid: 'not an interface name',
  targetAddressRequired: 'target address cannot be empty',
  targetAddressInvalid: 'not an IP address or host name',
  serverInvalid: 'a STUN server is host or host:port, IPv4 or a name ({entry})',
  keepAliveUrlInvalid: 'the keep-alive address is an http:// URL',
  gatewayInvalid: 'a gateway is an IPv4 address or the http:// URL of its UPnP description',
  ddnsTaskNotFound: 'no DDNS task with this key',
  localPortTaken: '{protocol} local port {port} is already used by rule {rule}',
  ruleNotFound: 'no such rule',
  moduleDisabled: 'STUN module disabled',
  natTypeFailed: 'NAT type detection failed: {detail}',
  gatewaysFailed: 'UPnP discovery failed: {detail}',
  // The webhook's codes (core webhook kit), so a refused webhook field keeps its code; the browser
  // reads them as webhook.err_<code>.
  ...WEBHOOK_MESSAGES,
} as const;
export type StunIssueCode = keyof typeof STUN_MESSAGES;
export type StunErrorCode = StunIssueCode | GenericIssueCode;
export const stunIssues = issueKit(STUN_MESSAGES);

const L = STUN_LIMITS;
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);

/** `host` or `host:port`, IPv4 literal or a DNS name (IPv6 STUN is not used: the mappings are IPv4). */
export function parseStunServer(entry: string): { host: string; port: number } | undefined {
  const m = /^([^:\s]+)(?::(\d{1,5}))?$/.exec(entry.trim());
  if (!m) return undefined;
  const host = m[1] as string;
  const port = m[2] === undefined ? 3478 : Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  if (!isIpv4(host) && !isTargetAddress(host)) return undefined;
  return { host, port };
}

const serverList = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(260)
      .superRefine((s, ctx) => {
        if (!parseStunServer(s)) ctx.addIssue({ code: 'custom', message: 'serverInvalid', params: { entry: s } });
      }),
  )
  .max(L.servers.max);

const gateway = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => s === '' || isIpv4(s) || isHttpUrl(s), 'gatewayInvalid')
  .default('');

/** The webhook: the same fields, template, test button and history as DDNS webhooks (core). */
export const stunWebhook = webhookSchemas();
const webhook = stunWebhook.schema.prefault({});

const settingsShape = {
  /** The module switch (run by the supervisor); off by default: a rule opens a port to the internet. */
  ...moduleSwitchShape(false),
  /** Used by every rule whose own list is empty; tried in order. */
  stunServers: serverList.default(() => [...DEFAULT_STUN_SERVERS]),
  /** HTTP server a TCP mapping keeps a connection to; empty = keep the STUN connection itself open. */
  keepAliveUrl: z
    .string()
    .trim()
    .max(2048)
    .refine((s) => s === '' || (isHttpUrl(s) && s.startsWith('http://')), 'keepAliveUrlInvalid')
    .default(DEFAULT_KEEPALIVE_URL),
  /** Defaults of rules that leave theirs at 0. */
  heartbeatSec: int(L.heartbeatSec),
  retrySec: int(L.retrySec),
  /** Called for every rule whose own webhook is off, when its public address changes. */
  webhook,
};

const ruleShape = {
  name: z.string().trim().min(1, 'nameRequired').max(L.name.max),
  enabled: z.boolean().default(true),
  /** Penetration type: a mapping per protocol, both from the same local port number. */
  protocols: z
    .array(z.enum(STUN_PROTOCOLS))
    .min(1, 'protocolsRequired')
    .max(2)
    .default((): StunProtocol[] => ['tcp'])
    .transform((p) => [...new Set(p)]),
  /** Open the local port in the host firewall while the rule runs (iptables, as the web service does). */
  autoWhitelist: z.boolean().default(false),
  channelMode: z.enum(CHANNEL_MODES).default('ip'),
  /** `ip` mode: the local IPv4 address to send from ('' = any). */
  channelIp: z
    .string()
    .trim()
    .refine((s) => s === '' || isIpv4(s), 'channelIpInvalid')
    .default(''),
  /** `interface` mode: the interface (its first IPv4 address, and SO_BINDTODEVICE for TCP). */
  channelInterface: z
    .string()
    .trim()
    .max(15)
    .refine((s) => s === '' || /^[A-Za-z0-9_.:@-]+$/.test(s), 'channelInterfaceInvalid')
    .default(''),
  /** 0 = a free port picked at start, kept while the rule runs. */
  localPort: z.number().int().min(0).max(65535).default(0),
  /** Ask the router for a port mapping of the local port too (UPnP IGD). */
  upnp: z.boolean().default(false),
  /** '' = discovered by SSDP; else the gateway's IPv4 address or description URL. */
  upnpGateway: gateway,
  natpmp: z.boolean().default(false),
  natpmpMethod: z.enum(NATPMP_METHODS).default('auto'),
  /** '' = the default route's gateway. */
  natpmpGateway: gateway,
  leaseSec: int(L.leaseSec),
  /** Only keep the mapping and report it; the kernel or the router forwards the traffic. */
  disableForwarding: z.boolean().default(false),
  targetAddress: z
    .string()
    .trim()
    .max(253)
    .min(1, 'targetAddressRequired')
    .refine(isTargetAddress, 'targetAddressInvalid'),
  targetPort: z.number().int().min(1).max(65535),
  maxConnections: int(L.maxConnections),
  perIpMaxConnections: int(L.perIpMaxConnections),
  udpTimeoutMs: int(L.udpTimeoutMs),
  /** A relayed TCP connection idle this long either way is closed (0 = never). */
  tcpIdleTimeoutMs: int(L.tcpIdleTimeoutMs),
  /**
   * Shell command run when the public address changes. Environment: LUCKY_STUN_RULE,
   * LUCKY_STUN_PROTOCOL, LUCKY_STUN_INNER_IP, LUCKY_STUN_INNER_PORT, LUCKY_STUN_OUTER_IP,
   * LUCKY_STUN_OUTER_PORT; arguments: outer ip, outer port, protocol, inner port, inner ip.
   */
  script: z.string().max(L.script.max).default(''),
  webhook,
  /** A DDNS task synced at once with the new public address ('' = none). */
  ddnsTask: z.string().trim().max(32).default(''),
  /** Empty = the global list. */
  stunServers: serverList.default([]),
  timeoutMs: int(L.timeoutMs),
  /** 0 = the global default. */
  heartbeatSec: z.number().int().min(0).max(L.heartbeatSec.max).default(0),
  retrySec: z.number().int().min(0).max(L.retrySec.max).default(0),
  logLevel: int(L.logLevel),
  logCapacity: int(L.logCapacity),
  logShowLatest: int(L.logShowLatest),
};

type RuleFields = z.infer<z.ZodObject<typeof ruleShape>>;

function checkRule(r: RuleFields, ctx: z.RefinementCtx): void {
  if (r.channelMode === 'interface' && r.channelInterface === '')
    ctx.addIssue({ code: 'custom', path: ['channelInterface'], message: 'channelInterfaceRequired' });
  if (r.heartbeatSec !== 0 && r.heartbeatSec < L.heartbeatSec.min)
    ctx.addIssue({
      code: 'too_small',
      origin: 'number',
      minimum: L.heartbeatSec.min,
      path: ['heartbeatSec'],
      message: 'tooSmall',
      input: r.heartbeatSec,
    });
}

const RULE_KEY = /^[A-Za-z0-9]{1,32}$/;
/** A rule as the browser sends it (the server assigns the key). */
export const stunRuleInputSchema = z.object(ruleShape).superRefine(checkRule);
export const stunRuleSchema = z.object({ key: z.string().regex(RULE_KEY), ...ruleShape }).superRefine(checkRule);
export const stunSettingsSchema = z.object(settingsShape);

/** PUT /api/stun/settings: any subset of the global settings (the switch included). */
export const stunSettingsPatchSchema = z.object({
  enabled: z.boolean().optional(),
  stunServers: serverList.optional(),
  keepAliveUrl: settingsShape.keepAliveUrl.unwrap().optional(),
  heartbeatSec: settingsShape.heartbeatSec.unwrap().optional(),
  retrySec: settingsShape.retrySec.unwrap().optional(),
  webhook: stunWebhook.schema.optional(),
});

/** The config slice; `{}` parses to the module switched off with no rules. */
export const stunConfigSchema = z
  .object({
    ...settingsShape,
    rules: z.array(stunRuleSchema).max(L.ruleLimit.max).default([]),
  })
  .superRefine((c, ctx) => {
    const seen = new Map<string, number>();
    c.rules.forEach((r, i) => {
      const name = r.name.toLowerCase();
      if (seen.has(name))
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'name'], message: 'nameTaken', params: { name: r.name } });
      seen.set(name, i);
    });
  });

/** Whole-value secrets of the slice: read as SECRET_MASK, kept when sent back so. */
export const STUN_SECRETS = ['webhook.proxy.password', 'rules.*.webhook.proxy.password'] as const;
/** Free text that may carry secrets in parts (tokens in URLs, headers, bodies). */
export const STUN_FREE_TEXT_SECRETS = [
  'webhook.url',
  'webhook.headers',
  'webhook.body',
  'rules.*.webhook.url',
  'rules.*.webhook.headers',
  'rules.*.webhook.body',
  'rules.*.script',
] as const;

export type StunRuleInput = z.input<typeof stunRuleInputSchema>;
export type StunRule = z.infer<typeof stunRuleSchema>;
export type StunSettings = z.infer<typeof stunSettingsSchema>;
export type StunSettingsPatch = z.infer<typeof stunSettingsPatchSchema>;
export type StunConfig = z.infer<typeof stunConfigSchema>;

/** GET /api/stun/rules/:key/logs */
export const stunLogsQuerySchema = logPageQuerySchema;

/** POST /api/stun/nat-type: detect the NAT on demand (no rule needed). */
export const stunNatTypeBodySchema = z.object({
  /** Empty = the global list. */
  stunServers: serverList.default([]),
  channelMode: ruleShape.channelMode,
  channelIp: ruleShape.channelIp,
  channelInterface: ruleShape.channelInterface,
  timeoutMs: ruleShape.timeoutMs,
});
export type StunNatTypeBody = z.input<typeof stunNatTypeBodySchema>;

/** POST /api/stun/webhook/test: the webhook as the dialog holds it, and its rule's key ('' = the global webhook). */
export const stunWebhookTestBodySchema = stunWebhook.testBodySchema;

// ---- words the server writes for the UI --------------------------------------------------------

/** States and reasons, English; the UI translates `stun.reason_<code>`. Spec §8 names the first five. */
export const STUN_REASONS = {
  moduleDisabled: 'STUN module disabled',
  channelBroken: 'penetration channel malfunction: {detail}',
  notPenetrated: 'not penetrated: {detail}',
  notObtained: 'not yet obtained',
  webhookCallError: 'webhook call error',
  allServersFailed: 'no STUN server answered: {detail}',
  serverFailed: '{server}: {detail}',
  nativeHelperMissing: 'TCP needs the native socket helper, which is not built: {detail}',
  channelAddressMissing: 'interface {interface} has no IPv4 address',
  channelInterfaceMissing: 'there is no interface {interface}',
  bindToDeviceDenied: 'binding to interface {interface} needs root (CAP_NET_RAW)',
  localPortBusy: 'local port {port} is in use by another program',
  keepAliveFailed: 'the keep-alive connection to {url} failed: {detail}',
  portMapFailed: '{method} port mapping failed: {detail}',
  portMapOk: '{method}: {externalAddress}:{externalPort} → local port {internalPort}',
  firewallFailed: 'the host firewall could not be opened: {detail}',
  rulesFailed: '{count} rule(s) have no working mapping; see the STUN list',
  ddnsSyncFailed: 'DDNS task {task}: {detail}',
  ddnsSynced: 'DDNS task {task} updated with {address}',
  scriptOk: 'the script ran: {output}',
  scriptFailed: 'the script failed: {detail}',
} as const;
export type StunReasonCode = keyof typeof STUN_REASONS;

/** Log lines of a rule, English; the UI translates `stun.log_<code>`. `proto` is tcp or udp. */
export const STUN_LOG = {
  starting: '{proto}: opening a mapping from local port {port}',
  mapped: '{proto}: public address {public} (local {local}, STUN server {server})',
  addressChanged: '{proto}: public address changed from {previous} to {public}',
  checkOk: '{proto}: mapping still {public} ({server}, {ms} ms)',
  serverFailed: '{proto}: STUN server {server} failed: {detail}',
  lost: '{proto}: mapping lost: {detail}; trying again in {seconds} s',
  recovered: '{proto}: mapping open again after {seconds} s',
  keepAliveFailed: '{proto}: keep-alive connection to {url} failed: {detail}',
  listening: '{proto}: listening on local port {port} for traffic through the mapping',
  listenFailed: '{proto}: cannot listen on local port {port}: {detail}',
  socketError: '{proto}: socket error on local port {port}: {detail}',
  opened: '{proto} {client} → {target} open',
  closed: '{proto} {client} closed after {seconds} s, in {in}, out {out}',
  idleClosed: '{proto} {client}: idle for {seconds} s, closing',
  targetFailed: '{proto} {client}: target {target} failed: {detail}',
  refused: '{proto} {client} refused: limit of {cap} connections',
  sessionOpened: '{proto} {client} → {target} session open',
  sessionClosed: '{proto} {client} session closed: {detail}',
  portMapOk: '{proto}: {method} mapping {externalAddress}:{externalPort} → local port {internalPort}, lease {lease} s',
  portMapFailed: '{proto}: {method} mapping failed: {detail}',
  portMapRemoved: '{proto}: {method} mapping removed',
  firewallOpened: 'host firewall opened for local port {port}',
  firewallFailed: 'host firewall not opened: {detail}',
  scriptRan: 'script finished with code {code}: {output}',
  scriptFailed: 'script failed: {detail}',
  webhookOk: 'webhook called: HTTP {status}',
  webhookFailed: 'webhook call error: {detail}',
  ddnsSynced: 'DDNS task {task} updated with {address}',
  ddnsFailed: 'DDNS task {task} not updated: {detail}',
  natType: 'NAT type: {verdict} (mapping {mapping}, filtering {filtering})',
  stopped: 'rule stopped',
} as const;
export type StunLogCode = keyof typeof STUN_LOG;

// ---- views: what the GET routes answer --------------------------------------------------------

/** starting: not yet obtained; open: mapped and checked; broken: lost, retrying; stopped. */
export const MAPPING_STATES = ['starting', 'open', 'broken', 'stopped'] as const;
export type StunMappingState = (typeof MAPPING_STATES)[number];

export interface StunPortMapView {
  method: 'upnp' | 'natpmp' | 'pcp';
  ok: boolean;
  externalAddress?: string;
  externalPort?: number;
  reason?: Coded;
  error?: string;
}

/** One protocol's mapping of a rule, live. */
export interface StunMappingView {
  protocol: StunProtocol;
  state: StunMappingState;
  /** When the state last changed (ms since the epoch). */
  since: number;
  /** Why it is not open (spec §8 texts: notObtained, channelBroken …). */
  reason?: Coded;
  error?: string;
  localAddress: string;
  localPort: number;
  /** `ip:port` as the STUN server saw it. */
  publicAddress?: string;
  /** The server that answered last. */
  server?: string;
  lastCheck?: number;
  /** Public address changes since the rule started. */
  changes: number;
  portMaps: StunPortMapView[];
  connections: number;
  bytesIn: number;
  bytesOut: number;
  rateIn: number;
  rateOut: number;
}

export const NAT_MAPPINGS = [
  'none',
  'endpointIndependent',
  'addressDependent',
  'addressPortDependent',
  'unknown',
] as const;
export const NAT_FILTERINGS = ['endpointIndependent', 'addressDependent', 'addressPortDependent', 'unknown'] as const;
export const NAT_VERDICTS = [
  'open',
  'fullCone',
  'restrictedCone',
  'portRestrictedCone',
  'symmetric',
  'blocked',
  'unsupportedServer',
] as const;
export type NatVerdict = (typeof NAT_VERDICTS)[number];

/** RFC 5780 behaviour discovery; `verdict` is the plain-words summary the UI shows. */
export interface StunNatTypeView {
  at: number;
  verdict: NatVerdict;
  mapping: (typeof NAT_MAPPINGS)[number];
  filtering: (typeof NAT_FILTERINGS)[number];
  tcpMapping?: (typeof NAT_MAPPINGS)[number];
  publicAddress?: string;
  server?: string;
  /** English detail; the UI shows `stun.verdict_<verdict>`. */
  detail: string;
}

/** running: every mapping open; error: one is not; stopped: the module is off; disabled: the rule is off. */
export type StunRuleState = 'running' | 'starting' | 'error' | 'stopped' | 'disabled';

export interface StunRuleView extends StunRule {
  state: StunRuleState;
  reason?: Coded;
  error?: string;
  mappings: StunMappingView[];
  natType?: StunNatTypeView;
  /** The last webhook/script/DDNS outcomes. */
  lastNotify?: { at: number; webhook?: Coded; script?: Coded; ddns?: Coded };
  /** The rule's recent webhook calls, newest first. */
  webhookHistory: WebhookCallView[];
  /** The newest `logShowLatest` log lines, newest first. */
  lastLogs: LogEntryView[];
}

export interface StunSummary {
  enabled: boolean;
  rules: number;
  open: number;
  broken: number;
}

/** GET /api/stun/rules */
export interface StunListResponse {
  ret: 0;
  summary: StunSummary;
  list: StunRuleView[];
}
/** GET /api/stun/rules/:key and every rule change. */
export interface StunRuleResponse {
  ret: 0;
  rule: StunRuleView;
}
export interface StunRuleAddedResponse extends StunRuleResponse {
  key: string;
}
/** GET and PUT /api/stun/settings (the webhook's secrets masked). */
export interface StunSettingsResponse {
  ret: 0;
  settings: StunSettings;
  summary: StunSummary;
}
/** GET /api/stun/rules/:key/logs */
export type StunLogsResponse = LogPageResponse;
/** POST /api/stun/nat-type and POST /api/stun/rules/:key/nat-type */
export interface StunNatTypeResponse {
  ret: 0;
  natType: StunNatTypeView;
}
/** GET /api/stun/gateways: UPnP gateways seen by SSDP (for the gateway picker). */
export interface StunGatewaysResponse {
  ret: 0;
  gateways: Array<{ location: string; name: string; externalAddress?: string }>;
}
/** GET /api/stun/ddns-tasks: the DDNS tasks a rule may update (key, name). */
export interface StunDdnsTasksResponse {
  ret: 0;
  tasks: Array<{ key: string; name: string }>;
}
/** POST /api/stun/webhook/test */
export type StunWebhookTestResponse = WebhookTestResponse;

export type StunLogEntry = LogEntryView;
