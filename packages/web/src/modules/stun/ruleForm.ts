// The rule dialog as data, free of React so it is unit-tested: the values a new rule starts with
// (the shared schema's own defaults), the conversions to and from the API shapes, the check
// before sending (the schema the server parses with, answered with its codes), and where each
// field sits in the dialog.
import {
  STUN_PROTOCOLS,
  type StunProtocol,
  type StunRule,
  type StunRuleInput,
  type StunRuleView,
  stunIssues,
  stunRuleInputSchema,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import {
  newWebhookValues,
  valuesToWebhook,
  type WebhookFormValues,
  webhookToValues,
} from '../../components/webhook/webhookForm';

type RuleFields = Omit<StunRule, 'key'>;

export interface RuleFormValues
  extends Omit<RuleFields, 'targetPort' | 'heartbeatSec' | 'retrySec' | 'stunServers' | 'webhook'> {
  /** Empty while not typed. */
  targetPort: number | null;
  /** Empty = the global default (0 on the wire), so the field can show that default as its placeholder. */
  heartbeatSec: number | null;
  retrySec: number | null;
  /** One per line, as typed (blank lines kept while typing). */
  stunServers: string[];
  webhook: WebhookFormValues;
}
export type RuleField = keyof RuleFormValues;

/** The schema's defaults for everything a new rule does not name. */
const DEFAULT_RULE: RuleFields = stunRuleInputSchema.parse({ name: '-', targetAddress: '127.0.0.1', targetPort: 1 });

export const RULE_FIELDS = Object.keys(DEFAULT_RULE) as RuleField[];

function toValues(r: RuleFields): RuleFormValues {
  return {
    ...r,
    heartbeatSec: r.heartbeatSec === 0 ? null : r.heartbeatSec,
    retrySec: r.retrySec === 0 ? null : r.retrySec,
    stunServers: [...r.stunServers],
    webhook: webhookToValues(r.webhook, newWebhookValues()),
  };
}

/** A new rule: TCP from a free local port, the global STUN servers, heartbeat and retry. */
export function newRuleValues(): RuleFormValues {
  return { ...toValues(DEFAULT_RULE), name: '', targetAddress: '', targetPort: null };
}

/** The form values of a listed rule (its key and live state left out; masked secrets stay masked). */
export function ruleToValues(rule: StunRuleView): RuleFormValues {
  const fields = {} as Record<string, unknown>;
  for (const f of RULE_FIELDS) fields[f] = rule[f as keyof StunRuleView] ?? DEFAULT_RULE[f as keyof RuleFields];
  return toValues(fields as RuleFields);
}

const trimmed = (list: readonly string[] | undefined) => (list ?? []).map((s) => s.trim()).filter(Boolean);

/** What is sent: trimmed text, no blank list entries, protocols in their fixed order, empty numbers as 0. */
export function valuesToInput(v: RuleFormValues): StunRuleInput {
  const base = newRuleValues();
  // A field the form does not hold reads as a new rule's; an emptied one stays empty for the check.
  const get = <K extends RuleField>(k: K): RuleFormValues[K] => (v[k] === undefined ? base[k] : v[k]);
  return {
    name: get('name').trim(),
    enabled: get('enabled'),
    protocols: STUN_PROTOCOLS.filter((p) => get('protocols').includes(p)),
    autoWhitelist: get('autoWhitelist'),
    channelMode: get('channelMode'),
    channelIp: get('channelIp').trim(),
    channelInterface: get('channelInterface').trim(),
    localPort: get('localPort') ?? 0,
    upnp: get('upnp'),
    upnpGateway: get('upnpGateway').trim(),
    natpmp: get('natpmp'),
    natpmpMethod: get('natpmpMethod'),
    natpmpGateway: get('natpmpGateway').trim(),
    leaseSec: get('leaseSec'),
    disableForwarding: get('disableForwarding'),
    targetAddress: get('targetAddress').trim(),
    targetPort: get('targetPort') ?? 0,
    maxConnections: get('maxConnections'),
    perIpMaxConnections: get('perIpMaxConnections'),
    udpTimeoutMs: get('udpTimeoutMs'),
    tcpIdleTimeoutMs: get('tcpIdleTimeoutMs'),
    script: get('script'),
    webhook: valuesToWebhook<RuleFields['webhook']>(get('webhook')),
    ddnsTask: get('ddnsTask') ?? '',
    stunServers: trimmed(get('stunServers')),
    timeoutMs: get('timeoutMs'),
    heartbeatSec: get('heartbeatSec') ?? 0,
    retrySec: get('retrySec') ?? 0,
    logLevel: get('logLevel'),
    logCapacity: get('logCapacity'),
    logShowLatest: get('logShowLatest'),
  };
}

export const hasProtocol = (v: { protocols?: readonly StunProtocol[] }, p: StunProtocol) =>
  (v.protocols ?? []).includes(p);

/**
 * Every problem the server would name, with its field and code: the shared schema, then the
 * name against the other rules (the server refuses a second rule of the same name, any case).
 */
export function checkRule(input: StunRuleInput, otherNames: readonly string[] = []): Failure[] {
  const r = stunRuleInputSchema.safeParse(input);
  const out: Failure[] = r.success
    ? []
    : r.error.issues.map((i) => {
        const { field, code, params } = stunIssues.fromZod(i, stunRuleInputSchema);
        return { field, code, params };
      });
  const name = input.name.trim().toLowerCase();
  const twin = otherNames.find((n) => n.toLowerCase() === name);
  if (name && twin !== undefined && !out.some((f) => f.field === 'name'))
    out.push({ field: 'name', code: 'nameTaken', params: { name: twin } });
  return out;
}

/** The first problem of one field (for its form rule), or undefined. */
export function issueOfField(issues: readonly Failure[], name: readonly (string | number)[]): Failure | undefined {
  return issues.find((f) => {
    const path = formFieldOf(f.field ?? '');
    return path !== undefined && path.length === name.length && path.every((p, i) => p === name[i]);
  });
}

// ---- where a field lives ----------------------------------------------------------------------

export type PanelKey = 'channel' | 'portmap' | 'notify' | 'stun' | 'limits' | 'log';

const PANEL_OF: Partial<Record<RuleField, PanelKey>> = {
  channelMode: 'channel',
  channelIp: 'channel',
  channelInterface: 'channel',
  upnp: 'portmap',
  upnpGateway: 'portmap',
  natpmp: 'portmap',
  natpmpMethod: 'portmap',
  natpmpGateway: 'portmap',
  leaseSec: 'portmap',
  script: 'notify',
  webhook: 'notify',
  ddnsTask: 'notify',
  stunServers: 'stun',
  timeoutMs: 'stun',
  heartbeatSec: 'stun',
  retrySec: 'stun',
  maxConnections: 'limits',
  perIpMaxConnections: 'limits',
  udpTimeoutMs: 'limits',
  tcpIdleTimeoutMs: 'limits',
  logLevel: 'log',
  logCapacity: 'log',
  logShowLatest: 'log',
};

export const panelOf = (field: string | number | undefined): PanelKey | undefined => PANEL_OF[field as RuleField];

/**
 * The form item of a server field path: a list entry (`stunServers.2`, `webhook.headers.1`)
 * belongs to the box of its list, so the path stops before the first index. The config-wide
 * checks name the rule inside the slice (`rules.3.name`) and a port another module holds `port`.
 * Undefined when the dialog has no such item (the failure is then a message).
 */
export function formFieldOf(field: string): (string | number)[] | undefined {
  const inRule = field.replace(/^rules\.\d+\./, '');
  if (inRule === 'port') return ['localPort'];
  const out: string[] = [];
  for (const part of inRule.split('.')) {
    if (/^\d+$/.test(part)) break;
    out.push(part);
  }
  return out.length > 0 && (RULE_FIELDS as string[]).includes(out[0] as string) ? out : undefined;
}
