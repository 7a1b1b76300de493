import {
  type PortforwardConfig,
  type PortforwardProxyStatus,
  type PortforwardRule,
  type PortforwardRuleView,
  type PortforwardSummary,
  proxySpecs,
} from '@lucky/shared';
import { hostPort } from './ruleRuntime.js';
import type { PortforwardRuntime } from './runtime.js';
import { TcpProxy } from './tcpProxy.js';

/** The list summary when the runtime is not there (module stopped or failed to start). */
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

/**
 * A rule with its live figures, per port and summed. Ports of a rule that is off (or of a
 * module that is off) are listed as stopped, so the list always shows what the rule means.
 * The TLS private key is never sent back: `tlsKeySet` says whether one is stored.
 */
export function ruleView(
  rule: PortforwardRule,
  config: PortforwardConfig,
  rt: PortforwardRuntime | undefined,
): PortforwardRuleView {
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
      ...(p?.error ? { error: p.error } : {}),
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
  const ruleError = rt?.ruleError(rule.key);
  let state: PortforwardRuleView['state'] = 'running';
  let error: string | undefined;
  if (!config.enabled || !rt) state = 'stopped';
  else if (!rule.enabled) state = 'disabled';
  else if (ruleError) {
    state = 'error';
    error = ruleError;
  } else if (failed.length) {
    state = 'error';
    error = `${failed.length} of ${proxies.length} port(s) not running: ${failed[0].error}`;
  }
  const log = rt?.rule(rule.key)?.log;
  return {
    ...rule,
    tlsKey: '',
    tlsKeySet: rule.tlsKey.trim() !== '',
    state,
    ...(error ? { error } : {}),
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
