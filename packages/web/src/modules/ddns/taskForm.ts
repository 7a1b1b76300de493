// The add/edit form as data, free of React so it is unit-tested: the values a new task starts
// with, the conversions to and from the API shapes (lists are edited as one entry per line),
// and the check before sending — the shared schema the server uses, answered with its codes.
import {
  DDNS_CALLBACK_PRESETS,
  DDNS_DEFAULT_IPV4_URLS,
  DDNS_DEFAULT_IPV6_URLS,
  DDNS_DEFAULT_ODHCPD_FILE,
  DDNS_LIMITS,
  type DdnsProvider,
  type DdnsRecordType,
  type DdnsTaskInput,
  type DdnsTaskView,
  type DdnsWebhook,
  ddnsIssues,
  ddnsTaskInputSchema,
} from '@lucky/shared';
import { joinLines, splitLines } from '../../components/LinesInput';
import {
  newTemplateValues,
  newWebhookValues,
  presetValues,
  type TemplateFormValues,
  templateLists,
  valuesToTemplate,
  valuesToWebhook,
  type WebhookFormValues,
  webhookToValues,
} from '../../components/webhook/webhookForm';
import type { FieldIssue } from './errors';

const L = DDNS_LIMITS;

/** The webhook of a task and of the settings: the core's fields and DDNS's own. */
export interface DdnsWebhookValues extends WebhookFormValues {
  callOnIpFail: boolean;
}

export interface TaskFormValues {
  name: string;
  enabled: boolean;
  mode: 'easy' | 'customized';
  recordType: DdnsRecordType;
  dns: {
    provider: DdnsProvider;
    id: string;
    secret: string;
    server: string;
    zone: string;
    tsigAlgorithm: 'hmac-sha256' | 'hmac-sha512' | 'hmac-sha384' | 'hmac-sha224' | 'hmac-sha1';
    /** `preset`: the preset the dialog filled in (informational). */
    callback: TemplateFormValues & { preset: string };
  };
  /** One per line. */
  domains: string;
  ipSource: {
    type: 'url' | 'netInterface' | 'command' | 'odhcpd';
    urls: string;
    netInterface: string;
    ipReg: string;
    command: string;
    odhcpdFile: string;
    odhcpdMacs: string;
    odhcpdHostnames: string;
  };
  ttl: number;
  forceInterval: number;
  httpTimeout: number;
  resolverCheck: boolean;
  dnsServers: string;
  apiNetwork: 'auto' | 'ipv4' | 'ipv6';
  proxy: { type: 'none' | 'http' | 'https' | 'socks5'; address: string; user: string; password: string };
  webhook: DdnsWebhookValues;
}

export const defaultUrls = (type: DdnsRecordType) =>
  joinLines(type === 'AAAA' ? DDNS_DEFAULT_IPV6_URLS : DDNS_DEFAULT_IPV4_URLS);

export const newDdnsWebhookValues = (): DdnsWebhookValues => ({ ...newWebhookValues(), callOnIpFail: false });
export const ddnsWebhookToValues = (w: Partial<DdnsWebhook> | undefined) => webhookToValues(w, newDdnsWebhookValues());
export const valuesToDdnsWebhook = (v: DdnsWebhookValues) => valuesToWebhook<DdnsWebhook>(v);

export function newTaskValues(recordType: DdnsRecordType = 'A'): TaskFormValues {
  return {
    name: '',
    enabled: true,
    mode: 'easy',
    recordType,
    dns: {
      provider: 'cloudflare',
      id: '',
      secret: '',
      server: '',
      zone: '',
      tsigAlgorithm: 'hmac-sha256',
      callback: { preset: '', ...newTemplateValues() },
    },
    domains: '',
    ipSource: {
      type: 'url',
      urls: defaultUrls(recordType),
      netInterface: '',
      ipReg: '',
      command: '',
      odhcpdFile: DDNS_DEFAULT_ODHCPD_FILE,
      odhcpdMacs: '',
      odhcpdHostnames: '',
    },
    ttl: L.ttl.default,
    forceInterval: L.forceInterval.default,
    httpTimeout: L.httpTimeout.default,
    resolverCheck: false,
    dnsServers: '',
    apiNetwork: 'auto',
    proxy: { type: 'none', address: '', user: '', password: '' },
    webhook: newDdnsWebhookValues(),
  };
}

/** The form values of a listed task (its key and live state left out; masked secrets stay masked). */
export function taskToValues(task: DdnsTaskView): TaskFormValues {
  const base = newTaskValues(task.recordType);
  return {
    ...base,
    name: task.name,
    enabled: task.enabled,
    mode: task.mode,
    recordType: task.recordType,
    dns: {
      ...base.dns,
      ...task.dns,
      callback: { ...base.dns.callback, ...task.dns.callback, ...templateLists(task.dns.callback) },
    },
    domains: joinLines(task.domains),
    ipSource: {
      ...base.ipSource,
      ...task.ipSource,
      urls: joinLines(task.ipSource.urls),
      odhcpdFile: task.ipSource.odhcpdFile || DDNS_DEFAULT_ODHCPD_FILE,
      odhcpdMacs: joinLines(task.ipSource.odhcpdMacs),
      odhcpdHostnames: joinLines(task.ipSource.odhcpdHostnames),
    },
    ttl: task.ttl,
    forceInterval: task.forceInterval,
    httpTimeout: task.httpTimeout,
    resolverCheck: task.resolverCheck,
    dnsServers: joinLines(task.dnsServers),
    apiNetwork: task.apiNetwork,
    proxy: { ...base.proxy, ...task.proxy },
    webhook: ddnsWebhookToValues(task.webhook),
  };
}

/** What is sent: trimmed text, lists split into lines without blanks. */
export function valuesToInput(v: TaskFormValues): DdnsTaskInput {
  const cb = v.dns.callback;
  return {
    name: v.name.trim(),
    enabled: v.enabled,
    mode: v.mode,
    recordType: v.recordType,
    dns: {
      provider: v.dns.provider,
      id: v.dns.id.trim(),
      secret: v.dns.secret.trim(),
      server: v.dns.server.trim(),
      zone: v.dns.zone.trim(),
      tsigAlgorithm: v.dns.tsigAlgorithm,
      callback: { preset: cb.preset, ...valuesToTemplate(cb) },
    },
    domains: splitLines(v.domains),
    ipSource: {
      type: v.ipSource.type,
      urls: splitLines(v.ipSource.urls),
      netInterface: v.ipSource.netInterface.trim(),
      ipReg: v.ipSource.ipReg.trim(),
      command: v.ipSource.command,
      odhcpdFile: v.ipSource.odhcpdFile.trim(),
      odhcpdMacs: splitLines(v.ipSource.odhcpdMacs),
      odhcpdHostnames: splitLines(v.ipSource.odhcpdHostnames),
    },
    ttl: v.ttl,
    forceInterval: v.forceInterval,
    httpTimeout: v.httpTimeout,
    resolverCheck: v.resolverCheck,
    dnsServers: splitLines(v.dnsServers),
    apiNetwork: v.apiNetwork,
    proxy: { ...v.proxy, address: v.proxy.address.trim(), user: v.proxy.user.trim() },
    webhook: valuesToDdnsWebhook(v.webhook),
  };
}

/** Every problem the server would name, with the same fields and codes; none = sendable. */
export function checkTaskInput(input: DdnsTaskInput): FieldIssue[] {
  const r = ddnsTaskInputSchema.safeParse(input);
  if (r.success) return [];
  return r.error.issues.map((i) => {
    const { field, code, params } = ddnsIssues.fromZod(i, ddnsTaskInputSchema);
    return { field, code, params };
  });
}

/**
 * The form item of an API field: list entries (`domains.2`, `ipSource.urls.0`) belong to the
 * text area of their list, so the path stops before the first index.
 */
export function formFieldOf(field: string): (string | number)[] {
  if (field === '') return [];
  const out: string[] = [];
  for (const part of field.split('.')) {
    if (/^\d+$/.test(part)) break;
    out.push(part);
  }
  return out;
}

/** The 1-based line of a list entry an issue names (`domains.2` → 3), for the message. */
export function lineOf(field: string): number | undefined {
  const m = /\.(\d+)(?:\.|$)/.exec(field);
  return m ? Number(m[1]) + 1 : undefined;
}

/** Fields only the customized mode shows: an issue there switches the dialog to that mode. */
const CUSTOMIZED_ONLY = [
  'forceInterval',
  'httpTimeout',
  'resolverCheck',
  'dnsServers',
  'apiNetwork',
  'proxy',
  'webhook',
];
export const isCustomizedField = (path: (string | number)[]) => CUSTOMIZED_ONLY.includes(String(path[0]));

/** Fills the callback fields from a preset for the task's record type. */
export function applyCallbackPreset(
  values: TaskFormValues['dns']['callback'],
  presetId: string,
  recordType: DdnsRecordType,
): TaskFormValues['dns']['callback'] {
  const p = DDNS_CALLBACK_PRESETS.find((x) => x.id === presetId);
  if (!p) return { ...values, preset: presetId };
  return { preset: p.id, ...presetValues({ ...p, url: p.url[recordType] }) };
}

/**
 * Record type switched: a URL list that is still the other family's default list becomes this
 * family's default (a list the user wrote stays).
 */
export function urlsForRecordType(urls: string, next: DdnsRecordType): string {
  const other: DdnsRecordType = next === 'A' ? 'AAAA' : 'A';
  return urls.trim() === '' || urls.trim() === defaultUrls(other) ? defaultUrls(next) : urls;
}
