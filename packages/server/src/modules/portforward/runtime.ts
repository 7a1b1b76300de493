import {
  type CodedText,
  fillTemplate,
  PORTFORWARD_REASONS,
  type PortforwardConfig,
  type PortforwardSettings,
  type ProxySpec,
  portforwardConfigSchema,
  proxySpecs,
} from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { type ListsWatch, watchLists } from '../../core/safe/recheck.js';
import { type ModuleShared, moduleScope, RuleRuntime, setModuleCaps } from './ruleRuntime.js';
import type { TcpConnection } from './tcpConnection.js';
import { TcpProxy } from './tcpProxy.js';
import { UdpProxy } from './udpProxy.js';
import type { UdpSession } from './udpSession.js';

export type Proxy = TcpProxy | UdpProxy;

const settingsOf = ({ rules: _rules, ...settings }: PortforwardConfig): PortforwardSettings => settings;

/** A reason of the module (`PORTFORWARD_REASONS`) with its English text. */
export function reason(code: keyof typeof PORTFORWARD_REASONS, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: fillTemplate(PORTFORWARD_REASONS[code], params) };
}

/**
 * The module's live state while its switch is on (the supervisor creates it then, and stops it
 * when the switch goes off): one RuleRuntime per rule (logs, counts, limiters) and one proxy per
 * (rule, forward type, listen address, port). A reload diffs by that identity: untouched ports
 * keep their listener and open connections and get the new settings in place; removed ports
 * close (first, so a port that moved to another rule is free); added ports open.
 */
export class PortforwardRuntime implements ModuleRuntime<PortforwardConfig> {
  private config: PortforwardConfig = portforwardConfigSchema.parse({});
  private readonly shared: ModuleShared;
  private readonly rules = new Map<string, RuleRuntime>();
  /** Why a rule could not be applied (its pasted certificate …); its ports stay closed. */
  private readonly ruleErrors = new Map<string, CodedText>();
  private readonly proxies = new Map<string, Proxy>();
  private queue: Promise<void> = Promise.resolve();
  private sampler: NodeJS.Timeout | undefined;
  /** The security lists' changes reach every proxy's open connections and sessions. */
  private lists: ListsWatch | undefined;

  constructor(private readonly ctx: ModuleContext) {
    this.shared = {
      settings: settingsOf(this.config),
      scope: moduleScope(),
      log: ctx.log,
      certs: ctx.certs,
      admits: (ip) => ctx.safe.admits(ip),
    };
  }

  async start(config: PortforwardConfig): Promise<void> {
    // As at accept (tcpProxy / udpProxy: the lists first): a refused client's TCP connection is
    // reset, its UDP session dropped (its next datagram finds no session and is refused).
    this.lists = watchLists<TcpConnection | UdpSession>(this.ctx.safe.onChange, {
      open: () => {
        const all: (TcpConnection | UdpSession)[] = [];
        for (const p of this.proxies.values()) for (const x of p.held()) all.push(x);
        return all;
      },
      ipOf: (x) => ('closed' in x ? (x.closed ? undefined : x.ip) : x.open ? x.ip : undefined),
      admits: (ip) => this.ctx.safe.admits(ip),
      close: (x) => ('closed' in x ? x.close('sessionRevoked') : x.reset()),
    });
    await this.apply(config);
    this.sampler = this.ctx.setInterval(() => {
      for (const p of this.proxies.values()) p.stats.sample();
    }, 1000);
    this.sampler.unref();
  }

  async reload(next: PortforwardConfig): Promise<void> {
    await this.apply(next);
  }

  async stop(): Promise<void> {
    clearInterval(this.sampler);
    this.lists?.stop();
    await this.serial(async () => {
      await Promise.all([...this.proxies.values()].map((p) => p.close()));
      this.proxies.clear();
    });
  }

  status() {
    const s = this.summary();
    const failed = [...this.proxies.values()].filter((p) => p.state === 'error').length + this.ruleErrors.size;
    const why = failed ? reason('portsNotRunning', { count: failed }) : undefined;
    return {
      reason: why && { code: why.code, params: why.params },
      error: why?.text,
      details: { ...s },
    };
  }

  /** The live side of a rule (undefined for an unknown key). */
  rule(key: string): RuleRuntime | undefined {
    return this.rules.get(key);
  }

  /** Whether the certificate store has a certificate for rules that terminate TLS without their own. */
  certificatesAvailable(): boolean {
    return this.shared.certs.hasAny();
  }

  ruleError(key: string): CodedText | undefined {
    return this.ruleErrors.get(key);
  }

  /** The open proxies of a rule, by proxy id. */
  proxiesOf(ruleKey: string): Map<string, Proxy> {
    const out = new Map<string, Proxy>();
    for (const [k, p] of this.proxies) if (k.startsWith(`${ruleKey}|`)) out.set(p.id, p);
    return out;
  }

  summary() {
    let tcp = 0;
    let udp = 0;
    let bytesIn = 0;
    let bytesOut = 0;
    let rateIn = 0;
    let rateOut = 0;
    for (const p of this.proxies.values()) {
      if (p instanceof TcpProxy) tcp += p.stats.connections;
      else udp += p.stats.sessions;
      bytesIn += p.stats.bytesIn;
      bytesOut += p.stats.bytesOut;
      rateIn += p.stats.rateIn;
      rateOut += p.stats.rateOut;
    }
    const c = this.config;
    return {
      enabled: c.enabled,
      rules: c.rules.length,
      proxies: this.proxies.size,
      proxyLimit: c.ruleLimit,
      tcpConnections: tcp,
      maxTcpConnections: c.maxTcpConnections,
      udpSessions: udp,
      maxUdpSessions: c.maxUdpSessions,
      bytesIn,
      bytesOut,
      rateIn,
      rateOut,
    };
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => {});
    return run;
  }

  private apply(config: PortforwardConfig): Promise<void> {
    return this.serial(async () => {
      this.config = config;
      this.shared.settings = settingsOf(config);
      setModuleCaps(this.shared.scope, this.shared.settings);

      const accessChanged = new Set<string>();
      const keys = new Set(config.rules.map((r) => r.key));
      for (const key of this.rules.keys()) if (!keys.has(key)) this.rules.delete(key);
      this.ruleErrors.clear();
      for (const rule of config.rules) {
        try {
          const rt = this.rules.get(rule.key);
          if (!rt) this.rules.set(rule.key, new RuleRuntime(rule, this.shared));
          else if (rt.update(rule)) accessChanged.add(rule.key);
        } catch (err) {
          // Only a pasted certificate and key can fail here (the save checked them; a hand-edited file may not).
          const why = reason('tlsPairInvalid', { detail: (err as Error).message });
          this.ruleErrors.set(rule.key, why);
          this.ctx.log.error(`rule ${rule.name || rule.key}: ${why.text}`);
        }
      }

      const wanted = new Map<string, { spec: ProxySpec; rt: RuleRuntime }>();
      for (const rule of config.rules) {
        const rt = this.rules.get(rule.key);
        if (!rule.enabled || !rt || this.ruleErrors.has(rule.key)) continue;
        for (const spec of proxySpecs(rule)) wanted.set(`${rule.key}|${spec.id}`, { spec, rt });
      }
      const removed = [...this.proxies].filter(([k]) => !wanted.has(k));
      for (const [k] of removed) this.proxies.delete(k);
      await Promise.all(removed.map(([, p]) => p.close()));

      const added: Proxy[] = [];
      for (const [k, { spec, rt }] of wanted) {
        const p = this.proxies.get(k);
        if (p) {
          p.update(spec, rt);
          if (accessChanged.has(rt.rule.key)) p.recheckAccess();
          // Saving the rule again is the admin's way to say "try that port now".
          if (p.state === 'error') added.push(p);
          continue;
        }
        const fresh = spec.protocol === 'tcp' ? new TcpProxy(spec, rt) : new UdpProxy(spec, rt);
        this.proxies.set(k, fresh);
        added.push(fresh);
      }
      await Promise.all(added.map((p) => p.start()));
    });
  }
}
