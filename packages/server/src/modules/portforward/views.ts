import {
  type CodedText,
  PORTFORWARD_SECRETS,
  type PortforwardConfig,
  type PortforwardProxyStatus,
  type PortforwardRule,
  type PortforwardRuleView,
  type PortforwardSettings,
  type PortforwardSummary,
  proxySpecs,
} from '@lucky/shared';
import { hostPort } from './ruleRuntime.js';
import { usesCertStore } from './ruleTls.js';
import { type PortforwardRuntime, reason } from './runtime.js';
import { TcpProxy } from './tcpProxy.js';

/** The secrets of one rule, by path inside the rule (`tlsKey`): the keyed-list routes mask and keep them. */
export const RULE_SECRETS = PORTFORWARD_SECRETS.map((p) => p.replace(/^rules\.\*\./, ''));

/** The list summary when the runtime is not there (module switched off, or failed to start). */
function idleSummary(config: PortforwardConfig): PortforwardSummary {
  return {
    enabled: config.enabled,
    rules: config.rules.length,
    proxies: 0,
    proxyLimit: config.ruleLimit,
    tcpConnections: 0,
    maxTcpConnections: config.maxTcpConnections,
    udpSessions: 0,
    maxUdpSessions: config.maxUdpSessions,
    bytesIn: 0,
    bytesOut: 0,
    rateIn: 0,
    rateOut: 0,
  };
}

export function summaryView(config: PortforwardConfig, rt: PortforwardRuntime | undefined): PortforwardSummary {
  return rt ? rt.summary() : idleSummary(config);
}

/** The global settings as read (the slice without its rules). */
export function settingsView({ rules: _rules, ...settings }: PortforwardConfig): PortforwardSettings {
  return settings;
}

const coded = (r: CodedText | undefined) => (r ? { reason: { code: r.code, params: r.params }, error: r.text } : {});

/**
 * A rule with its live figures, per port and summed. Ports of a rule that is off (or of a
 * module that is off) are listed as stopped, so the list always shows what the rule means.
 * `rule` comes with its secrets masked (SECRET_MASK when set, '' when not); reasons are code +
 * params + English.
 */
export function ruleView(rule: PortforwardRule, rt: PortforwardRuntime | undefined): PortforwardRuleView {
  const live = rt?.proxiesOf(rule.key) ?? new Map();
  const proxies: PortforwardProxyStatus[] = proxySpecs(rule).map((spec) => {
    const p = live.get(spec.id);
    const s = p?.stats;
    return {
      id: spec.id,
      protocol: spec.protocol,
      type: spec.type,
      listen: hostPort(spec.host, spec.port),
      port: spec.port,
      targetPort: spec.targetPort,
      state: p?.state ?? 'stopped',
      ...coded(p?.reason),
      connections: p instanceof TcpProxy ? p.connections : 0,
      sessions: s?.sessions ?? 0,
      bytesIn: s?.bytesIn ?? 0,
      bytesOut: s?.bytesOut ?? 0,
      rateIn: s?.rateIn ?? 0,
      rateOut: s?.rateOut ?? 0,
      accepted: s?.accepted ?? 0,
      refused: s?.refused ?? 0,
    };
  });
  const sum = (f: (p: PortforwardProxyStatus) => number) => proxies.reduce((n, p) => n + f(p), 0);
  const failed = proxies.filter((p) => p.state === 'error');
  let state: PortforwardRuleView['state'] = 'running';
  let why: CodedText | undefined;
  if (!rt) state = 'stopped';
  else if (!rule.enabled) state = 'disabled';
  else {
    why = rt.ruleError(rule.key);
    if (!why && failed.length) {
      const first = reason('portsFailed', { failed: failed.length, total: proxies.length });
      // The English text names the first port's reason too; the UI shows each port's own.
      why = { ...first, text: `${first.text}: ${failed[0].error}` };
    }
    if (!why && usesCertStore(rule) && !rt.certificatesAvailable()) why = reason('noCertificate');
    if (why) state = 'error';
  }
  const log = rt?.rule(rule.key)?.log;
  return {
    ...rule,
    state,
    ...coded(why),
    connections: sum((p) => p.connections),
    sessions: sum((p) => p.sessions),
    bytesIn: sum((p) => p.bytesIn),
    bytesOut: sum((p) => p.bytesOut),
    rateIn: sum((p) => p.rateIn),
    rateOut: sum((p) => p.rateOut),
    proxies,
    lastLogs: log ? log.newest(rule.logShowLatest) : [],
  };
}
