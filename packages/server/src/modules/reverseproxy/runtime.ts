import {
  type ReverseproxyConfig,
  type ReverseproxyRule,
  type ReverseproxyRuleStatus,
  REVERSEPROXY_WARNINGS as W,
} from '@lucky/shared';
import type { RuleLog } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { ConnectionGuard, defaultLimits } from '../../core/net/connGuard.js';
import { isLanAddress } from '../../core/net/lan.js';
import type { HttpListener } from '../../core/serve/listener.js';
import { TrafficMeter } from '../../core/serve/trafficMeter.js';
import { AccessLogs } from './accessLog.js';
import type { createHandlers, RuleState } from './handler.js';
import type { HelperPool } from './helperPool.js';
import type { Backends } from './proxy.js';
import { RouteTable } from './router.js';
import { listenOptions } from './ruleOptions.js';

/** The serving half (listeners, proxy, file server), loaded on first use: see dataPlane.ts. */
type DataPlane = typeof import('./dataPlane.js');

interface Slot {
  rule: ReverseproxyRule;
  logs: AccessLogs;
  /** What the handlers read; set once the rule has been enabled (kept while it is off). */
  state?: RuleState;
  handlers?: ReturnType<typeof createHandlers>;
  listener?: HttpListener;
  /** `address|port` the listener is bound to. */
  bound?: string;
  /** Port opened in the host firewall for this rule (firewall auto-allow). */
  firewallPort?: number;
  status: ReverseproxyRuleStatus;
  /** Live figures of the current listener (a new one, on a new address or port, starts at 0). */
  meter?: TrafficMeter;
}

/** How often the live figures (status.traffic) are taken. */
const SAMPLE_MS = 1000;

/**
 * One listener per enabled rule. A reload swaps each rule's route table and
 * log settings in place; only a rule whose address or port changed gets a new
 * socket. A rule that cannot listen says why in its status while the others serve.
 */
export class ReverseproxyRuntime implements ModuleRuntime<ReverseproxyConfig> {
  private slots = new Map<string, Slot>();
  private plane?: Plane;
  private sampler?: NodeJS.Timeout;

  constructor(private readonly ctx: ModuleContext) {}

  /** Take every listening rule's figures: its own connections and those of the helper processes. */
  private sample(): void {
    for (const [key, slot] of this.slots) {
      if (!slot.listener || !slot.meter || !slot.handlers) continue;
      const here = slot.listener.traffic();
      const helpers = this.plane?.helpers.traffic(key) ?? [0, 0, 0, 0];
      slot.meter.sample({
        connections: here.connections + helpers[3],
        requests: slot.handlers.requestCount() + helpers[2],
        bytesIn: here.bytesIn + helpers[0],
        bytesOut: here.bytesOut + helpers[1],
      });
    }
  }

  async start(config: ReverseproxyConfig): Promise<void> {
    await this.apply(config);
  }

  async reload(next: ReverseproxyConfig): Promise<void> {
    await this.apply(next);
  }

  async stop(): Promise<void> {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = undefined;
    await Promise.all([...this.slots].map(([key, slot]) => this.closeListener(key, slot)));
    for (const [key, slot] of this.slots) if (slot.firewallPort) await this.firewall(key, slot, undefined);
    this.slots.clear();
    await this.plane?.helpers.close();
    await this.plane?.backends.close();
  }

  private async dataPlane(): Promise<Plane> {
    if (!this.plane) {
      const code = await import('./dataPlane.js');
      if (code.llhttpProblem && !this.plane) {
        this.ctx.log.warn(
          `node's HTTP/1 parser failed its start-up self-test (${code.llhttpProblem}): HTTP/1 is served and back ends are reached through node:http (slower)`,
        );
      }
      this.plane ??= {
        code,
        backends: new code.Backends(),
        guard: new ConnectionGuard('web service', this.ctx.webLimits ?? defaultLimits, isLanAddress, (line) =>
          this.ctx.log.warn(line),
        ),
        helpers: new code.HelperPool({
          ...code.helperSettings(),
          log: this.ctx.log,
          certs: this.ctx.certs,
          onLine: ([ruleKey, siteKey, level, text, at]) =>
            this.slots.get(ruleKey)?.logs.get(siteKey)?.add(level, text, at),
          connectionsHere: () => {
            let n = 0;
            for (const s of this.slots.values()) n += s.listener?.connectionCount ?? 0;
            return n;
          },
        }),
      };
    }
    return this.plane;
  }

  /** The rule no longer listens here: helper processes close its connections too. */
  private async closeListener(key: string, slot: Slot): Promise<void> {
    // Helpers first: the listening server's close waits for the connections it handed out.
    this.plane?.helpers.dropRule(key);
    await slot.listener?.close();
    slot.listener = undefined;
    slot.bound = undefined;
  }

  status() {
    const rules: Record<string, ReverseproxyRuleStatus> = {};
    for (const [k, s] of this.slots) rules[k] = s.status;
    const failing = Object.values(rules).filter((r) => r.state === 'error').length;
    // Switched on but with no rule switched on, nothing listens: the module is stopped, not running.
    const active = Object.values(rules).some((r) => r.state !== 'disabled' && r.state !== 'stopped');
    return {
      state: active ? ('running' as const) : ('stopped' as const),
      error: failing ? `${failing} rule(s) could not start` : undefined,
      details: { rules: Object.keys(rules).length, failing, helperProcesses: this.plane?.helpers.size ?? 0 },
    };
  }

  ruleStatus(key: string): ReverseproxyRuleStatus {
    const slot = this.slots.get(key);
    if (!slot) return { state: 'stopped', warnings: [] };
    return slot.listener && slot.meter ? { ...slot.status, traffic: slot.meter.figures } : slot.status;
  }

  log(ruleKey: string, siteKey: string): RuleLog | undefined {
    return this.slots.get(ruleKey)?.logs.get(siteKey);
  }

  /**
   * Keep the rule's host-firewall opening in step with its listener: `port` open (TCP), or
   * none. A failure becomes a warning with the reason; the rule serves regardless.
   */
  private async firewall(key: string, slot: Slot, port: number | undefined, warnings?: string[]): Promise<void> {
    const fw = this.ctx.firewall;
    if (!fw || (port === undefined && slot.firewallPort === undefined)) return;
    if (port === slot.firewallPort && port !== undefined) return;
    const r = await fw.set(FIREWALL_OWNER + key, port === undefined ? [] : [{ proto: 'tcp', port }]);
    slot.firewallPort = r.ok ? port : undefined;
    if (!r.ok) {
      warnings?.push(`${W.firewallFailed}: ${r.reason}`);
      this.ctx.log.warn(`rule ${slot.rule.name || key}: ${W.firewallFailed}: ${r.reason}`);
    }
  }

  private async apply(config: ReverseproxyConfig): Promise<void> {
    const keep = new Set(config.rules.map((r) => r.key));
    for (const [key, slot] of this.slots) {
      if (keep.has(key)) continue;
      await this.closeListener(key, slot);
      await this.firewall(key, slot, undefined);
      this.slots.delete(key);
    }
    // Free the sockets that move away before binding new ones (two rules may swap ports).
    for (const rule of config.rules) {
      const slot = this.slots.get(rule.key);
      if (slot?.listener && (!rule.enable || slot.bound !== bindKey(rule))) await this.closeListener(rule.key, slot);
    }
    for (const rule of config.rules) await this.applyRule(rule);
  }

  private async applyRule(rule: ReverseproxyRule): Promise<void> {
    let slot = this.slots.get(rule.key);
    if (!slot) {
      slot = { rule, logs: new AccessLogs(this.ctx.log), status: { state: 'stopped', warnings: [] } };
      this.slots.set(rule.key, slot);
    }
    slot.rule = rule;
    slot.logs.configure(rule);
    const warnings = warningsOf(rule, this.ctx.certs?.hasAny() ?? false);
    if (!rule.enable) {
      await this.firewall(rule.key, slot, undefined);
      slot.status = { state: 'disabled', warnings };
      return;
    }
    const plane = await this.dataPlane();
    slot.state = { table: new RouteTable(rule), logs: slot.logs, backends: plane.backends };
    if (!slot.handlers) {
      // The handlers read the slot's current state: a reload swaps it, not the listener.
      const current = slot;
      slot.handlers = plane.code.createHandlers(() => current.state as RuleState);
    }
    if (slot.listener && slot.bound === bindKey(rule)) {
      slot.listener.configure(listenOptions(rule));
      plane.helpers.setRule(rule);
      await this.firewall(rule.key, slot, rule.firewallAutoAllow ? slot.status.port : undefined, warnings);
      slot.status = { ...slot.status, state: 'running', error: undefined, warnings };
      return;
    }
    const key = rule.key;
    const listener = new plane.code.HttpListener(
      slot.handlers,
      this.ctx.certs,
      listenOptions(rule),
      (socket) => plane.helpers.handOff(key, socket),
      plane.guard,
    );
    try {
      const port = await listenOn(listener, rule.address, rule.port);
      slot.listener = listener;
      slot.bound = bindKey(rule);
      slot.meter = new TrafficMeter();
      this.sampler ??= this.ctx.setInterval(() => this.sample(), SAMPLE_MS);
      this.sampler.unref?.();
      plane.helpers.setRule(rule);
      await this.firewall(rule.key, slot, rule.firewallAutoAllow ? port : undefined, warnings);
      slot.status = { state: 'running', warnings, port };
      this.ctx.log.info(
        `rule ${rule.name || rule.key} listening on ${rule.address || '*'}:${port} (${rule.listenTypes})`,
      );
    } catch (err) {
      await listener.close();
      await this.firewall(rule.key, slot, undefined);
      const reason = `cannot listen on ${rule.address || '*'}:${rule.port}: ${(err as Error).message}`;
      slot.status = { state: 'error', error: reason, warnings };
      this.ctx.log.error(`rule ${rule.name || rule.key}: ${reason}`);
    }
  }
}

interface Plane {
  code: DataPlane;
  backends: Backends;
  helpers: HelperPool;
  /** Connection caps over all the rules' listeners in this process. */
  guard: ConnectionGuard;
}

const FIREWALL_OWNER = 'reverseproxy:';

const bindKey = (r: ReverseproxyRule) => `${r.address}|${r.port}`;

function warningsOf(rule: ReverseproxyRule, haveCerts: boolean): string[] {
  const w: string[] = [];
  if (rule.http3) w.push(W.http3Unsupported);
  if (rule.listenTypes !== 'http' && !haveCerts) w.push(W.noCertificate);
  return w;
}

async function listenOn(l: HttpListener, address: string, port: number): Promise<number> {
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
