// Port lists, the proxies a rule expands into, and the cross-rule checks (rule-count limit,
// listen-port conflicts) of the port-forwarding module. Pure functions, shared by the form
// and the server so both reject the same input with the same field and code.
import { isIpv4 } from '../net.js';

export const FORWARD_TYPES = ['tcp4', 'tcp6', 'udp4', 'udp6', 'tcp', 'udp'] as const;
export type ForwardType = (typeof FORWARD_TYPES)[number];
export type ForwardProtocol = 'tcp' | 'udp';

export type PortListResult =
  | { ok: true; ports: number[] }
  | { ok: false; code: 'portsRequired' | 'portListInvalid' | 'portListDuplicate'; token?: string };

/**
 * `80,8080-8090` → [80, 8080, …, 8090]. Items are single ports or ranges `a-b` with
 * 1 ≤ a < b ≤ 65535; spaces around items are ignored; a port listed twice is an error.
 */
export function parsePortList(input: string): PortListResult {
  const text = (input ?? '').trim();
  if (text === '') return { ok: false, code: 'portsRequired' };
  const ports: number[] = [];
  const seen = new Set<number>();
  for (const raw of text.split(',')) {
    const token = raw.trim();
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(token);
    if (!m) return { ok: false, code: 'portListInvalid', token };
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (a < 1 || b > 65535 || (m[2] !== undefined && a >= b)) return { ok: false, code: 'portListInvalid', token };
    for (let p = a; p <= b; p++) {
      if (seen.has(p)) return { ok: false, code: 'portListDuplicate', token: String(p) };
      seen.add(p);
      ports.push(p);
    }
  }
  return { ok: true, ports };
}

/** The bind of one proxy: protocol, address, IPv6-only flag, port. */
export interface ListenBind {
  protocol: ForwardProtocol;
  /** Address handed to bind(): `0.0.0.0`, `::` or the rule's literal. */
  host: string;
  /** `tcp6`/`udp6` on `::` take IPv6 only; `tcp`/`udp` on `::` take both families. */
  ipv6Only: boolean;
  port: number;
}

/** One (forward type × listen port) of a rule: what the runtime opens and the list shows. */
export interface ProxySpec extends ListenBind {
  /** `tcp6@:8080`, `udp4@192.168.1.2:53`, `tcp@[::1]:22` — unique within a rule. */
  id: string;
  type: ForwardType;
  targetPort: number;
}

/** The fields of a rule that decide its proxies. */
export interface RulePorts {
  forwardTypes: readonly ForwardType[];
  listenAddress: string;
  listenPorts: string;
  targetPorts: string;
}

export const protocolOf = (t: ForwardType): ForwardProtocol => (t.startsWith('tcp') ? 'tcp' : 'udp');

/** Where a forward type binds for a listen address ('' = any). Undefined when the family does not fit. */
export function bindFor(type: ForwardType, listenAddress: string): Omit<ListenBind, 'port'> | undefined {
  const protocol = protocolOf(type);
  const family = type.endsWith('4') ? 4 : type.endsWith('6') ? 6 : 0;
  if (listenAddress === '') {
    if (family === 4) return { protocol, host: '0.0.0.0', ipv6Only: false };
    return { protocol, host: '::', ipv6Only: family === 6 };
  }
  const v4 = isIpv4(listenAddress);
  if ((family === 4 && !v4) || (family === 6 && v4)) return undefined;
  return { protocol, host: listenAddress, ipv6Only: !v4 };
}

/** Listen ports paired with target ports: same count, or one target port for all. */
export function pairPorts(listenPorts: string, targetPorts: string): [number, number][] | undefined {
  const l = parsePortList(listenPorts);
  const t = parsePortList(targetPorts);
  if (!l.ok || !t.ok) return undefined;
  if (t.ports.length !== 1 && t.ports.length !== l.ports.length) return undefined;
  return l.ports.map((p, i) => [p, t.ports.length === 1 ? t.ports[0] : t.ports[i]]);
}

/** Count of proxies a rule expands into (types × ports), 0 when its ports do not parse. */
export function proxyCount(rule: RulePorts): number {
  const l = parsePortList(rule.listenPorts);
  return l.ok ? l.ports.length * new Set(rule.forwardTypes).size : 0;
}

/** The proxies of a valid rule (invalid parts are skipped; the schema reports them). */
export function proxySpecs(rule: RulePorts): ProxySpec[] {
  const pairs = pairPorts(rule.listenPorts, rule.targetPorts) ?? [];
  const out: ProxySpec[] = [];
  const shown = rule.listenAddress.includes(':') ? `[${rule.listenAddress}]` : rule.listenAddress;
  for (const type of new Set(rule.forwardTypes)) {
    const bind = bindFor(type, rule.listenAddress);
    if (!bind) continue;
    for (const [port, targetPort] of pairs) {
      out.push({ ...bind, id: `${type}@${shown}:${port}`, type, port, targetPort });
    }
  }
  return out;
}

/** IPv6 text to 8 groups (lower case), so `::1` and `0:0::1` compare equal. */
function canonicalIp(host: string): string {
  const h = host.toLowerCase();
  if (!h.includes(':')) return h;
  const [left, right = ''] = h.split('%')[0].split('::');
  const l = left ? left.split(':') : [];
  const r = h.includes('::') && right ? right.split(':') : [];
  const fill = h.includes('::') ? new Array(Math.max(0, 8 - l.length - r.length)).fill('0') : [];
  return [...l, ...fill, ...r].map((g) => g.replace(/^0+(?=.)/, '')).join(':');
}

/** True when two binds of the same protocol and port would fight over the port. */
export function bindsOverlap(a: ListenBind, b: ListenBind): boolean {
  if (a.protocol !== b.protocol || a.port !== b.port) return false;
  const cover = (x: ListenBind) => ({
    any4: x.host === '0.0.0.0' || (x.host === '::' && !x.ipv6Only),
    any6: x.host === '::',
    v4: isIpv4(x.host) && x.host !== '0.0.0.0' ? x.host : undefined,
    v6: x.host.includes(':') && x.host !== '::' ? canonicalIp(x.host) : undefined,
  });
  const ca = cover(a);
  const cb = cover(b);
  if ((ca.any4 && (cb.any4 || cb.v4)) || (cb.any4 && ca.v4)) return true;
  if ((ca.any6 && (cb.any6 || cb.v6)) || (cb.any6 && ca.v6)) return true;
  return (ca.v4 !== undefined && ca.v4 === cb.v4) || (ca.v6 !== undefined && ca.v6 === cb.v6);
}

/** Addresses a target names on this machine for sure: loopback, `localhost`, the unspecified address. */
function localTargets(target: string): string[] {
  const t = target.toLowerCase();
  if (t === 'localhost') return ['127.0.0.1', '::1'];
  if (t === '0.0.0.0' || /^127\.\d+\.\d+\.\d+$/.test(t)) return [t === '0.0.0.0' ? '127.0.0.1' : t];
  if (t === '::' || canonicalIp(t) === canonicalIp('::1')) return ['::1'];
  return [];
}

/**
 * The first proxy of a rule whose target is the proxy itself (e.g. `tcp@:8080` → `127.0.0.1:8080`).
 * Families count: `tcp6@:8080` → `127.0.0.1:8080` is a real IPv6-to-IPv4 bridge, not a loop.
 */
export function findForwardLoop(rule: RulePorts & { targetAddresses: readonly string[] }): ProxySpec | undefined {
  for (const spec of proxySpecs(rule)) {
    for (const target of rule.targetAddresses) {
      const local = localTargets(target);
      // A non-loopback target loops only when it is the literal listening address.
      const hits = local.length > 0 ? local : spec.host === target ? [target] : [];
      for (const host of hits) {
        if (bindsOverlap(spec, { protocol: spec.protocol, host, ipv6Only: host.includes(':'), port: spec.targetPort }))
          return spec;
      }
    }
  }
  return undefined;
}

/** A problem found across rules; `ruleKey` is the rule it is reported on, `otherKey` the one it clashes with. */
export interface ConfigIssue {
  ruleKey?: string;
  otherKey?: string;
  field: string;
  code: 'ruleLimitExceeded' | 'portConflict';
  params: Record<string, string | number>;
}

interface CheckedRule extends RulePorts {
  key: string;
  name: string;
  enabled: boolean;
}

/**
 * Checks a whole config before it is saved: the proxy count over all rules (enabled or not,
 * so switching a rule on never breaks the limit) and listen ports that two enabled rules share.
 */
export function checkPortforwardRules(rules: readonly CheckedRule[], ruleLimit: number): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const total = rules.reduce((n, r) => n + proxyCount(r), 0);
  if (total > ruleLimit) {
    issues.push({
      ruleKey: rules[rules.length - 1]?.key,
      field: 'listenPorts',
      code: 'ruleLimitExceeded',
      params: { count: total, limit: ruleLimit },
    });
  }
  // Group binds by protocol and port, so only candidates that can clash are compared.
  const byPort = new Map<string, { rule: CheckedRule; spec: ProxySpec }[]>();
  for (const rule of rules) {
    if (!rule.enabled) continue;
    for (const spec of proxySpecs(rule)) {
      const k = `${spec.protocol}/${spec.port}`;
      const list = byPort.get(k) ?? [];
      const clash = list.find((o) => o.rule.key !== rule.key && bindsOverlap(o.spec, spec));
      if (clash) {
        issues.push({
          ruleKey: rule.key,
          otherKey: clash.rule.key,
          field: 'listenPorts',
          code: 'portConflict',
          params: { port: spec.port, protocol: spec.protocol, rule: clash.rule.name || clash.rule.key },
        });
        break;
      }
      list.push({ rule, spec });
      byPort.set(k, list);
    }
  }
  return issues;
}
