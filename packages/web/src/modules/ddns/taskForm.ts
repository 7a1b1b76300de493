// The add/edit form as data, free of React so it is unit-tested: the values a new task starts
// with, the conversions to and from the API shapes (lists are edited as one entry per line),
// and the check before sending — the shared schema the server uses, answered with its codes.
import {
  DDNS_CALLBACK_PRESETS,
  DDNS_DEFAULT_IPV4_URLS,
  DDNS_DEFAULT_IPV6_URLS,
  DDNS_DEFAULT_ODHCPD_FILE,
  DDNS_LIMITS,
  DDNS_WEBHOOK_PRESETS,
  type DdnsProvider,
  type DdnsRecordType,
  type DdnsTaskInput,
  type DdnsTaskView,
  type DdnsWebhook,
  ddnsIssues,
  ddnsTaskInputSchema,
  ddnsWebhookTestSchema,
} from '@lucky/shared';
import type { FieldIssue } from './errors';

const L = DDNS_LIMITS;

type Method = '' | 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface WebhookFormValues {
  enabled: boolean;
  url: string;
  method: Method;
  /** One `Name:Value` per line. */
  headers: string;
  body: string;
  /** One per line. */
  successStrings: string;
  disableSuccessCheck: boolean;
  proxy: { type: 'none' | 'dns' | 'http' | 'https' | 'socks5'; address: string; user: string; password: string };
  skipCertCheck: boolean;
  timeout: number;
  callOnIpFail: boolean;
  retries: number;
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
    callback: {
      preset: string;
      url: string;
      method: Method;
      headers: string;
      body: string;
      successStrings: string;
      disableSuccessCheck: boolean;
    };
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
  webhook: WebhookFormValues;
}

/** Text of a list: one entry per line. */
export const joinLines = (list: readonly string[] | undefined) => (list ?? []).join('\n');
/** Entries of a text: trimmed lines, blanks dropped. */
export const splitLines = (text: string | undefined) =>
  (text ?? '')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);

export const defaultUrls = (type: DdnsRecordType) =>
  joinLines(type === 'AAAA' ? DDNS_DEFAULT_IPV6_URLS : DDNS_DEFAULT_IPV4_URLS);

export function newWebhookValues(): WebhookFormValues {
  return {
    enabled: false,
    url: '',
    method: 'GET',
    headers: '',
    body: '',
    successStrings: '',
    disableSuccessCheck: false,
    proxy: { type: 'none', address: '', user: '', password: '' },
    skipCertCheck: false,
    timeout: L.httpTimeout.default,
    callOnIpFail: false,
    retries: L.webhookRetries.default,
  };
}

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
      callback: {
        preset: '',
        url: '',
        method: 'GET',
        headers: '',
        body: '',
        successStrings: '',
        disableSuccessCheck: false,
      },
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
    webhook: newWebhookValues(),
  };
}

export function webhookToValues(w: Partial<DdnsWebhook> | undefined): WebhookFormValues {
  const base = newWebhookValues();
  if (!w) return base;
  return {
    ...base,
    ...w,
    headers: joinLines(w.headers),
    successStrings: joinLines(w.successStrings),
    proxy: { ...base.proxy, ...w.proxy },
  } as WebhookFormValues;
}

export function valuesToWebhook(v: WebhookFormValues): DdnsWebhook {
  return {
    ...v,
    url: v.url.trim(),
    headers: splitLines(v.headers),
    successStrings: splitLines(v.successStrings),
    proxy: { ...v.proxy, address: v.proxy.address.trim(), user: v.proxy.user.trim() },
  } as DdnsWebhook;
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
      callback: {
        ...base.dns.callback,
        ...task.dns.callback,
        headers: joinLines(task.dns.callback.headers),
        successStrings: joinLines(task.dns.callback.successStrings),
      },
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
    webhook: webhookToValues(task.webhook),
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
      callback: {
        preset: cb.preset,
        url: cb.url.trim(),
        method: cb.method,
        headers: splitLines(cb.headers),
        body: cb.body,
        successStrings: splitLines(cb.successStrings),
        disableSuccessCheck: cb.disableSuccessCheck,
      },
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
    webhook: valuesToWebhook(v.webhook),
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

/** The problems of a webhook about to be tested (checked as if it were on). */
export function checkWebhookForTest(w: DdnsWebhook): FieldIssue[] {
  const r = ddnsWebhookTestSchema.safeParse(w);
  if (r.success) return [];
  return r.error.issues.map((i) => {
    const { field, code, params } = ddnsIssues.fromZod(i, ddnsWebhookTestSchema);
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
  return {
    preset: p.id,
    url: p.url[recordType],
    method: p.method,
    headers: joinLines(p.headers),
    body: p.body,
    successStrings: joinLines(p.successStrings),
    disableSuccessCheck: false,
  };
}

export function applyWebhookPreset(values: WebhookFormValues, presetId: string): WebhookFormValues {
  const p = DDNS_WEBHOOK_PRESETS.find((x) => x.id === presetId);
  if (!p) return values;
  return {
    ...values,
    url: p.url,
    method: p.method,
    headers: joinLines(p.headers),
    body: p.body,
    successStrings: joinLines(p.successStrings),
    disableSuccessCheck: false,
  };
}

/**
 * Record type switched: a URL list that is still the other family's default list becomes this
 * family's default (a list the user wrote stays).
 */
export function urlsForRecordType(urls: string, next: DdnsRecordType): string {
  const other: DdnsRecordType = next === 'A' ? 'AAAA' : 'A';
  return urls.trim() === '' || urls.trim() === defaultUrls(other) ? defaultUrls(next) : urls;
}
