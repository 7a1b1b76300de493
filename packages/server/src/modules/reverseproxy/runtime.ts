import type { ReverseproxyConfig, ReverseproxyRule, ReverseproxyRuleStatus } from '@lucky/shared';
import type { RuleLog } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { AccessLogs } from './accessLog.js';
import { createHandlers, type RuleState } from './handler.js';
import { type ListenerOptions, RuleListener } from './listener.js';
import { Backends } from './proxy.js';
import { RouteTable } from './router.js';

interface Slot {
  rule: ReverseproxyRule;
  state: RuleState;
  logs: AccessLogs;
  handlers: ReturnType<typeof createHandlers>;
  listener?: RuleListener;
  /** `address|port` the listener is bound to. */
  bound?: string;
  status: ReverseproxyRuleStatus;
}

const listenOptions = (r: ReverseproxyRule): ListenerOptions => ({
  listenTypes: r.listenTypes,
  minTlsVersion: r.minTlsVersion,
  http2: r.http2,
});

/**
 * One listener per enabled rule. A reload swaps each rule's route table and
 * log settings in place; only a rule whose address or port changed gets a new
 * socket. A rule that cannot listen says why in its status while the others serve.
 */
export class ReverseproxyRuntime implements ModuleRuntime<ReverseproxyConfig> {
  private slots = new Map<string, Slot>();
  private readonly backends = new Backends();

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: ReverseproxyConfig): Promise<void> {
    await this.apply(config);
  }

  async reload(next: ReverseproxyConfig): Promise<void> {
    await this.apply(next);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.slots.values()].map((s) => s.listener?.close()));
    this.slots.clear();
    await this.backends.close();
  }

  status() {
    const rules: Record<string, ReverseproxyRuleStatus> = {};
    for (const [k, s] of this.slots) rules[k] = s.status;
    const failing = Object.values(rules).filter((r) => r.state === 'error').length;
    return {
      error: failing ? `${failing} rule(s) could not start` : undefined,
      details: { rules: Object.keys(rules).length, failing },
    };
  }

  ruleStatus(key: string): ReverseproxyRuleStatus {
    return this.slots.get(key)?.status ?? { state: 'stopped', warnings: [] };
  }

  log(ruleKey: string, siteKey: string): RuleLog | undefined {
    return this.slots.get(ruleKey)?.logs.get(siteKey);
  }

  private async apply(config: ReverseproxyConfig): Promise<void> {
    const keep = new Set(config.rules.map((r) => r.key));
    for (const [key, slot] of this.slots) {
      if (keep.has(key)) continue;
      await slot.listener?.close();
      this.slots.delete(key);
    }
    // Free the sockets that move away before binding new ones (two rules may swap ports).
    for (const rule of config.rules) {
      const slot = this.slots.get(rule.key);
      if (slot?.listener && (!rule.enable || slot.bound !== bindKey(rule))) {
        await slot.listener.close();
        slot.listener = undefined;
        slot.bound = undefined;
      }
    }
    for (const rule of config.rules) await this.applyRule(rule);
  }

  private async applyRule(rule: ReverseproxyRule): Promise<void> {
    let slot = this.slots.get(rule.key);
    const logs = slot?.logs ?? new AccessLogs(this.ctx.log);
    logs.configure(rule);
    const state: RuleState = { table: new RouteTable(rule), logs, backends: this.backends };
    if (!slot) {
      const fresh: Slot = {
        rule,
        state,
        logs,
        handlers: undefined as never,
        status: { state: 'stopped', warnings: [] },
      };
      // The handlers read the slot's current state: a reload swaps it, not the listener.
      fresh.handlers = createHandlers(() => fresh.state);
      slot = fresh;
      this.slots.set(rule.key, slot);
    }
    slot.rule = rule;
    slot.state = state;
    const warnings = warningsOf(rule, this.ctx.certs?.hasAny() ?? false);
    if (!rule.enable) {
      slot.status = { state: 'disabled', warnings };
      return;
    }
    if (slot.listener && slot.bound === bindKey(rule)) {
      slot.listener.configure(listenOptions(rule));
      slot.status = { ...slot.status, state: 'running', error: undefined, warnings };
      return;
    }
    const listener = new RuleListener(
      slot.handlers.onRequest,
      slot.handlers.onUpgrade,
      this.ctx.certs,
      listenOptions(rule),
    );
    try {
      const port = await listenOn(listener, rule.address, rule.port);
      slot.listener = listener;
      slot.bound = bindKey(rule);
      slot.status = { state: 'running', warnings, port };
      this.ctx.log.info(
        `rule ${rule.name || rule.key} listening on ${rule.address || '*'}:${port} (${rule.listenTypes})`,
      );
    } catch (err) {
      await listener.close();
      const reason = `cannot listen on ${rule.address || '*'}:${rule.port}: ${(err as Error).message}`;
      slot.status = { state: 'error', error: reason, warnings };
      this.ctx.log.error(`rule ${rule.name || rule.key}: ${reason}`);
    }
  }
}

const bindKey = (r: ReverseproxyRule) => `${r.address}|${r.port}`;

function warningsOf(rule: ReverseproxyRule, haveCerts: boolean): string[] {
  const w: string[] = [];
  if (rule.http3) w.push('HTTP/3 is not supported by this runtime; HTTP/1.1 and HTTP/2 serve');
  if (rule.firewallAutoAllow) w.push('firewall auto-allow is not done by this runtime');
  if (rule.listenTypes !== 'http' && !haveCerts) w.push('no certificate is stored: HTTPS handshakes fail');
  return w;
}

async function listenOn(l: RuleListener, address: string, port: number): Promise<number> {
  const host = address.replace(/^\[|\]$/g, '');
  if (host) return l.listen(port, host);
  try {
    return await l.listen(port, '::');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EAFNOSUPPORT' || code === 'EADDRNOTAVAIL') return l.listen(port, '0.0.0.0');
    throw err;
  }
}
