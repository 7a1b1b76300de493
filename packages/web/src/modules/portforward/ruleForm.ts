// The add/edit form as data, free of React so every rule is unit-tested: the
// values a new rule starts with, the conversions to and from the API shapes,
// and the checks — the same ones the server makes (shared schema and port
// helpers), answered with the same codes.
import {
  bindFor,
  DEFAULT_FORWARD_TYPES,
  FORWARD_TYPES,
  type ForwardType,
  findForwardLoop,
  isCidrOrIp,
  isIp,
  isTargetAddress,
  PORTFORWARD_LIMITS,
  type PortforwardRule,
  type PortforwardRuleInput,
  type PortforwardRuleView,
  pairPorts,
  parsePortList,
  portforwardIssues,
  portforwardRuleInputSchema,
  protocolOf,
} from '@lucky/shared';
import type { FieldIssue, Issue } from './errors';

const L = PORTFORWARD_LIMITS;

export type RuleFormValues = Omit<PortforwardRule, 'key'>;
export type RuleField = keyof RuleFormValues;

/** A new rule: the schema's defaults, dual-stack TCP (IPv4 and IPv6 clients on one socket). */
export function newRuleValues(): RuleFormValues {
  return {
    name: '',
    enabled: true,
    forwardTypes: [...DEFAULT_FORWARD_TYPES],
    listenAddress: '',
    listenPorts: '',
    targetAddresses: [],
    targetPorts: '',
    maxTcpConnections: L.ruleMaxTcpConnections.default,
    maxUdpSessions: L.ruleMaxUdpSessions.default,
    perIpMaxConnections: L.rulePerIpMaxConnections.default,
    tcpIdleTimeoutMs: L.tcpIdleTimeoutMs.default,
    udpTimeoutMs: L.udpTimeoutMs.default,
    udpPacketSize: L.udpPacketSize.default,
    speedLimitIn: L.speedLimit.default,
    speedLimitOut: L.speedLimit.default,
    tlsMode: 'none',
    tlsCert: '',
    tlsKey: '',
    tlsCa: '',
    tlsServerName: '',
    tlsSkipVerify: false,
    accessMode: 'off',
    accessList: [],
    logLevel: L.logLevel.default,
    logCapacity: L.logCapacity.default,
    logShowLatest: L.logShowLatest.default,
    logToConsole: false,
  };
}

export const RULE_FIELDS = Object.keys(newRuleValues()) as RuleField[];

/** The form values of a listed rule (its live figures and key left out). */
export function ruleToValues(rule: PortforwardRuleView): RuleFormValues {
  const base = newRuleValues();
  const out = {} as Record<RuleField, unknown>;
  for (const f of RULE_FIELDS) out[f] = rule[f] ?? base[f];
  return out as RuleFormValues;
}

const unbracket = (s: string) => (s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s);
const cleanList = (list: readonly string[] | undefined) => (list ?? []).map((s) => s.trim()).filter(Boolean);

/** What is sent: trimmed text, no empty list entries, types in their fixed order. */
export function valuesToInput(v: RuleFormValues): PortforwardRuleInput & { forwardTypes: ForwardType[] } {
  return {
    ...v,
    name: v.name.trim(),
    forwardTypes: FORWARD_TYPES.filter((t) => v.forwardTypes.includes(t)),
    listenAddress: unbracket(v.listenAddress.trim()),
    listenPorts: v.listenPorts.trim(),
    targetAddresses: cleanList(v.targetAddresses).map(unbracket),
    targetPorts: v.targetPorts.trim(),
    tlsServerName: v.tlsServerName.trim(),
    accessList: cleanList(v.accessList),
  };
}

// ---- forward types ----------------------------------------------------------------------------

/**
 * Ticking `tcp` (both families on one socket) clears `tcp4`/`tcp6` and the other way round,
 * since the schema does not let them combine; the same for UDP.
 */
export function toggleForwardType(current: readonly ForwardType[], type: ForwardType, on: boolean): ForwardType[] {
  const proto = protocolOf(type);
  const dual = type === proto;
  const next = new Set(current);
  if (!on) next.delete(type);
  else {
    next.add(type);
    for (const t of current) {
      if (protocolOf(t) === proto && (t === proto) !== dual) next.delete(t);
    }
  }
  return FORWARD_TYPES.filter((t) => next.has(t));
}

export const hasTcp = (types: readonly ForwardType[] | undefined) => (types ?? []).some((t) => t.startsWith('tcp'));
export const hasUdp = (types: readonly ForwardType[] | undefined) => (types ?? []).some((t) => t.startsWith('udp'));

// ---- checks (undefined = fine) ----------------------------------------------------------------

export function checkForwardTypes(types: readonly ForwardType[] | undefined): Issue | undefined {
  const set = new Set(types ?? []);
  if (set.size === 0) return { code: 'typesRequired' };
  if (
    (set.has('tcp') && (set.has('tcp4') || set.has('tcp6'))) ||
    (set.has('udp') && (set.has('udp4') || set.has('udp6')))
  )
    return { code: 'typesOverlap' };
  return undefined;
}

export function checkListenAddress(address: string | undefined, types: readonly ForwardType[] | undefined) {
  const a = unbracket((address ?? '').trim());
  if (a === '') return undefined;
  if (!isIp(a)) return { code: 'listenAddressInvalid' } satisfies Issue;
  if ((types ?? []).some((t) => !bindFor(t, a))) return { code: 'listenAddressFamily' } satisfies Issue;
  return undefined;
}

export function checkListenPorts(ports: string | undefined): Issue | undefined {
  const r = parsePortList(ports ?? '');
  if (r.ok) return undefined;
  if (r.code === 'portsRequired') return { code: 'listenPortsRequired' };
  return { code: r.code, params: { token: r.token } };
}

export function checkTargetPorts(target: string | undefined, listen: string | undefined): Issue | undefined {
  const r = parsePortList(target ?? '');
  if (!r.ok) {
    if (r.code === 'portsRequired') return { code: 'targetPortsRequired' };
    return { code: r.code, params: { token: r.token } };
  }
  const l = parsePortList(listen ?? '');
  if (l.ok && !pairPorts(listen ?? '', target ?? ''))
    return { code: 'targetPortsCount', params: { count: l.ports.length } };
  return undefined;
}

export function checkTargetAddresses(list: readonly string[] | undefined): Issue | undefined {
  const clean = cleanList(list).map(unbracket);
  if (clean.length === 0) return { code: 'targetAddressRequired' };
  const bad = clean.find((a) => !isTargetAddress(a));
  if (bad) return { code: 'targetAddressInvalid', params: { token: bad } };
  if (clean.length > L.targetAddresses.max) return { code: 'tooBig', params: { max: L.targetAddresses.max } };
  return undefined;
}

/** A port forwarded to itself (on this machine), once the ports and addresses are valid. */
export function checkForwardLoop(v: Partial<RuleFormValues>): Issue | undefined {
  const input = valuesToInput({ ...newRuleValues(), ...v });
  if (checkListenAddress(input.listenAddress, input.forwardTypes)) return undefined;
  const loop = findForwardLoop({
    forwardTypes: input.forwardTypes,
    listenAddress: input.listenAddress ?? '',
    listenPorts: input.listenPorts,
    targetPorts: input.targetPorts,
    targetAddresses: input.targetAddresses,
  });
  return loop ? { code: 'forwardLoop', params: { port: loop.port } } : undefined;
}

export function checkAccessList(mode: string | undefined, list: readonly string[] | undefined): Issue | undefined {
  const clean = cleanList(list);
  if (mode === 'whitelist' && clean.length === 0) return { code: 'accessListRequired' };
  const bad = clean.find((a) => !isCidrOrIp(a));
  if (bad) return { code: 'accessListInvalid', params: { token: bad } };
  if (clean.length > L.accessList.max) return { code: 'tooBig', params: { max: L.accessList.max } };
  return undefined;
}

export function checkTlsMode(mode: string | undefined, types: readonly ForwardType[] | undefined): Issue | undefined {
  return mode && mode !== 'none' && !hasTcp(types) ? { code: 'tlsNeedsTcp' } : undefined;
}

/**
 * A pasted certificate needs its key and the other way round. A stored key reads as SECRET_MASK
 * in the field and is sent back so (the server keeps it); emptying the field clears it.
 */
export function checkTlsPair(v: Pick<RuleFormValues, 'tlsMode' | 'tlsCert' | 'tlsKey'>) {
  if (v.tlsMode !== 'terminate') return undefined;
  const cert = v.tlsCert.trim() !== '';
  const key = v.tlsKey.trim() !== '';
  if (cert && !key) return { field: 'tlsKey', code: 'tlsKeyRequired' } satisfies FieldIssue;
  if (!cert && key) return { field: 'tlsCert', code: 'tlsCertRequired' } satisfies FieldIssue;
  return undefined;
}

/** The whole rule through the server's own schema, as a last check before sending: the first problem with its field. */
export function checkWholeRule(input: PortforwardRuleInput): FieldIssue | undefined {
  const r = portforwardRuleInputSchema.safeParse(input);
  if (r.success) return undefined;
  // With the schema, a number out of range names its whole range.
  const issue = portforwardIssues.fromZod(r.error.issues[0], portforwardRuleInputSchema);
  return { field: issue.field, code: issue.code, params: issue.params };
}

// ---- where a field lives ----------------------------------------------------------------------

export type PanelKey = 'limits' | 'tls' | 'access' | 'log';

const PANEL_OF: Partial<Record<RuleField, PanelKey>> = {
  maxTcpConnections: 'limits',
  maxUdpSessions: 'limits',
  perIpMaxConnections: 'limits',
  tcpIdleTimeoutMs: 'limits',
  udpTimeoutMs: 'limits',
  udpPacketSize: 'limits',
  speedLimitIn: 'limits',
  speedLimitOut: 'limits',
  tlsMode: 'tls',
  tlsCert: 'tls',
  tlsKey: 'tls',
  tlsCa: 'tls',
  tlsServerName: 'tls',
  tlsSkipVerify: 'tls',
  accessMode: 'access',
  accessList: 'access',
  logLevel: 'log',
  logCapacity: 'log',
  logShowLatest: 'log',
  logToConsole: 'log',
};

export const panelOf = (field: RuleField): PanelKey | undefined => PANEL_OF[field];

/** The form item of a server field path (`targetAddresses.1` → `targetAddresses`). */
export function formFieldOf(path: string): RuleField | undefined {
  const head = path.split('.')[0];
  return (RULE_FIELDS as string[]).includes(head) ? (head as RuleField) : undefined;
}

/** The server names a list entry by index; the message names the entry itself. */
export function withToken(issue: FieldIssue, values: RuleFormValues): FieldIssue {
  const [head, index] = issue.field.split('.');
  if (index === undefined || issue.params?.token) return issue;
  const list = head === 'targetAddresses' || head === 'accessList' ? cleanList(values[head]) : [];
  const token = list[Number(index)];
  return token ? { ...issue, params: { ...issue.params, token } } : issue;
}

// ---- speeds -----------------------------------------------------------------------------------

/** KB/s and MB/s in base 1000, like every size on screen (spec §9). */
export const SPEED_UNITS = { kb: 1000, mb: 1_000_000 } as const;
export type SpeedUnit = keyof typeof SPEED_UNITS;

/** MB/s when the value is a whole number of KB and at least 1 MB/s, else KB/s. */
export function speedUnitFor(bytesPerSecond: number): SpeedUnit {
  return bytesPerSecond >= SPEED_UNITS.mb && bytesPerSecond % 1000 === 0 ? 'mb' : 'kb';
}

/** Empty = 0 (no limit); a negative or too large amount is kept, for the form rule to refuse (speedRule). */
export function toBytesPerSecond(amount: number | null | undefined, unit: SpeedUnit): number {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return 0;
  return Math.round(amount * SPEED_UNITS[unit]);
}
