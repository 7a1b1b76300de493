import {
  type CodedText,
  type NetworkType,
  type ReverseproxyConfig,
  type ReverseproxyRule,
  type ReverseproxyRuleStatus,
  reverseproxyReason,
} from '@lucky/shared';
import { normalizeIp } from '../../core/http/clientIp.js';
import type { RuleLog } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { type BindState, type BindTarget, PortBinder } from '../../core/net/bindPort.js';
import { ConnectionGuard, defaultLimits, reset } from '../../core/net/connGuard.js';
import { isLanAddress } from '../../core/net/lan.js';
import { type ListsWatch, watchLists } from '../../core/safe/recheck.js';
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
  /** The rule's listener, from the first bind attempt on (bound or still trying: see `binder`). */
  listener?: HttpListener;
  /** Binds the listener, and while the port is taken or the address missing tries again. */
  binder?: PortBinder;
  /** `address|port|network` the listener is for. */
  bound?: string;
  /** The listener holds its port (helpers, firewall and figures follow it). */
  listening?: boolean;
  /** The last bind reason logged (a retry that fails the same way is not logged again). */
  loggedReason?: string;
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
  /** The security lists' changes reach the open connections, here and in the helpers. */
  private lists?: { here: ListsWatch; helpers: () => void };

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
    this.lists?.here.stop();
    this.lists?.helpers();
    this.lists = undefined;
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
          challenges: this.ctx.challenges,
          onLine: ([ruleKey, siteKey, level, text, at, code, params]) =>
            this.slots.get(ruleKey)?.logs.get(siteKey)?.add(level, text, at, code, params),
          onAuthFailure: (ip) => this.ctx.safe.failure(ip),
          admits: (ip) => this.ctx.safe.admits(ip),
          connectionsHere: () => {
            let n = 0;
            for (const s of this.slots.values()) n += s.listener?.connectionCount ?? 0;
            return n;
          },
        }),
      };
      const plane = this.plane;
      // Every rule's connections in this process are in the one guard; those handed to helper
      // processes are asked there (HelperPool.recheck).
      this.lists ??= {
        here: watchLists(this.ctx.safe.onChange, {
          open: () => plane.guard.sockets(),
          ipOf: (s) => (s.destroyed ? undefined : normalizeIp(s.remoteAddress)),
          admits: (ip) => this.ctx.safe.admits(ip),
          close: (s) => reset(s),
        }),
        helpers: this.ctx.safe.onChange(() => plane.helpers.recheck()),
      };
    }
    return this.plane;
  }

  /** The rule no longer listens here: helper processes close its connections too. */
  private async closeListener(key: string, slot: Slot): Promise<void> {
    slot.binder?.stop();
    // Helpers first: the listening server's close waits for the connections it handed out.
    this.plane?.helpers.dropRule(key);
    const listener = slot.listener;
    slot.listener = undefined;
    slot.binder = undefined;
    slot.bound = undefined;
    slot.listening = false;
    slot.loggedReason = undefined;
    slot.meter = undefined;
    await listener?.close();
  }

  status() {
    const rules: Record<string, ReverseproxyRuleStatus> = {};
    for (const [k, s] of this.slots) rules[k] = s.status;
    const failing = Object.values(rules).filter((r) => r.state === 'error').length;
    // Switched on but with no rule switched on, nothing listens: the module is stopped, not running.
    const active = Object.values(rules).some((r) => r.state !== 'disabled' && r.state !== 'stopped');
    const reason = failing ? reverseproxyReason('rulesFailing', { count: failing }) : undefined;
    return {
      state: active ? ('running' as const) : ('stopped' as const),
      reason: reason && { code: reason.code, params: reason.params },
      error: reason?.text,
      details: { rules: Object.keys(rules).length, failing, helperProcesses: this.plane?.helpers.size ?? 0 },
    };
  }

  ruleStatus(key: string): ReverseproxyRuleStatus {
    const slot = this.slots.get(key);
    if (!slot) return { state: 'stopped', warnings: [] };
    return slot.listening && slot.meter ? { ...slot.status, traffic: slot.meter.figures } : slot.status;
  }

  log(ruleKey: string, siteKey: string): RuleLog | undefined {
    return this.slots.get(ruleKey)?.logs.get(siteKey);
  }

  /**
   * Keep the rule's host-firewall opening in step with its listener: `port` open (TCP), or
   * none. A failure becomes a warning with the reason; the rule serves regardless.
   */
  private async firewall(key: string, slot: Slot, port: number | undefined, warnings?: CodedText[]): Promise<void> {
    const fw = this.ctx.firewall;
    if (!fw || (port === undefined && slot.firewallPort === undefined)) return;
    if (port === slot.firewallPort && port !== undefined) return;
    const r = await fw.set(FIREWALL_OWNER + key, port === undefined ? [] : [{ proto: 'tcp', port }]);
    slot.firewallPort = r.ok ? port : undefined;
    if (!r.ok) {
      const w = reverseproxyReason('firewallFailed', { port: port ?? '', detail: r.reason });
      warnings?.push(w);
      this.ctx.log.warn(`rule ${slot.rule.name || key}: ${w.text}`);
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
      if (slot?.listener && (!rule.enabled || slot.bound !== bindKey(rule))) await this.closeListener(rule.key, slot);
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
    if (!rule.enabled) {
      await this.firewall(rule.key, slot, undefined);
      slot.status = { state: 'disabled', warnings };
      return;
    }
    const plane = await this.dataPlane();
    slot.state = { table: new RouteTable(rule), logs: slot.logs, backends: plane.backends };
    if (!slot.handlers) {
      // The handlers read the slot's current state: a reload swaps it, not the listener.
      const current = slot;
      slot.handlers = plane.code.createHandlers(
        () => current.state as RuleState,
        {
          admits: (ip) => this.ctx.safe.admits(ip),
          authFailed: (ip) => this.ctx.safe.failure(ip),
        },
        (token) => this.ctx.challenges?.get(token),
      );
    }
    if (slot.listener && slot.bound === bindKey(rule)) {
      slot.listener.configure(listenOptions(rule));
      if (slot.listening) {
        plane.helpers.setRule(rule);
        await this.firewall(rule.key, slot, rule.firewallAutoAllow ? slot.status.port : undefined, warnings);
        slot.status = { state: 'running', warnings, port: slot.status.port };
      } else slot.status = { ...slot.status, warnings };
      return;
    }
    const listener = new plane.code.HttpListener(
      slot.handlers,
      this.ctx.certs,
      listenOptions(rule),
      (socket) => plane.helpers.handOff(rule.key, socket),
      plane.guard,
    );
    let applied: Promise<void> = Promise.resolve();
    const binder = new PortBinder(
      bindTarget(rule.address, rule.port, rule.network),
      async (t) => {
        await listener.listen(t.port, t.host, t.ipv6Only);
        // Closed while the bind was under way: let the port go again.
        if (slot.binder !== binder) {
          await listener.close();
          throw Object.assign(new Error('the rule stopped'), { code: 'ESTOPPED' });
        }
      },
      (state) => {
        applied = this.bindState(slot, binder, state);
      },
    );
    slot.listener = listener;
    slot.binder = binder;
    slot.bound = bindKey(rule);
    slot.listening = false;
    slot.status = { state: 'stopped', warnings };
    await binder.start();
    await applied;
  }

  /**
   * A bind attempt's outcome (the first one, awaited by the save; later retries on their own):
   * listening → figures, helpers, firewall, `running`; a taken port or a missing address →
   * `error` with the coded reason, tried again; anything else → `error`, given up until the next save.
   */
  private async bindState(slot: Slot, binder: PortBinder, state: BindState): Promise<void> {
    if (slot.binder !== binder) return;
    const rule = slot.rule;
    const name = rule.name || rule.key;
    const warnings = slot.status.warnings;
    if (state.state === 'bound') {
      const port = state.target.port;
      slot.listening = true;
      slot.loggedReason = undefined;
      slot.meter = new TrafficMeter();
      this.sampler ??= this.ctx.setInterval(() => this.sample(), SAMPLE_MS);
      this.sampler.unref?.();
      this.plane?.helpers.setRule(rule);
      const notes = warnings.filter((w) => w.code !== 'firewallFailed');
      await this.firewall(rule.key, slot, rule.firewallAutoAllow ? port : undefined, notes);
      if (slot.binder !== binder) return;
      slot.status = { state: 'running', warnings: notes, port };
      this.ctx.log.info(
        `rule ${name} listening on ${rule.address || '*'}:${port} (${rule.listenTypes}, ${rule.network})`,
      );
      return;
    }
    const { reason } = state;
    slot.listening = false;
    if (state.state === 'failed') {
      const listener = slot.listener;
      slot.listener = undefined;
      slot.binder = undefined;
      slot.bound = undefined;
      await listener?.close();
      slot.status = { state: 'error', reason, warnings };
    } else slot.status = { state: 'error', reason, retryAt: state.retryAt, warnings };
    await this.firewall(rule.key, slot, undefined);
    if (slot.loggedReason !== reason.code) {
      slot.loggedReason = reason.code;
      const again = state.state === 'retrying' ? ' (tried again every 10 s)' : '';
      this.ctx.log.error(`rule ${name}: ${reason.text}${again}`);
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

const bindKey = (r: ReverseproxyRule) => `${r.address}|${r.port}|${r.network}`;

function warningsOf(rule: ReverseproxyRule, haveCerts: boolean): CodedText[] {
  const w: CodedText[] = [];
  if (rule.http3) w.push(reverseproxyReason('http3Unsupported'));
  if (rule.listenTypes !== 'http' && !haveCerts) w.push(reverseproxyReason('noCertificate'));
  return w;
}

/**
 * Where the rule's listener binds for its network type (the PortBinder's target): `tcp` one
 * socket for both families (`::`, which the binder falls back to `0.0.0.0` on a machine without
 * IPv6), `tcp4` `0.0.0.0`, `tcp6` `::` taking IPv6 clients only. An address literal is bound as
 * given (the schema has checked its family).
 */
export function bindTarget(address: string, port: number, network: NetworkType): BindTarget {
  const host = address.replace(/^\[|\]$/g, '');
  if (host) return { host, port, ipv6Only: network === 'tcp6' };
  if (network === 'tcp4') return { host: '0.0.0.0', port };
  if (network === 'tcp6') return { host: '::', port, ipv6Only: true };
  return { host: '', port };
}
