// The service part of a form (what a sub rule and the default rule do with a
// request) as data, free of React so it is unit-tested: defaults, the
// conversions to and from the API shape, the checks — the server's own
// predicates and limits from the shared schema, answered with its codes — and
// where a field the server names lives in the form.
import {
  isBackendUrl,
  isCidrOrIp,
  parseCustomConfig,
  REVERSEPROXY_LIMITS,
  type ReverseproxyService,
  type ReverseproxyServiceView,
  reverseproxyDefaultRuleSchema,
} from '@lucky/shared';
import type { Issue } from './errors';

const L = REVERSEPROXY_LIMITS;

export type ServiceValues = ReverseproxyService;
export type ServiceType = ServiceValues['serviceType'];
export type NamePath = (string | number)[];

/** A fresh service: the schema's own defaults. */
export const newServiceValues = (): ServiceValues => reverseproxyDefaultRuleSchema.parse({});

/**
 * The form values of a listed service. Its secrets read as SECRET_MASK (the password whole, a
 * credential header value in its secret part): sent back unchanged they keep the stored values.
 */
export function serviceToValues(s: ReverseproxyServiceView): ServiceValues {
  return { ...newServiceValues(), ...s };
}

/** Trimmed entries without blanks and repeats. */
export const cleanList = (list: readonly string[] | undefined): string[] => [
  ...new Set((list ?? []).map((s) => s.trim()).filter(Boolean)),
];

const validMountPath = (p: string) => p.startsWith('/') && !p.split('/').includes('..');
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * What is sent: trimmed text, lists without blanks. Settings the user cannot see
 * (another service type's fields, a switched-off filter's list) keep only entries
 * the server accepts, so a hidden leftover never blocks a save.
 */
export function valuesToService(v: ServiceValues): ServiceValues {
  const type = v.serviceType;
  const targets = cleanList(v.targets);
  const mounts = (v.mounts ?? [])
    .map((m) => ({
      ...m,
      urlPath: (m.urlPath ?? '').trim() || '/',
      dir: (m.dir ?? '').trim(),
      name: (m.name ?? '').trim(),
    }))
    .filter((m) => m.dir || m.name || m.urlPath !== '/');
  const headers = (list: ServiceValues['requestHeaders']) =>
    (list ?? [])
      .map((h) => ({ name: (h.name ?? '').trim(), value: (h.value ?? '').trim() }))
      .filter((h) => h.name || h.value);
  const ipList = cleanList(v.ipFilter.list);
  const proxies = cleanList(v.clientIp.trustedProxies);
  return {
    ...v,
    name: v.name.trim(),
    remark: v.remark.trim(),
    targets: type === 'proxy' ? targets : targets.filter(isBackendUrl),
    redirectTarget: v.redirectTarget.trim(),
    mounts: type === 'files' ? mounts : mounts.filter((m) => m.dir && validMountPath(m.urlPath)),
    indexFile: v.indexFile.trim(),
    textContentType: v.textContentType.trim() || newServiceValues().textContentType,
    clientIp: { ...v.clientIp, trustedProxies: v.clientIp.fromHeaders ? proxies : proxies.filter(isCidrOrIp) },
    basicAuth: { ...v.basicAuth, user: v.basicAuth.user.trim(), paths: cleanList(v.basicAuth.paths) },
    ipFilter: { ...v.ipFilter, list: v.ipFilter.mode === 'off' ? ipList.filter(isCidrOrIp) : ipList },
    uaFilter: { ...v.uaFilter, list: cleanList(v.uaFilter.list) },
    cors: {
      ...v.cors,
      origins: cleanList(v.cors.origins),
      methods: [...new Set(cleanList(v.cors.methods).map((m) => m.toUpperCase()))],
    },
    requestHeaders: headers(v.requestHeaders),
    responseHeaders: headers(v.responseHeaders),
  };
}

// ---- checks (undefined = fine) ----------------------------------------------------------------

/** `required`: a sub rule's proxy needs a back end; the default rule may answer with a 404 page. */
export function checkTargets(list: readonly string[] | undefined, required: boolean): Issue | undefined {
  const clean = cleanList(list);
  if (clean.length === 0) return required ? { code: 'targetRequired' } : undefined;
  const bad = clean.find((u) => !isBackendUrl(u));
  if (bad) return { code: 'targetInvalid', params: { token: bad } };
  if (clean.length > L.targets.max) return { code: 'tooMany', params: { max: L.targets.max } };
  return undefined;
}

export function checkRedirectTarget(target: string | undefined): Issue | undefined {
  return (target ?? '').trim() ? undefined : { code: 'redirectTargetRequired' };
}

export function checkCidrList(list: readonly string[] | undefined): Issue | undefined {
  const clean = cleanList(list);
  const bad = clean.find((a) => !isCidrOrIp(a));
  if (bad) return { code: 'cidrInvalid', params: { token: bad } };
  if (clean.length > L.list.max) return { code: 'tooMany', params: { max: L.list.max } };
  return undefined;
}

export function checkListSize(list: readonly string[] | undefined, max: number): Issue | undefined {
  return cleanList(list).length > max ? { code: 'tooMany', params: { max } } : undefined;
}

export function checkHeaderName(name: string | undefined): Issue | undefined {
  const n = (name ?? '').trim();
  return HEADER_NAME.test(n) ? undefined : { code: 'headerInvalid', params: { token: n } };
}

export function checkMountPath(path: string | undefined): Issue | undefined {
  return validMountPath((path ?? '').trim() || '/') ? undefined : { code: 'mountPathInvalid' };
}

export function checkMountDir(dir: string | undefined): Issue | undefined {
  return (dir ?? '').trim() ? undefined : { code: 'mountDirRequired' };
}

/** The custom config as the server reads it: the first line it refuses, with the word at fault. */
export function checkCustomConfig(text: string | undefined): Issue | undefined {
  const r = parseCustomConfig(text ?? '');
  return r.ok ? undefined : { code: r.problem.code, params: { line: r.problem.line, token: r.problem.token } };
}

export function checkBasicAuthUser(enabled: boolean | undefined, user: string | undefined): Issue | undefined {
  return enabled && !(user ?? '').trim() ? { code: 'basicAuthUserRequired' } : undefined;
}

// ---- where a field lives ----------------------------------------------------------------------

/** The folded panels of the service editor. */
export type PanelKey = 'clientIp' | 'auth' | 'filter' | 'cors' | 'cache' | 'headers' | 'custom' | 'log';

const PANEL_OF: Record<string, PanelKey> = {
  clientIp: 'clientIp',
  basicAuth: 'auth',
  ipFilter: 'filter',
  uaFilter: 'filter',
  cors: 'cors',
  cache: 'cache',
  robots: 'cache',
  requestHeaders: 'headers',
  responseHeaders: 'headers',
  customConfig: 'custom',
  log: 'log',
};

/** The panel of a service field (its first name segment), if it is folded away. */
export const panelOf = (serviceField: NamePath): PanelKey | undefined => PANEL_OF[String(serviceField[0])];

/** Lists edited in one control: an index into them names an entry of the control. */
const LIST_FIELDS = [
  'domains',
  'targets',
  'clientIp.trustedProxies',
  'basicAuth.paths',
  'ipFilter.list',
  'uaFilter.list',
  'cors.origins',
  'cors.methods',
];

/** The fields of the service editor, by their first name segment. */
const SERVICE_FIELDS = new Set(Object.keys(newServiceValues()));

export interface FormSpot {
  /** Form item name. */
  name: NamePath;
  /** The list entry the server named, for lists edited as one control. */
  index?: number;
}

/**
 * The form item of a dotted path relative to a service (`targets.1` → `targets`
 * entry 1; `mounts.0.dir` → that row's item); undefined when the editor has no such field.
 */
export function serviceSpot(path: string, extra: readonly string[] = []): FormSpot | undefined {
  const parts = path.split('.').filter(Boolean);
  if (parts.length === 0 || !(SERVICE_FIELDS.has(parts[0]) || extra.includes(parts[0]))) return undefined;
  for (const list of LIST_FIELDS) {
    const n = list.split('.').length;
    if (parts.slice(0, n).join('.') === list) {
      const index = parts[n] !== undefined && /^\d+$/.test(parts[n]) ? Number(parts[n]) : undefined;
      return { name: parts.slice(0, n), index };
    }
  }
  return { name: parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p)) };
}

/** The entry of a list-valued field the server named by index (as sent: cleaned). */
export function entryAt(values: unknown, name: NamePath, index: number | undefined): string | undefined {
  if (index === undefined) return undefined;
  let v: unknown = values;
  for (const k of name) v = (v as Record<string | number, unknown> | undefined)?.[k];
  return Array.isArray(v) ? cleanList(v as string[])[index] : undefined;
}
