// The dynamic DNS module (`ddns`): config slice (the module switch, global settings, tasks), its
// issue codes, secret paths, request bodies and the views every GET answers. Field problems are
// the codes of DDNS_MESSAGES (`ddns.err_<code>` in the browser); what the runtime says about a
// task — domain statuses, IP errors, webhook results, task log lines — is code + params + English
// (DDNS_REASONS → `ddns.reason_<code>`, DDNS_LOG_MESSAGES → `ddns.log_<code>`).
import { z } from 'zod';
import { type CodedText, englishWithCauses, type LogEntryView } from '../contract/coded.js';
import { moduleSwitchShape } from '../contract/switch.js';
import {
  checkHeaderLines,
  checkSuccessStrings,
  HTTP_METHODS,
  headerLinesSchema,
  isTemplateUrl,
  PROXY_TYPES,
  proxySchema,
  successStringsSchema,
  templateBodySchema,
  WEBHOOK_FREE_TEXT_SECRETS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRETS,
  type WebhookCallView,
  type WebhookTestResponse,
  webhookSchemas,
} from '../contract/webhook.js';
import { isDnsName, isDnsServer, isHostPort, isHttpUrl, isIpv4, isIpv6, isMac } from '../net.js';
import {
  DDNS_PROVIDER_INFO,
  DDNS_PROVIDERS,
  type DdnsCredentialField,
  type DdnsProvider,
  type DdnsSyncStatus,
  TSIG_ALGORITHMS,
} from './ddnsConstants.js';
import { GENERIC_ISSUE_MESSAGES, issueKit } from './fieldIssue.js';
import { SECRET_MASK } from './secretText.js';

export * from './ddnsConstants.js';

export const DDNS_LIMITS = {
  firstCheckDelay: { min: 0, max: 3600, default: 0 },
  interval: { min: 30, max: 3600, default: 300 },
  forceInterval: { min: 60, max: 3600, default: 3600 },
  httpTimeout: { min: 3, max: 60, default: 20 },
  /** 0 = the provider's default. */
  ttl: { min: 0, max: 86400, default: 0 },
  tasks: { max: 1000 },
  domains: { max: 100 },
  urls: { max: 32 },
  dnsServers: { max: 32 },
  suffixes: { max: 500 },
  selectors: { max: 64 },
  name: { max: 64 },
  /** Histories kept per task and per domain (the webhook's: WEBHOOK_LIMITS.history). */
  history: { max: 10 },
  /** Lines of a task's log kept while the module runs. */
  logLines: { max: 100 },
} as const;

/** English text of each code; the web has its own translations under the same keys. */
export const DDNS_MESSAGES = {
  domainsRequired: 'the domain list must not be empty',
  domainInvalid: 'not a domain name (forms: name.example.com, sub:example.com, name.example.com?param=value)',
  urlsRequired: 'the interface URL list must not be empty',
  netInterfaceRequired: 'choose a network card',
  ipRegInvalid: 'not a valid IP selection rule (number, -number, wildcard with * or regular expression)',
  commandRequired: 'the command cannot be empty',
  odhcpdFileRequired: 'the odhcpd lease file cannot be empty',
  odhcpdSelectorRequired: 'give at least one MAC address or host name',
  macInvalid: 'not a MAC address',
  proxyAddressRequired: 'the proxy address must not be empty when a proxy is set',
  idRequired: 'this provider needs its ID / key',
  secretRequired: 'this provider needs its secret / token',
  serverRequired: 'this provider needs the server address',
  serverUrlInvalid: 'the PowerDNS API address is an http(s) URL',
  serverAddressInvalid: 'the DNS server is host or host:port',
  tsigSecretInvalid: 'the TSIG secret is base64',
  zoneInvalid: 'not a zone name',
  callbackMethodRequired: 'choose the callback method',
  callbackUrlRequired: 'the callback URL cannot be empty',
  dnsServerInvalid: 'a DNS server is an IP with an optional port (1.1.1.1, 1.1.1.1:53, [2606:4700::1111]:53)',
  suffixInvalid: 'a suffix is a domain ending such as com.cn',
  taskNotFound: 'no such task',
  serviceOff: 'the DDNS service is switched off',
  taskDisabled: 'the task is switched off',
  ipInvalid: 'not an IP address of this family',
  // The request templates' codes (webhooks, and the callback's URL, headers and success strings).
  ...WEBHOOK_MESSAGES,
  ...GENERIC_ISSUE_MESSAGES,
} as const;
export type DdnsErrorCode = keyof typeof DDNS_MESSAGES;

/** The module's issue vocabulary: the registry and the supervisor name refusals with it. */
export const ddnsIssues = issueKit(DDNS_MESSAGES);

/**
 * What the runtime says about a task, in English with `{name}` placeholders; the browser shows
 * `ddns.reason_<code>`. The first group are the spec's error topics (a domain status, an IP
 * error); the others say what went wrong in one step, where an address came from, or what a
 * status means for one record. Two params are never placeholders: `cause` (the reason or list
 * of reasons behind this one) and `detail` (text from outside the program: a provider's answer,
 * a system error, a command's output) follow the text, after ": ".
 */
export const DDNS_REASONS = {
  allUrlsFailed: 'all public-IP query interfaces failed, check the interfaces or the network',
  ipSelectNoMatch: 'IP selection does not match any IP',
  interfaceError: 'error getting the IP from the network card or interface',
  commandFailed: 'command execution error',
  odhcpdNoLease: 'no live IPv{family} lease of the chosen devices in the odhcpd file',
  odhcpdReadError: 'cannot read the odhcpd lease file {file}',
  unsupportedIpMethod: 'unsupported IP method {method}',
  unknownProvider: 'unknown DNS provider {provider}',
  domainInvalid: 'invalid domain line {line}',
  providerError: 'the DNS provider refused the change',
  // One step of getting the address.
  noUrls: 'no URL to ask',
  urlHttpStatus: '{url}: HTTP {status}',
  urlNoAddress: '{url}: no IPv{family} address in the answer',
  urlRedirects: '{url}: too many redirects',
  urlFailed: '{url}',
  interfaceMissing: 'network card {name} not found or it has no IPv{family} address',
  ipRuleInvalid: 'the IP selection rule {rule} is not valid',
  commandTimeout: 'no result within {seconds} s',
  commandExit: 'exit code {exitCode}',
  commandSignal: 'killed by {signal}',
  commandNoAddress: 'no IPv{family} address in the output',
  commandStartFailed: 'the command could not start',
  checkStopped: 'the check was stopped',
  // Where the address came from.
  fromUrl: '{url}',
  fromInterface: 'network card {name}',
  fromCommand: 'the command',
  fromOdhcpd: 'the odhcpd lease file',
  fromModule: 'the {module} module',
  // What a record's status means.
  recordHolds: '{fqdn} already holds {ip}',
  dnsAnswers: '{server} answers {ip}',
  providerHolds: "the provider's record already holds {ip}",
  recordCreated: 'created {type} {ip}',
  recordUpdated: 'updated {type} {ip}',
} as const;
export type DdnsReasonCode = keyof typeof DDNS_REASONS;

/** Lines of a task's log (`ddns.log_<code>`), same placeholders and `cause` / `detail` rule. */
export const DDNS_LOG_MESSAGES = {
  ipGot: 'IP {ip} (from {from})',
  ipChanged: 'IP {ip} (from {from}), was {prev}',
  ipFailed: 'getting the IP failed',
  dnsCheckFailed: '{fqdn}: DNS check failed, asking the provider',
  recordCreated: '{fqdn}: created {type} {ip}',
  recordUpdated: '{fqdn}: updated {type} {ip}',
  updateFailed: '{fqdn}: update failed',
  webhookFailed: 'webhook call failed after {attempts} attempts',
  checkFailed: 'check failed',
} as const;
export type DdnsLogCode = keyof typeof DDNS_LOG_MESSAGES;

/** A reason of this module with its English text. */
export function ddnsReason(code: DdnsReasonCode, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: englishWithCauses(DDNS_REASONS[code], params) };
}

/** A task log line: code, params and the English line. */
export function ddnsLogLine(code: DdnsLogCode, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: englishWithCauses(DDNS_LOG_MESSAGES[code], params) };
}

const L = DDNS_LIMITS;
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);
const str = (max = 2048) => z.string().trim().max(max).default('');
const lines = (max: number, each = 2048) => z.array(z.string().trim().max(each)).max(max).default([]);

/** The webhook's extra proxy type: `dns` = the task's provider proxy. */
export const DDNS_WEBHOOK_PROXY_TYPES = ['dns'] as const;
export const DDNS_IP_SOURCES = ['url', 'netInterface', 'command', 'odhcpd'] as const;
export const DDNS_RECORD_TYPES = ['A', 'AAAA'] as const;
export const DDNS_MODES = ['easy', 'customized'] as const;
/** Network of provider API calls: `auto` lets the system choose. */
export const DDNS_API_NETWORKS = ['auto', 'ipv4', 'ipv6'] as const;
const METHOD_OR_NONE = ['', ...HTTP_METHODS] as const;

// ---- field checks (also used by the form) --------------------------------------------------

/**
 * Syntax of one domain line: `name.example.com`, `sub:example.com` (explicit split; `@` or
 * empty sub = the apex), each optionally followed by `?key=value&…` provider options.
 */
export function isDomainLine(line: string): boolean {
  const q = line.indexOf('?');
  const host = (q >= 0 ? line.slice(0, q) : line).trim();
  if (host === '') return false;
  const colon = host.indexOf(':');
  if (colon < 0) return isDnsName(host) && host.includes('.');
  const sub = host.slice(0, colon).trim();
  const root = host.slice(colon + 1).trim();
  if (!isDnsName(root) || root.includes('*')) return false;
  return sub === '' || sub === '@' || isDnsName(sub);
}

/** The IP-selection rule of core/net/ipSelect: number, -number, wildcard, or a regular expression. */
export function isIpRule(rule: string): boolean {
  const r = rule.trim();
  if (r === '' || /^[+-]?\d+$/.test(r) || r.includes('*')) return true;
  try {
    new RegExp(r);
    return true;
  } catch {
    return false;
  }
}

const isBase64 = (s: string) => s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);

// ---- shapes --------------------------------------------------------------------------------

/** The webhook (core webhook machinery) with DDNS's proxy type `dns` and its own `callOnIpFail`. */
const webhook = webhookSchemas({
  proxyTypes: DDNS_WEBHOOK_PROXY_TYPES,
  fields: {
    /** Also call it when getting the IP failed (`#{ipAddr}` then says so). */
    callOnIpFail: z.boolean().default(false),
  },
});

export const ddnsWebhookSchema = webhook.schema;

const callbackSchema = z
  .object({
    /** The preset the dialog filled in (`DDNS_CALLBACK_PRESETS` id or `other`); informational. */
    preset: str(32),
    url: str(4096),
    method: z.enum(METHOD_OR_NONE).default(''),
    headers: headerLinesSchema,
    body: templateBodySchema,
    successStrings: successStringsSchema,
    disableSuccessCheck: z.boolean().default(false),
  })
  .prefault({});

const dnsSchema = z
  .object({
    provider: z.enum(DDNS_PROVIDERS).default('cloudflare'),
    id: str(512),
    secret: z.string().trim().max(4096).default(''),
    /** PowerDNS API URL or RFC 2136 server `host[:port]`. */
    server: str(512),
    /** Zone override for PowerDNS and RFC 2136 (otherwise found from the domain). */
    zone: str(253),
    tsigAlgorithm: z.enum(TSIG_ALGORITHMS).default('hmac-sha256'),
    callback: callbackSchema,
  })
  .prefault({});

const ipSourceSchema = z
  .object({
    type: z.enum(DDNS_IP_SOURCES).default('url'),
    /** Echo URLs tried in order until one answers an address of the task's family. */
    urls: lines(L.urls.max),
    netInterface: str(64),
    /** Picks one of several addresses (interface and odhcpd sources). */
    ipReg: str(512),
    /** Shell command whose output holds the address (pipes allowed). */
    command: z.string().max(4096).default(''),
    odhcpdFile: str(1024),
    odhcpdMacs: lines(L.selectors.max, 32),
    odhcpdHostnames: lines(L.selectors.max, 253),
  })
  .prefault({});

const taskShape = {
  /** May be blank. */
  name: str(L.name.max),
  enabled: z.boolean().default(true),
  /** Which fields the dialog shows; the server treats both alike. */
  mode: z.enum(DDNS_MODES).default('easy'),
  recordType: z.enum(DDNS_RECORD_TYPES).default('A'),
  dns: dnsSchema,
  /** One per line (see `isDomainLine`). */
  domains: z.array(z.string().trim().max(600)).max(L.domains.max).default([]),
  ipSource: ipSourceSchema,
  ttl: int(L.ttl),
  /** Seconds after which every record is checked with the provider again, changed IP or not. */
  forceInterval: int(L.forceInterval),
  /** Seconds per provider call, IP URL or command. */
  httpTimeout: int(L.httpTimeout),
  /** Ask DNS first and skip the provider when it already answers the IP. */
  resolverCheck: z.boolean().default(false),
  /** Empty = the built-in public resolvers of the task's family. */
  dnsServers: lines(L.dnsServers.max, 64),
  apiNetwork: z.enum(DDNS_API_NETWORKS).default('auto'),
  /** Proxy for the provider's API (never for the IP URLs: they must see the real address). */
  proxy: proxySchema(PROXY_TYPES),
  webhook: webhook.object.prefault({}),
};

type TaskFields = z.infer<z.ZodObject<typeof taskShape>>;

function add(
  ctx: z.RefinementCtx,
  path: (string | number)[],
  message: DdnsErrorCode,
  params?: Record<string, unknown>,
): void {
  ctx.addIssue({ code: 'custom', path, message, params });
}

/** The webhook of the "test webhook" call: checked as if it were switched on. */
export const ddnsWebhookTestSchema = webhook.testSchema;

const FIELD_CODE: Record<DdnsCredentialField, DdnsErrorCode> = {
  id: 'idRequired',
  secret: 'secretRequired',
  server: 'serverRequired',
  zone: 'zoneInvalid',
};

function checkDns(t: TaskFields, ctx: z.RefinementCtx): void {
  const d = t.dns;
  const info = DDNS_PROVIDER_INFO[d.provider];
  for (const f of info.required) {
    if (d[f] === '') add(ctx, ['dns', f], FIELD_CODE[f], { provider: d.provider });
  }
  if (d.zone !== '' && !isDnsName(d.zone)) add(ctx, ['dns', 'zone'], 'zoneInvalid');
  if (d.provider === 'powerdns' && d.server !== '' && !isHttpUrl(d.server))
    add(ctx, ['dns', 'server'], 'serverUrlInvalid');
  if (d.provider === 'rfc2136') {
    if (d.server !== '' && !isHostPort(d.server, false)) add(ctx, ['dns', 'server'], 'serverAddressInvalid');
    if (d.secret !== '' && d.secret !== SECRET_MASK && !isBase64(d.secret))
      add(ctx, ['dns', 'secret'], 'tsigSecretInvalid');
  }
  if (d.provider === 'callback') {
    const c = d.callback;
    if (c.method === '') add(ctx, ['dns', 'callback', 'method'], 'callbackMethodRequired');
    if (c.url === '') add(ctx, ['dns', 'callback', 'url'], 'callbackUrlRequired');
    else if (!isTemplateUrl(c.url)) add(ctx, ['dns', 'callback', 'url'], 'urlInvalid');
    checkSuccessStrings(c, ctx, ['dns', 'callback']);
    checkHeaderLines(c.headers, ctx, ['dns', 'callback', 'headers']);
  }
}

function checkIpSource(t: TaskFields, ctx: z.RefinementCtx): void {
  const s = t.ipSource;
  const at = ['ipSource'];
  if (s.type === 'url') {
    const urls = s.urls.filter((u) => u !== '');
    if (urls.length === 0) add(ctx, [...at, 'urls'], 'urlsRequired');
    s.urls.forEach((u, i) => {
      if (u !== '' && !isHttpUrl(u)) add(ctx, [...at, 'urls', i], 'urlInvalid');
    });
  } else if (s.type === 'netInterface') {
    if (s.netInterface === '') add(ctx, [...at, 'netInterface'], 'netInterfaceRequired');
  } else if (s.type === 'command') {
    if (s.command.trim() === '') add(ctx, [...at, 'command'], 'commandRequired');
  } else if (s.type === 'odhcpd') {
    if (s.odhcpdFile === '') add(ctx, [...at, 'odhcpdFile'], 'odhcpdFileRequired');
    const macs = s.odhcpdMacs.filter((m) => m !== '');
    const hosts = s.odhcpdHostnames.filter((h) => h !== '');
    if (macs.length + hosts.length === 0) add(ctx, [...at, 'odhcpdMacs'], 'odhcpdSelectorRequired');
    s.odhcpdMacs.forEach((m, i) => {
      if (m !== '' && !isMac(m)) add(ctx, [...at, 'odhcpdMacs', i], 'macInvalid');
    });
  }
  if ((s.type === 'netInterface' || s.type === 'odhcpd') && !isIpRule(s.ipReg))
    add(ctx, [...at, 'ipReg'], 'ipRegInvalid');
}

/** Checks between fields of one task; messages are codes. */
function checkTask(t: TaskFields, ctx: z.RefinementCtx): void {
  const domains = t.domains.filter((d) => d !== '');
  if (domains.length === 0) add(ctx, ['domains'], 'domainsRequired');
  t.domains.forEach((d, i) => {
    if (d !== '' && !isDomainLine(d)) add(ctx, ['domains', i], 'domainInvalid');
  });
  checkIpSource(t, ctx);
  checkDns(t, ctx);
  if (t.proxy.type !== 'none') {
    if (t.proxy.address === '') add(ctx, ['proxy', 'address'], 'proxyAddressRequired');
    else if (!isHostPort(t.proxy.address)) add(ctx, ['proxy', 'address'], 'proxyAddressInvalid');
  }
  t.dnsServers.forEach((s, i) => {
    if (s !== '' && !isDnsServer(s)) add(ctx, ['dnsServers', i], 'dnsServerInvalid');
  });
  webhook.check(t.webhook, ctx, ['webhook']);
}

const TASK_KEY = /^[A-Za-z0-9]{1,32}$/;
/** A task as the browser sends it (no key: the server assigns it). */
export const ddnsTaskInputSchema = z.object(taskShape).superRefine(checkTask);
/** A stored task. */
export const ddnsTaskSchema = z.object({ key: z.string().regex(TASK_KEY), ...taskShape }).superRefine(checkTask);

const settingsShape = {
  /** The module switch (default off), run by the supervisor: off, no task runs and no timer is set. */
  ...moduleSwitchShape(false),
  /** Seconds after program start before the first check. */
  firstCheckDelay: int(L.firstCheckDelay),
  /** Seconds between checks of every task. */
  interval: int(L.interval),
  /** Extra two-or-more-label suffixes such as `dynv6.net` (added to the built-in list). */
  multiLevelSuffixes: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .transform((s) => s.replace(/^\.+|\.+$/g, ''))
        .refine((s) => s === '' || (isDnsName(s) && s.includes('.') && !s.includes('*')), 'suffixInvalid'),
    )
    .max(L.suffixes.max)
    .default([]),
  /** Used by every task whose own webhook is off. */
  webhook: ddnsWebhookSchema.prefault({}),
};

/** Global settings (the settings dialog), without the tasks. */
export const ddnsSettingsSchema = z.object(settingsShape);
/** The module's config slice; `{}` parses to the module switched off with no tasks. */
export const ddnsConfigSchema = z.object({
  ...settingsShape,
  tasks: z.array(ddnsTaskSchema).max(L.tasks.max).default([]),
});

/**
 * PUT /api/ddns/settings: any subset of the settings. The fields carry no defaults here, so a
 * field left out keeps its stored value instead of being reset.
 */
export const ddnsSettingsPatchSchema = z.object({
  enabled: settingsShape.enabled.unwrap().optional(),
  firstCheckDelay: settingsShape.firstCheckDelay.unwrap().optional(),
  interval: settingsShape.interval.unwrap().optional(),
  multiLevelSuffixes: settingsShape.multiLevelSuffixes.unwrap().optional(),
  webhook: ddnsWebhookSchema.optional(),
});

/** Whole-value secrets of the slice: read as SECRET_MASK, kept when sent back so (the supervisor). */
export const DDNS_SECRETS = [
  ...WEBHOOK_SECRETS.map((p) => `webhook.${p}` as const),
  'tasks.*.dns.secret',
  'tasks.*.proxy.password',
  ...WEBHOOK_SECRETS.map((p) => `tasks.*.webhook.${p}` as const),
] as const;

/**
 * Free text that may hold secrets in parts (URLs, header lines, bodies): masked part by part by
 * secretText.ts, the stored parts put back on save by the module (never into a URL whose host
 * changed).
 */
export const DDNS_FREE_TEXT_SECRETS = [
  ...WEBHOOK_FREE_TEXT_SECRETS.map((p) => `webhook.${p}` as const),
  'tasks.*.dns.server',
  ...WEBHOOK_FREE_TEXT_SECRETS.map((p) => `tasks.*.dns.callback.${p}` as const),
  'tasks.*.ipSource.urls',
  ...WEBHOOK_FREE_TEXT_SECRETS.map((p) => `tasks.*.webhook.${p}` as const),
] as const;

export type DdnsWebhook = z.infer<typeof ddnsWebhookSchema>;
export type DdnsTaskInput = z.input<typeof ddnsTaskInputSchema>;
export type DdnsTaskInputParsed = z.infer<typeof ddnsTaskInputSchema>;
export type DdnsTask = z.infer<typeof ddnsTaskSchema>;
export type DdnsSettings = z.infer<typeof ddnsSettingsSchema>;
export type DdnsSettingsPatch = z.infer<typeof ddnsSettingsPatchSchema>;
export type DdnsConfig = z.infer<typeof ddnsConfigSchema>;
export type DdnsRecordType = (typeof DDNS_RECORD_TYPES)[number];

/** POST /api/ddns/webhook/test: the webhook as the dialog holds it (checked as if switched on), and its task's key. */
export const ddnsWebhookTestBodySchema = webhook.testBodySchema;

/**
 * The action `syncNow` other modules invoke (STUN with the public address it just learned): sync
 * the task with the provider now; the address of the task's family, when given, is used instead of
 * the task's own IP source for this sync.
 */
export const ddnsSyncNowInputSchema = z.object({
  /** The task's key. */
  task: z.string().max(32),
  ipv4: z.string().trim().refine(isIpv4, 'ipInvalid').optional(),
  ipv6: z.string().trim().refine(isIpv6, 'ipInvalid').optional(),
});
export type DdnsSyncNowInput = z.infer<typeof ddnsSyncNowInputSchema>;

/** POST /api/ddns/tasks/:key/sync — `wait=1` answers when the check is done. */
export const ddnsSyncQuerySchema = z.object({ wait: z.stringbool().default(false) });

/** GET /api/ddns/tasks/:key/logs — newest first; a task keeps its last DDNS_LIMITS.logLines lines. */
export const ddnsLogsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});

// ---- responses -------------------------------------------------------------------------------

export interface DdnsDomainHistory {
  status: DdnsSyncStatus;
  /** ISO 8601, UTC. */
  time: string;
  reason?: CodedText;
}

export interface DdnsDomainState {
  /** The line as written in the task. */
  line: string;
  /** Full name (ASCII), sub part ('' = apex), root/zone part, `?param=` options. */
  fqdn: string;
  sub: string;
  root: string;
  params: Record<string, string>;
  status: DdnsSyncStatus;
  /** When the status was set (absent while waiting). */
  time?: string;
  /** What the status means for this record, or why it failed (DDNS_REASONS). */
  reason?: CodedText;
  /** Newest first, at most 10 changes. */
  history: DdnsDomainHistory[];
}

export interface DdnsWebhookResult extends WebhookCallView {
  /** `task`: the task's own webhook; `global`: the global one. */
  target: 'task' | 'global';
}

export interface DdnsTaskState {
  /** A check is running now. */
  running: boolean;
  /** The last address got ('' = none yet, or getting it failed). */
  ip: string;
  ipTime?: string;
  /** Why the last attempt to get the address failed (one of the IP topics, with its cause). */
  ipError?: CodedText;
  lastCheck?: string;
  /** Last time every record was checked with the provider. */
  lastForcedSync?: string;
  domains: DdnsDomainState[];
  /** Newest first, at most 10. */
  ipHistory: { ip: string; time: string }[];
  webhookHistory: DdnsWebhookResult[];
}

/** A task as the API shows it: secrets masked with `SECRET_MASK`, live state beside it. */
export interface DdnsTaskView extends DdnsTask {
  state: DdnsTaskState;
}

/** A task log line: code + params (DDNS_LOG_MESSAGES) and the English text. */
export type DdnsLogEntry = LogEntryView;

/** GET /api/ddns/tasks */
export interface DdnsTaskListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  list: DdnsTaskView[];
}
/** GET /api/ddns/tasks/:key, and the answer of every call that changes one task. */
export interface DdnsTaskResponse {
  ret: 0;
  task: DdnsTaskView;
}
/** POST /api/ddns/tasks */
export interface DdnsTaskAddResponse extends DdnsTaskResponse {
  key: string;
}
/** GET /api/ddns/tasks/:key/logs (empty while the module is off: the log lives in the running module). */
export interface DdnsLogsResponse {
  ret: 0;
  total: number;
  logs: DdnsLogEntry[];
  page: number;
  pageSize: number;
}
/** GET and PUT /api/ddns/settings (secrets masked). */
export interface DdnsSettingsResponse {
  ret: 0;
  settings: DdnsSettings;
}
/** POST /api/ddns/webhook/test */
export type DdnsWebhookTestResponse = WebhookTestResponse;

/** A new task as the add dialog starts it. */
export function defaultDdnsTask(recordType: DdnsRecordType = 'A'): DdnsTaskInput {
  return { recordType, domains: [], ipSource: { type: 'url', urls: [] }, dns: { provider: 'cloudflare' } };
}

export type { DdnsProvider };
