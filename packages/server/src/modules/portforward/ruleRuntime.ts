import { fillTemplate, PORTFORWARD_LOG, type PortforwardRule, type PortforwardSettings } from '@lucky/shared';
import type { CertResolver } from '../../core/certs/resolver.js';
import type { Logger } from '../../core/logs/logger.js';
import { RuleLog, type RuleLogLevel } from '../../core/logs/ruleLog.js';
import { createIpMatcher } from '../../core/net/lan.js';
import { type Scope as LimitScope, Occupancy, TokenBucket } from '../../core/relay/limits.js';
import { buildRuleTls, type RuleTls } from './ruleTls.js';

/** Module-wide state every proxy shares: the global settings, the global counts, the program log, the certificates. */
export interface ModuleShared {
  settings: PortforwardSettings;
  /** Global TCP connections, UDP sessions and per-address counts, with the global caps. */
  scope: Scope;
  log: Logger;
  /** The certificate store (ctx.certs), asked per TLS handshake. */
  certs: CertResolver;
  /** The global security lists (ctx.safe.admits): asked for each new connection or UDP session first. */
  admits(ip: string): boolean;
}

export type LogCode = keyof typeof PORTFORWARD_LOG;

/** Port forwarding counts its limits module-wide (`global`) and per rule; a refusal's log code is `<scope>TcpLimit` …. */
export type Scope = LimitScope<'global' | 'rule'>;

export function moduleScope(): Scope {
  return { name: 'global', occupancy: new Occupancy(), caps: { tcp: 0, udp: 0, perIp: 0 } };
}

export function setModuleCaps(scope: Scope, s: PortforwardSettings): void {
  scope.caps = { tcp: s.maxTcpConnections, udp: s.maxUdpSessions, perIp: s.perIpMaxConnections };
}

/**
 * The live side of one rule, kept across edits: its log, its counts, its speed limiters and the
 * round-robin position. An edit swaps the settings in place, so open connections keep counting
 * into the same figures and new ones see the new targets and limits at once.
 */
export class RuleRuntime {
  rule: PortforwardRule;
  readonly log: RuleLog;
  readonly scope: Scope;
  /** Rule-wide speed limits, client → target and back. */
  readonly bucketIn = new TokenBucket(0);
  readonly bucketOut = new TokenBucket(0);
  tls: RuleTls = {};
  private allow: (ip: string) => boolean = () => true;
  private roundRobin = 0;

  constructor(
    rule: PortforwardRule,
    readonly shared: ModuleShared,
  ) {
    this.rule = rule;
    this.log = new RuleLog(logOptions(rule), shared.log.child(rule.name || rule.key));
    this.scope = { name: 'rule', occupancy: new Occupancy(), caps: { tcp: 0, udp: 0, perIp: 0 } };
    this.update(rule);
  }

  /**
   * A coded line of the rule's log: the UI shows `portforward.log_<code>` with the params, the
   * English text is the module's template. Callers of busy lines check `log.wants(level)` first.
   */
  line(level: RuleLogLevel, code: LogCode, params: Record<string, unknown>): void {
    this.log.coded(level, code, params, fillTemplate(PORTFORWARD_LOG[code], params));
  }

  /** Apply an edited rule in place. Returns true when the access list changed (open connections are re-checked). */
  update(rule: PortforwardRule): boolean {
    const accessChanged =
      rule.accessMode !== this.rule.accessMode || rule.accessList.join('\n') !== this.rule.accessList.join('\n');
    if (rule.name !== this.rule.name) this.log.setConsole(this.shared.log.child(rule.name || rule.key));
    this.rule = rule;
    this.log.configure(logOptions(rule));
    this.scope.caps = { tcp: rule.maxTcpConnections, udp: rule.maxUdpSessions, perIp: rule.perIpMaxConnections };
    this.bucketIn.setRate(rule.speedLimitIn);
    this.bucketOut.setRate(rule.speedLimitOut);
    this.tls = buildRuleTls(rule, this.shared.certs);
    if (rule.accessMode === 'off') this.allow = () => true;
    else {
      const listed = createIpMatcher(rule.accessList);
      this.allow = rule.accessMode === 'whitelist' ? listed : (ip) => !listed(ip);
    }
    return accessChanged;
  }

  /** The black/white list verdict for a client address. */
  allows(ip: string): boolean {
    return this.allow(ip);
  }

  /** Module scope first, then the rule: the order the limits are checked in. */
  scopes(): Scope[] {
    return [this.shared.scope, this.scope];
  }

  /** Target addresses in the order to try: round-robin start, the rest as fail-over. */
  targetOrder(): string[] {
    const list = this.rule.targetAddresses;
    const start = this.roundRobin++ % list.length;
    return [...list.slice(start), ...list.slice(0, start)];
  }

  /** A per-connection limiter for each direction when the global per-connection cap is set. */
  connectionBuckets(): { in: TokenBucket[]; out: TokenBucket[] } {
    const cap = this.shared.settings.connectionSpeedLimit;
    const extra = (): TokenBucket[] => (cap > 0 ? [new TokenBucket(cap)] : []);
    const inb = this.rule.speedLimitIn > 0 ? [this.bucketIn] : [];
    const outb = this.rule.speedLimitOut > 0 ? [this.bucketOut] : [];
    return { in: [...inb, ...extra()], out: [...outb, ...extra()] };
  }
}

function logOptions(rule: PortforwardRule) {
  return { level: rule.logLevel, capacity: rule.logCapacity, toConsole: rule.logToConsole };
}

/** `host:port` with IPv6 in brackets; IPv4-mapped addresses shown as IPv4. */
export function hostPort(host: string, port: number | string): string {
  const h = unmapped(host);
  return h.includes(':') ? `[${h}]:${port}` : `${h}:${port}`;
}

/** `::ffff:1.2.3.4` → `1.2.3.4`, so lists and limits see one spelling of an IPv4 client. */
export function unmapped(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
