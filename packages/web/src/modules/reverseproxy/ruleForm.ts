// The rule (listener) and sub rule forms as data: the values a new one starts
// with, the conversions to and from the API, the checks the server makes (with
// its codes), and which form item a field the server names belongs to.
import {
  isFrontDomain,
  isIp,
  isIpv4,
  type NetworkType,
  REVERSEPROXY_LIMITS,
  type ReverseproxyRule,
  type ReverseproxyRuleInput,
  type ReverseproxyRuleView,
  type ReverseproxySubRule,
  type ReverseproxySubRuleInput,
  type ReverseproxySubRuleView,
  reverseproxyBatchDomainSchema,
  reverseproxyRuleInputSchema,
  reverseproxySubRuleInputSchema,
} from '@lucky/shared';
import { type FieldIssue, type Issue, issueOfSchema, type SchemaIssue } from './errors';
import {
  cleanList,
  type FormSpot,
  newServiceValues,
  type ServiceValues,
  serviceSpot,
  serviceToValues,
  valuesToService,
} from './serviceForm';

const L = REVERSEPROXY_LIMITS;

export type RuleValues = Omit<ReverseproxyRule, 'key' | 'subRules'>;
export type SubRuleValues = Omit<ReverseproxySubRule, 'key'>;

/** A new rule: the schema's defaults. */
export function newRuleValues(): RuleValues {
  const { subRules: _none, ...rule } = reverseproxyRuleInputSchema.parse({});
  return rule as RuleValues;
}

/** A new sub rule: a reverse proxy for the whole site, domains to be typed. */
export const newSubRuleValues = (): SubRuleValues => ({ ...newServiceValues(), domains: [], pathPrefix: '/' });

export function ruleToValues(rule: ReverseproxyRuleView): RuleValues {
  const { key: _k, subRules: _s, status: _st, lastLogs: _l, defaultRule, ...rest } = rule;
  return { ...newRuleValues(), ...rest, defaultRule: serviceToValues(defaultRule) };
}

export function subRuleToValues(sub: ReverseproxySubRuleView): SubRuleValues {
  const { key: _k, domains, pathPrefix, ...service } = sub;
  return { ...serviceToValues(service as ReverseproxySubRuleView), domains: [...domains], pathPrefix };
}

const unbracket = (s: string) => s.replace(/^\[(.*)\]$/, '$1');

/** The listener settings plus the sub rules as the server has them (sent back with their keys). */
export function valuesToRuleInput(v: RuleValues, subRules: ReverseproxySubRuleView[] = []): ReverseproxyRuleInput {
  return {
    ...v,
    name: v.name.trim(),
    address: unbracket(v.address.trim()),
    defaultRule: valuesToService(v.defaultRule),
    // As read: their masked secrets sent back keep the stored values.
    subRules,
  };
}

export function valuesToSubRuleInput(v: SubRuleValues): ReverseproxySubRuleInput {
  const { domains, pathPrefix, ...service } = v;
  return {
    ...valuesToService(service as ServiceValues),
    domains: cleanList(domains).map((d) => d.toLowerCase()),
    pathPrefix: pathPrefix.trim() || '/',
  };
}

// ---- checks (undefined = fine) ----------------------------------------------------------------

/** A listening address: empty (every address) or an IP literal of the network type's family. */
export function checkAddress(address: string | undefined, network: NetworkType = 'tcp'): Issue | undefined {
  const a = unbracket((address ?? '').trim());
  if (a === '') return undefined;
  if (!isIp(a)) return { code: 'listenAddressInvalid' };
  if (network !== 'tcp' && isIpv4(a) !== (network === 'tcp4')) return { code: 'networkAddressFamily' };
  return undefined;
}

export function checkDomains(lines: readonly string[] | undefined): Issue | undefined {
  const clean = cleanList(lines);
  if (clean.length === 0) return { code: 'domainRequired' };
  const bad = clean.find((d) => !isFrontDomain(d));
  if (bad) return { code: 'domainInvalid', params: { token: bad } };
  if (clean.length > L.domains.max) return { code: 'tooMany', params: { max: L.domains.max } };
  return undefined;
}

export function checkPathPrefix(prefix: string | undefined): Issue | undefined {
  const p = (prefix ?? '').trim();
  return p === '' || p.startsWith('/') ? undefined : { code: 'pathPrefixInvalid' };
}

/** Batch domain replace, one field through the shared schema: both needed, the new one a front-end domain. */
export function checkBatchField(field: 'oldDomain' | 'newDomain', value: string | undefined): Issue | undefined {
  const r = reverseproxyBatchDomainSchema.shape[field].safeParse(value ?? '');
  return r.success ? undefined : issueOfSchema(r.error.issues[0] as SchemaIssue);
}

/** The whole rule through the server's own schema, as a last check before sending. */
export function checkWholeRule(input: ReverseproxyRuleInput): FieldIssue | undefined {
  const r = reverseproxyRuleInputSchema.safeParse(input);
  return r.success ? undefined : issueOfSchema(r.error.issues[0] as SchemaIssue);
}

export function checkWholeSubRule(input: ReverseproxySubRuleInput): FieldIssue | undefined {
  const r = reverseproxySubRuleInputSchema.safeParse(input);
  return r.success ? undefined : issueOfSchema(r.error.issues[0] as SchemaIssue);
}

// ---- where a field lives ----------------------------------------------------------------------

const RULE_FIELDS = new Set(Object.keys(newRuleValues()).filter((k) => k !== 'defaultRule'));

/** The rule form's item for a server path (`port`, `defaultRule.targets.1` …); sub rule paths have none. */
export function ruleSpot(path: string): FormSpot | undefined {
  const [head, ...rest] = path.split('.');
  if (RULE_FIELDS.has(head)) return { name: [head] };
  if (head !== 'defaultRule') return undefined;
  const spot = serviceSpot(rest.join('.'));
  return spot && { ...spot, name: ['defaultRule', ...spot.name] };
}

/** The sub rule form's item for a server path (`domains.0`, `mounts.1.dir` …). */
export const subRuleSpot = (path: string): FormSpot | undefined => serviceSpot(path, ['domains', 'pathPrefix']);
