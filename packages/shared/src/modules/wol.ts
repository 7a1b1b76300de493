// The Wake-on-LAN module's shared half (`wol`, screen `/wol`): config schema, issue codes, reasons,
// log lines, API bodies and views. Devices are woken by a magic packet (6×0xFF, 16×MAC, an
// optional 6-byte SecureOn password) sent by UDP broadcast on the LAN — or through another console
// on the device's LAN (relay). A device's online state comes from a TCP connect, an ICMP echo
// (`ping`, when installed) and the neighbour table; changes call the module's webhook. A device
// can be shut down over SSH or through the agent of another console (its own wol settings allow it).
import { z } from 'zod';
import { type CodedText, englishWithCauses } from '../contract/coded.js';
import { type LogPageResponse, logPageQuerySchema } from '../contract/logPage.js';
import { SECRET_MASK } from '../contract/secrets.js';
import { moduleSwitchShape } from '../contract/switch.js';
import {
  WEBHOOK_MESSAGES,
  type WebhookCallView,
  type WebhookTestResponse,
  webhookSchemas,
} from '../contract/webhook.js';
import { isHostName, isHttpUrl, isIp, isIpv4, isMac } from '../net.js';
import { issueKit } from './fieldIssue.js';

export const WOL_LIMITS = {
  devices: { max: 256 },
  name: { max: 64 },
  /** MAC addresses of one device (several NICs). */
  macs: { max: 8 },
  /** Magic packets sent per MAC and wake. */
  repeat: { min: 1, max: 10, default: 3 },
  /** Milliseconds between two repeats. */
  intervalMs: { min: 0, max: 5000, default: 200 },
  /** Seconds between two online checks of every device while the module runs. */
  refreshSec: { min: 5, max: 3600, default: 30 },
  /** Seconds of one TCP connect / ping of an online check. */
  checkTimeoutSec: { min: 1, max: 10, default: 2 },
  /** `?wait=` of a wake: seconds to wait for the device to come online. */
  waitSec: { min: 1, max: 600, default: 120 },
  /** Seconds an SSH or agent shutdown call may take. */
  shutdownTimeoutSec: { min: 1, max: 120, default: 15 },
  /** Hosts one scan probes (the interface's own subnet, never beyond), and its ports. */
  scanHosts: { max: 256 },
  scanPorts: [22, 80, 445, 3389],
  /** Seconds a whole scan may take. */
  scanSec: { max: 20 },
} as const;
const L = WOL_LIMITS;

/** UDP ports a magic packet goes to (discard and echo). */
export const WOL_PORTS = [9, 7] as const;
export const WOL_SHUTDOWN_METHODS = ['none', 'ssh', 'agent'] as const;
export type WolShutdownMethod = (typeof WOL_SHUTDOWN_METHODS)[number];

/**
 * Issue codes (the zod messages) with their English text; the UI translates `wol.err_<code>`.
 * zod's own checks answer the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid).
 */
export const WOL_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another device is called {name}',
  macRequired: 'at least one MAC address',
  macInvalid: 'not a MAC address (aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff or aabb.ccdd.eeff): {mac}',
  macDuplicate: '{mac} is listed twice',
  broadcastInvalid: 'the broadcast address is an IPv4 address',
  interfaceInvalid: 'not an interface name',
  portInvalid: 'the port is 9 or 7',
  secureOnInvalid: 'the SecureOn password is 6 bytes written like a MAC address (aa:bb:cc:dd:ee:ff)',
  hostInvalid: 'not a host name or IP address',
  sshUserRequired: 'the SSH user is required',
  sshKeyRequired: 'the SSH private key is required',
  sshKeyInvalid: 'not an OpenSSH or PEM private key',
  sshHostRequired: 'an SSH shutdown needs a host (its own, or the address checked for online)',
  commandRequired: 'the shutdown command is required',
  agentUrlInvalid: "the other console's address is an http(s) URL",
  tokenRequired: "the other console's API token is required",
  deviceNotFound: 'no such device: {device}',
  deviceDisabled: 'the device {device} is switched off',
  moduleDisabled: 'the Wake-on-LAN module is switched off',
  agentDisabled: "this console's Wake-on-LAN agent is switched off",
  relayDisabled: 'this console does not relay magic packets for others',
  shutdownNotConfigured: 'no shutdown method is set for this device',
  scanInterfaceInvalid: 'no IPv4 interface with this name',
  scanBusy: 'a scan is running already',
  // A wake that failed answers with its reason's code (the same words as WOL_REASONS).
  sendFailed: 'the magic packet could not be sent to {target}: {detail}',
  interfaceMissing: 'the interface {interface} does not exist or has no IPv4 address',
  relayUnreachable: 'the relay console {url} cannot be reached: {detail}',
  relayRefused: 'the relay console {url} refused (HTTP {status}): {detail}',
  ...WEBHOOK_MESSAGES,
} as const;
export type WolIssueCode = keyof typeof WOL_MESSAGES;
export const wolIssues = issueKit(WOL_MESSAGES);

/**
 * Why a wake, a shutdown, a relay or a check failed (`CodedText`; the UI translates
 * `wol.reason_<code>`); `detail` is the system's or the peer's own words.
 */
export const WOL_REASONS = {
  sendFailed: 'the magic packet could not be sent to {target}: {detail}',
  interfaceMissing: 'the interface {interface} does not exist or has no IPv4 address',
  relayFailed: 'the relay console {url} could not send the packet: {detail}',
  relayUnreachable: 'the relay console {url} cannot be reached: {detail}',
  relayRefused: 'the relay console {url} refused (HTTP {status}): {detail}',
  waitTimeout: '{device} did not come online within {seconds} s',
  sshFailed: 'the SSH shutdown command exited {code}: {detail}',
  sshUnavailable: 'the ssh client is not installed on this machine',
  agentUnreachable: 'the agent console {url} cannot be reached: {detail}',
  agentRefused: 'the agent console {url} refused (HTTP {status}): {detail}',
  commandFailed: 'the shutdown command exited {code}: {detail}',
  shutdownNotConfigured: 'no shutdown method is set for {device}',
  timeout: 'no answer within {seconds} s',
  deviceNotFound: 'no such device: {device}',
  deviceDisabled: 'the device {device} is switched off',
  noDevices: 'no device is switched on',
} as const;
export type WolReasonCode = keyof typeof WOL_REASONS;

/** English of a reason, `cause`/`detail` appended (shared coded.ts). */
export function wolReason(code: WolReasonCode, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: englishWithCauses(WOL_REASONS[code], params) };
}

/** Lines of the module's log (English, `{name}` from the params); the UI translates `wol.log_<code>`. */
export const WOL_LOG = {
  started: 'started with {devices} devices, checked every {seconds} s',
  woke: 'magic packets for {device} ({macs}) sent {repeat}× to {target}',
  wakeFailed: 'waking {device} failed: {reason}',
  relayed: 'magic packets for {device} sent through the console {url}',
  relayServed: 'relayed magic packets for {macs} to {target} at the request of {caller}',
  online: '{device} is online ({via})',
  offline: '{device} is offline',
  wakeOnline: '{device} came online {seconds} s after the wake',
  wakeTimeout: '{device} did not come online within {seconds} s',
  shutdownSent: 'shutdown of {device} sent by {method}',
  shutdownFailed: 'shutdown of {device} failed: {reason}',
  agentShutdown: 'shutdown command run at the request of {caller} (exit {code})',
  scanDone: 'scan of {subnet} found {count} hosts in {ms} ms',
  webhookOk: 'webhook for {device} ({state}) called: HTTP {status}',
  webhookFailed: 'webhook for {device} ({state}) failed: {reason}',
} as const;
export type WolLogCode = keyof typeof WOL_LOG;

/** English of a log line. */
export function wolLogText(code: WolLogCode, params: Record<string, unknown>): string {
  return englishWithCauses(WOL_LOG[code], params);
}

// ---- MAC addresses ----------------------------------------------------------------------------

/** `aa:bb:cc:dd:ee:ff`, `aa-bb-…`, `aabbccddeeff` or Cisco's `aabb.ccdd.eeff` → `aa:bb:cc:dd:ee:ff`; undefined when none. */
export function normalizeMac(s: string): string | undefined {
  const t = s.trim();
  const cisco = /^([0-9a-f]{4})\.([0-9a-f]{4})\.([0-9a-f]{4})$/i.exec(t);
  const hex = cisco ? cisco.slice(1).join('') : isMac(t) ? t.replace(/[:-]/g, '') : undefined;
  return hex?.toLowerCase().match(/../g)?.join(':');
}

const int = (r: { min: number; max: number; default: number }) =>
  z.number().int('invalidType').min(r.min).max(r.max).default(r.default);
const str = (max: number) => z.string().trim().max(max).default('');
/** A whole-value secret: read as SECRET_MASK (kept when sent back so). */
const secret = (max: number) => z.string().max(max).default('');
const INTERFACE = /^[A-Za-z0-9_.:@-]{1,15}$/;
const KEY = /^[A-Za-z0-9]{1,32}$/;

/** A host to check or to SSH to: '' (none), a host name or an IP address. */
const hostField = z
  .string()
  .trim()
  .max(253)
  .refine((h) => h === '' || isHostName(h) || isIp(h), 'hostInvalid')
  .default('');

// ---- devices ----------------------------------------------------------------------------------

const checkShape = z
  .object({
    /** Address checked for "online" (and the SSH default); '' = the neighbour table by MAC only. */
    host: hostField,
    /** TCP port a connect to proves the device up; 0 = no TCP check. */
    tcpPort: z.number().int('invalidType').min(0).max(65535).default(0),
    /** ICMP echo (`ping -c1`) when the machine has it. */
    ping: z.boolean().default(true),
  })
  .prefault({});

const sshShape = z
  .object({
    /** '' = the check host. */
    host: hostField,
    port: z.number().int('invalidType').min(1).max(65535).default(22),
    user: str(64),
    /** OpenSSH / PEM private key. A secret. */
    privateKey: secret(16 * 1024),
    command: z.string().trim().max(1024).default('sudo poweroff'),
  })
  .prefault({});

const agentShape = z
  .object({
    /** The other console's base URL (`http://nas.lan:16601`), its safe entrance included if it has one. */
    url: str(2048),
    /** Its API token (`lkt_…`). A secret. */
    token: secret(256),
  })
  .prefault({});

const shutdownShape = z
  .object({
    method: z.enum(WOL_SHUTDOWN_METHODS).default('none'),
    ssh: sshShape,
    /** `POST <url>/api/wol/agent/shutdown` on the other console. */
    agent: agentShape,
  })
  .prefault({});

const relayShape = z
  .object({
    /** Send through the other console instead of from this one. */
    enabled: z.boolean().default(false),
    url: str(2048),
    token: secret(256),
  })
  .prefault({});

const macList = z
  .array(z.string().trim().max(32))
  .max(L.macs.max)
  .default([])
  // Normalised on save; an entry that is no MAC is kept as typed for the check below to name it.
  .transform((list) => list.filter((m) => m !== '').map((m) => normalizeMac(m) ?? m));

const deviceShape = {
  name: z.string().trim().min(1, 'nameRequired').max(L.name.max),
  /** Off: not checked, not woken by actions. */
  enabled: z.boolean().default(true),
  macs: macList,
  /** Where the packet goes: this IPv4 broadcast address … */
  broadcast: z
    .string()
    .trim()
    .refine((b) => isIpv4(b), 'broadcastInvalid')
    .default('255.255.255.255'),
  /** … or, when set, this interface's broadcast address, sent from its own address. */
  interface: z
    .string()
    .trim()
    .refine((i) => i === '' || INTERFACE.test(i), 'interfaceInvalid')
    .default(''),
  port: z
    .number()
    .int('invalidType')
    .refine((p) => (WOL_PORTS as readonly number[]).includes(p), 'portInvalid')
    .default(9),
  repeat: int(L.repeat),
  intervalMs: int(L.intervalMs),
  /** SecureOn password: '' or 6 bytes written like a MAC (checked in the input schema). A secret. */
  secureOn: z
    .string()
    .trim()
    .max(64)
    .transform((s) => (s === SECRET_MASK ? s : (normalizeMac(s) ?? s)))
    .default(''),
  check: checkShape,
  shutdown: shutdownShape,
  relay: relayShape,
};

/** Checks between a device's fields (the dialog runs them too). */
function checkDevice(
  d: {
    macs: string[];
    check: { host: string };
    shutdown: { method: WolShutdownMethod; ssh: { host: string; user: string; privateKey: string }; agent: Remote };
    relay: Remote & { enabled: boolean };
  },
  ctx: z.RefinementCtx,
): void {
  const add = (path: (string | number)[], message: WolIssueCode, params?: Record<string, unknown>) =>
    ctx.addIssue({ code: 'custom', path, message, ...(params ? { params } : {}) });
  if (d.macs.length === 0) add(['macs'], 'macRequired');
  const seen = new Set<string>();
  d.macs.forEach((mac, i) => {
    if (normalizeMac(mac) === undefined) add(['macs', i], 'macInvalid', { mac });
    else if (seen.has(mac)) add(['macs', i], 'macDuplicate', { mac });
    seen.add(mac);
  });
  const s = d.shutdown;
  if (s.method === 'ssh') {
    if (s.ssh.host === '' && d.check.host === '') add(['shutdown', 'ssh', 'host'], 'sshHostRequired');
    if (s.ssh.user === '') add(['shutdown', 'ssh', 'user'], 'sshUserRequired');
    if (s.ssh.privateKey === '') add(['shutdown', 'ssh', 'privateKey'], 'sshKeyRequired');
  }
  if (s.method === 'agent') checkRemote(s.agent, add, ['shutdown', 'agent']);
  if (d.relay.enabled) checkRemote(d.relay, add, ['relay']);
}

interface Remote {
  url: string;
  token: string;
}
function checkRemote(
  r: Remote,
  add: (path: (string | number)[], message: WolIssueCode) => void,
  at: (string | number)[],
): void {
  if (!isHttpUrl(r.url)) add([...at, 'url'], 'agentUrlInvalid');
  if (r.token === '') add([...at, 'token'], 'tokenRequired');
}

/** An OpenSSH or PEM private key (the text between its BEGIN and END lines). */
export function isPrivateKeyPem(s: string): boolean {
  return /^-----BEGIN ([A-Z0-9 ]+ )?PRIVATE KEY-----[\s\S]+-----END ([A-Z0-9 ]+ )?PRIVATE KEY-----\s*$/.test(s.trim());
}

/**
 * The forms of the secrets, checked where a user types them (the input), not in the stored slice:
 * a stored secret is whatever was saved, and a value sent back masked is the stored one.
 */
function checkSecretForms(
  d: { secureOn: string; shutdown: { ssh: { privateKey: string } } },
  ctx: z.RefinementCtx,
): void {
  const typed = (v: string) => v !== '' && v !== SECRET_MASK;
  if (typed(d.secureOn) && normalizeMac(d.secureOn) === undefined)
    ctx.addIssue({ code: 'custom', path: ['secureOn'], message: 'secureOnInvalid' });
  const key = d.shutdown.ssh.privateKey;
  if (typed(key) && !isPrivateKeyPem(key))
    ctx.addIssue({ code: 'custom', path: ['shutdown', 'ssh', 'privateKey'], message: 'sshKeyInvalid' });
}

/** A device as the browser sends it (the server assigns the key). */
export const wolDeviceInputSchema = z.object(deviceShape).superRefine(checkDevice).superRefine(checkSecretForms);
export const wolDeviceSchema = z.object({ key: z.string().regex(KEY), ...deviceShape }).superRefine(checkDevice);

// ---- settings ---------------------------------------------------------------------------------

/** The webhook called when a device goes online or offline (`#{name}`, `#{state}`, … WOL_WEBHOOK_VARS). */
export const wolWebhook = webhookSchemas();
/** Variables of the online/offline webhook. */
export const WOL_WEBHOOK_VARS = ['name', 'state', 'ip', 'mac', 'time'] as const;

const settingsShape = {
  refreshSec: int(L.refreshSec),
  checkTimeoutSec: int(L.checkTimeoutSec),
  webhook: wolWebhook.schema.prefault({}),
  /** What other consoles may ask of this one with an API token. */
  agent: z
    .object({
      /** `POST /api/wol/agent/shutdown` runs `shutdownCommand` here. */
      shutdownEnabled: z.boolean().default(false),
      shutdownCommand: z.string().trim().max(1024).default(''),
      /** `POST /api/wol/relay` sends magic packets on this console's LAN. */
      relayEnabled: z.boolean().default(false),
    })
    .superRefine((a, ctx) => {
      if (a.shutdownEnabled && a.shutdownCommand === '')
        ctx.addIssue({ code: 'custom', path: ['shutdownCommand'], message: 'commandRequired' });
    })
    .prefault({}),
};
export const wolSettingsSchema = z.object(settingsShape);
/** PUT /api/wol/settings: any subset of the settings. */
export const wolSettingsPatchSchema = z.object({
  refreshSec: z.number().int().min(L.refreshSec.min).max(L.refreshSec.max).optional(),
  checkTimeoutSec: z.number().int().min(L.checkTimeoutSec.min).max(L.checkTimeoutSec.max).optional(),
  webhook: wolWebhook.schema.optional(),
  agent: settingsShape.agent.optional(),
});

/** The config slice; `{}` parses to the module switched on with no devices (it then reports `stopped`). */
export const wolConfigSchema = z
  .object({
    ...moduleSwitchShape(true),
    devices: z.array(wolDeviceSchema).max(L.devices.max).default([]),
    ...settingsShape,
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.devices.forEach((d, i) => {
      const name = d.name.toLowerCase();
      if (seen.has(name))
        ctx.addIssue({ code: 'custom', path: ['devices', i, 'name'], message: 'nameTaken', params: { name: d.name } });
      seen.add(name);
    });
  });

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const WOL_SECRETS = [
  'devices.*.secureOn',
  'devices.*.shutdown.ssh.privateKey',
  'devices.*.shutdown.agent.token',
  'devices.*.relay.token',
  'webhook.proxy.password',
] as const;
/** Free text that may carry secrets in parts (tokens in the webhook's URL, headers, body). */
export const WOL_FREE_TEXT_SECRETS = ['webhook.url', 'webhook.headers', 'webhook.body'] as const;

export type WolDeviceInput = z.input<typeof wolDeviceInputSchema>;
export type WolDevice = z.infer<typeof wolDeviceSchema>;
export type WolSettings = z.infer<typeof wolSettingsSchema>;
export type WolSettingsPatch = z.infer<typeof wolSettingsPatchSchema>;
export type WolConfig = z.infer<typeof wolConfigSchema>;

// ---- API bodies -------------------------------------------------------------------------------

/** POST /api/wol/devices/:key/wake?wait=<seconds>: wait for the device to come online (the screen polls its state). */
export const wolWakeQuerySchema = z.object({
  wait: z.coerce.number().int().min(0).max(L.waitSec.max).default(0),
});
/** Action `wake` (scheduled tasks, other modules): a device by key or by name. */
export const wolWakeInputSchema = z.object({
  device: z.string().trim().min(1, 'deviceNotFound').max(L.name.max),
});
export type WolWakeInput = z.infer<typeof wolWakeInputSchema>;

/** POST /api/wol/relay (another console asks this one to send): what to send, on this console's LAN. */
export const wolRelayBodySchema = z
  .object({
    macs: z
      .array(z.string().trim().max(32))
      .min(1, 'macRequired')
      .max(L.macs.max)
      .transform((list) => list.map((m) => normalizeMac(m) ?? m)),
    broadcast: deviceShape.broadcast,
    interface: deviceShape.interface,
    port: deviceShape.port,
    repeat: deviceShape.repeat,
    intervalMs: deviceShape.intervalMs,
    secureOn: z
      .string()
      .trim()
      .refine((s) => s === '' || normalizeMac(s) !== undefined, 'secureOnInvalid')
      .default(''),
  })
  .superRefine((b, ctx) => {
    b.macs.forEach((mac, i) => {
      if (normalizeMac(mac) === undefined)
        ctx.addIssue({ code: 'custom', path: ['macs', i], message: 'macInvalid', params: { mac } });
    });
  });
export type WolRelayBody = z.input<typeof wolRelayBodySchema>;

/** POST /api/wol/scan: the interface whose own subnet is probed ('' = the first IPv4 LAN interface). */
export const wolScanBodySchema = z.object({
  interface: deviceShape.interface,
  /** Ask reverse DNS for the hosts' names (one try, 1 s each). */
  names: z.boolean().default(true),
});
export const wolLogsQuerySchema = logPageQuerySchema;
/** POST /api/wol/webhook/test: the webhook as the dialog holds it (`key` '' = the module's). */
export const wolWebhookTestBodySchema = wolWebhook.testBodySchema;

// ---- views: what the GET routes answer --------------------------------------------------------

export const WOL_ONLINE_STATES = ['unknown', 'online', 'offline'] as const;
export type WolOnline = (typeof WOL_ONLINE_STATES)[number];

/** Where a "wake and wait" stands. */
export const WOL_WAKE_PHASES = ['waiting', 'online', 'timeout', 'failed'] as const;
export type WolWakePhase = (typeof WOL_WAKE_PHASES)[number];

export interface WolWakeProgress {
  phase: WolWakePhase;
  /** ISO 8601, UTC. */
  startedAt: string;
  /** When waiting ends at the latest (ISO). */
  deadline: string;
  /** Seconds from the wake to the device answering (phase online). */
  seconds?: number;
  /** Why it failed or timed out. */
  reason?: CodedText;
}

/** A device's live state (refreshed every `refreshSec` while the module runs). */
export interface WolDeviceState {
  online: WolOnline;
  /** What said so: the checks that answered. */
  via: ('tcp' | 'ping' | 'neigh')[];
  /** IPv4/IPv6 address seen (the check host resolved, or the neighbour table's entry for a MAC). */
  ip?: string;
  /** The neighbour table's state for one of its MACs (REACHABLE, STALE, …). */
  neigh?: string;
  /** Last check and last online/offline change (ISO). */
  checkedAt?: string;
  since?: string;
  /** The last wake: when, and whether the packets went out. */
  lastWake?: { at: string; ok: boolean; reason?: CodedText };
  /** The running or last "wake and wait". */
  wake?: WolWakeProgress;
  lastShutdown?: { at: string; ok: boolean; reason?: CodedText };
}

/** A device as read: secrets masked, with its state. */
export type WolDeviceView = WolDevice & { state: WolDeviceState };

/** GET /api/wol/devices */
export interface WolListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  /** `ping` is installed (the ICMP check works). */
  pingAvailable: boolean;
  /** `ssh` is installed (the SSH shutdown works). */
  sshAvailable: boolean;
  settings: WolSettings;
  devices: WolDeviceView[];
  /** The webhook's recent calls, newest first. */
  webhookHistory: WebhookCallView[];
}

/** POST / PUT /api/wol/devices[/:key] */
export interface WolDeviceResponse {
  ret: 0;
  device: WolDeviceView;
}

/** GET /api/wol/state: every device's state by key (the screen polls it). */
export interface WolStateResponse {
  ret: 0;
  states: Record<string, WolDeviceState>;
}

/** POST /api/wol/devices/:key/wake (and the relay): what went out. */
export interface WolWakeResponse {
  ret: 0;
  /** Packets sent (MACs × repeat). */
  sent: number;
  /** Where they went: `<broadcast>:<port>` (via `<interface>`), or the relay console's URL. */
  target: string;
  /** With `?wait=`: the progress, polled through GET /api/wol/state. */
  wake?: WolWakeProgress;
}

/** POST /api/wol/devices/:key/shutdown */
export interface WolShutdownResponse {
  ret: 0;
  ok: boolean;
  reason?: CodedText;
  /** The command's output (bounded), for SSH. */
  output?: string;
}

/** POST /api/wol/agent/shutdown (the target console): the command ran. */
export interface WolAgentShutdownResponse {
  ret: 0;
  code: number;
  output: string;
}

/** An IPv4 interface a device or a scan may use. */
export interface WolInterfaceView {
  name: string;
  address: string;
  /** CIDR of its subnet, and its broadcast address. */
  cidr: string;
  broadcast: string;
  mac: string;
}

/** GET /api/wol/interfaces */
export interface WolInterfacesResponse {
  ret: 0;
  list: WolInterfaceView[];
}

/** A host a scan found. */
export interface WolScanCandidate {
  ip: string;
  /** From the neighbour table ('' when it has none). */
  mac: string;
  /** From reverse DNS, if it answered quickly. */
  hostname: string;
  /** Probe ports that accepted a connection. */
  openPorts: number[];
  /** A device already has this MAC. */
  known: boolean;
}

/** POST /api/wol/scan */
export interface WolScanResponse {
  ret: 0;
  interface: string;
  /** The probed range (the interface's subnet, at most WOL_LIMITS.scanHosts hosts of it). */
  subnet: string;
  candidates: WolScanCandidate[];
  ms: number;
}

/** GET / PUT /api/wol/settings (the webhook's secrets masked). */
export interface WolSettingsResponse {
  ret: 0;
  settings: WolSettings;
}

export type WolLogsResponse = LogPageResponse;
export type WolWebhookTestResponse = WebhookTestResponse;
