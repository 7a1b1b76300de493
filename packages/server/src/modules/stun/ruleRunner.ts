import {
  type CodedText,
  fillTemplate,
  STUN_LOG,
  type StunLogCode,
  type StunMappingView,
  type StunNatTypeView,
  type StunRule,
  type StunRuleView,
  type StunSettings,
} from '@lucky/shared';
import { RuleLog, type RuleLogLevel } from '../../core/logs/ruleLog.js';
import type { ModuleContext } from '../../core/modules/types.js';
import { type Channel, resolveChannel } from './channel.js';
import type { MappingHost } from './host.js';
import { pickLocalPort } from './localPort.js';
import { type Endpoint, type Mapping, MappingError, stunReason } from './mapping.js';
import type { NotifyOutcome, StunNotifier } from './notify.js';
import { PortMaps } from './portMaps.js';
import { TcpMapping } from './tcpMapping.js';
import { UdpMapping } from './udpMapping.js';

export interface RunnerShared {
  ctx: ModuleContext;
  settings(): StunSettings;
  notifier: StunNotifier;
}

const logOptions = (r: StunRule) => ({ level: r.logLevel as RuleLogLevel, capacity: r.logCapacity, toConsole: false });

/** Fields that only change how a running rule reports, not its sockets: applied without a restart. */
const LIVE_FIELDS = ['name', 'logLevel', 'logCapacity', 'logShowLatest', 'script', 'webhook', 'ddnsTask'] as const;
export function needsRestart(a: StunRule, b: StunRule): boolean {
  const strip = (r: StunRule) => {
    const copy: Record<string, unknown> = { ...r };
    for (const f of LIVE_FIELDS) delete copy[f];
    return JSON.stringify(copy);
  };
  return strip(a) !== strip(b);
}

/**
 * One enabled rule at work: a mapping per protocol from one local port, the router's port
 * mappings (UPnP / NAT-PMP) when asked, the host firewall opening, the notifications on a new
 * public address, and the rule's log.
 */
export class RuleRunner implements MappingHost {
  readonly log: RuleLog;
  readonly signal: AbortSignal;
  natType: StunNatTypeView | undefined;
  lastNotify: (NotifyOutcome & { at: number }) | undefined;
  private readonly abort = new AbortController();
  private mappings: Mapping[] = [];
  private portMaps: PortMaps | undefined;
  private preferred: string | undefined;
  private startError: CodedText | undefined;
  private localPort = 0;

  constructor(
    private current: StunRule,
    private readonly shared: RunnerShared,
  ) {
    this.log = new RuleLog(logOptions(current), shared.ctx.log.child(current.name));
    this.signal = AbortSignal.any([this.abort.signal, shared.ctx.signal]);
  }

  get key(): string {
    return this.current.key;
  }

  // ---- MappingHost ------------------------------------------------------------------------

  rule(): StunRule {
    return this.current;
  }

  channel(): Channel {
    const c = resolveChannel(this.current);
    if (!c.ok) throw new MappingError(stunReason(c.code, c.params));
    return c.channel;
  }

  servers(): string[] {
    const list = this.current.stunServers.length ? this.current.stunServers : this.shared.settings().stunServers;
    if (!this.preferred || !list.includes(this.preferred)) return [...list];
    return [this.preferred, ...list.filter((s) => s !== this.preferred)];
  }

  serverWorked(server: string): void {
    this.preferred = server;
  }

  keepAliveUrl(): string {
    return this.shared.settings().keepAliveUrl;
  }

  heartbeatMs(): number {
    return (this.current.heartbeatSec || this.shared.settings().heartbeatSec) * 1000;
  }

  retrySec(): number {
    return this.current.retrySec || this.shared.settings().retrySec;
  }

  timeoutMs(): number {
    return this.current.timeoutMs;
  }

  line(level: RuleLogLevel, code: StunLogCode, params: Record<string, unknown>): void {
    if (this.log.wants(level)) this.log.coded(level, code, params, fillTemplate(STUN_LOG[code], params));
  }

  addressChanged(mapping: Mapping, _previous: Endpoint | undefined): void {
    const pub = mapping.public;
    if (!pub) return;
    this.portMaps?.publicPort(mapping.protocol, pub.port);
    void this.shared.notifier
      .notify(this, {
        protocol: mapping.protocol,
        innerIp: mapping.localAddress,
        innerPort: mapping.localPort,
        outerIp: pub.address,
        outerPort: pub.port,
      })
      .then((outcome) => {
        this.lastNotify = { ...outcome, at: Date.now() };
      });
  }

  admits(ip: string): boolean {
    return this.shared.ctx.safe.admits(ip);
  }

  readonly onListsChange = (cb: () => void): (() => void) => this.shared.ctx.safe.onChange(cb);

  setTimeout(fn: () => void, ms: number): NodeJS.Timeout {
    return this.shared.ctx.setTimeout(fn, ms);
  }

  // ---- life -------------------------------------------------------------------------------

  async start(): Promise<void> {
    const rule = this.current;
    this.startError = undefined;
    let address = '0.0.0.0';
    try {
      address = this.channel().address;
      this.localPort = rule.localPort || (await pickLocalPort(address, rule.protocols));
    } catch (err) {
      // The mappings retry on their own (an interface may come up later); port 0 is picked then.
      this.startError = err instanceof MappingError ? err.reason : stunReason('notPenetrated', { detail: String(err) });
      this.localPort = rule.localPort;
    }
    for (const p of rule.protocols) this.line(4, 'starting', { proto: p, port: this.localPort || 'auto' });
    if (rule.autoWhitelist && this.localPort) await this.openFirewall();
    this.mappings = rule.protocols.map((p) =>
      p === 'tcp' ? new TcpMapping(this, this.localPort) : new UdpMapping(this, this.localPort),
    );
    for (const m of this.mappings) m.start();
    if ((rule.upnp || rule.natpmp) && this.localPort) {
      this.portMaps = new PortMaps(this, this.localPort);
      this.portMaps.start();
    }
  }

  private async openFirewall(): Promise<void> {
    const res = await this.shared.ctx.firewall.set(
      `stun:${this.key}`,
      this.current.protocols.map((proto) => ({ proto, port: this.localPort })),
    );
    if (res.ok) this.line(4, 'firewallOpened', { port: this.localPort });
    else this.line(3, 'firewallFailed', { detail: res.reason });
  }

  /** Name, log and notification settings change in place; anything else restarts the rule. */
  update(rule: StunRule): void {
    this.current = rule;
    this.log.configure(logOptions(rule));
    this.log.setConsole(this.shared.ctx.log.child(rule.name));
  }

  reopen(): void {
    for (const m of this.mappings) m.reopen();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.all(this.mappings.map((m) => m.stop()));
    await this.portMaps?.stop();
    if (this.current.autoWhitelist) await this.shared.ctx.firewall.set(`stun:${this.key}`, []);
    this.line(4, 'stopped', {});
  }

  // ---- views ------------------------------------------------------------------------------

  mappingViews(): StunMappingView[] {
    return this.mappings.map((m) => {
      const f = m.figures();
      return {
        protocol: m.protocol,
        state: m.state,
        since: m.since,
        ...(m.reason ? { reason: { code: m.reason.code, params: m.reason.params }, error: m.reason.text } : {}),
        localAddress: m.localAddress,
        localPort: m.localPort,
        ...(m.public ? { publicAddress: `${m.public.address}:${m.public.port}` } : {}),
        ...(m.server ? { server: m.server } : {}),
        ...(m.lastCheck ? { lastCheck: m.lastCheck } : {}),
        changes: m.changes,
        portMaps: this.portMaps?.views(m.protocol) ?? [],
        ...f,
      };
    });
  }

  view(): Omit<StunRuleView, keyof StunRule> {
    const mappings = this.mappingViews();
    const broken = mappings.find((m) => m.state === 'broken');
    const starting = mappings.some((m) => m.state === 'starting');
    const state = broken ? 'error' : starting ? 'starting' : 'running';
    const reason =
      broken?.reason ?? (this.startError ? { code: this.startError.code, params: this.startError.params } : undefined);
    const error = broken?.error ?? this.startError?.text;
    const n = this.lastNotify;
    return {
      state,
      ...(reason ? { reason, error } : {}),
      mappings,
      ...(this.natType ? { natType: this.natType } : {}),
      ...(n
        ? {
            lastNotify: {
              at: n.at,
              ...(n.webhook ? { webhook: n.webhook } : {}),
              ...(n.script ? { script: n.script } : {}),
              ...(n.ddns ? { ddns: n.ddns } : {}),
            },
          }
        : {}),
      lastLogs: this.log.newest(this.current.logShowLatest),
      webhookHistory: this.shared.notifier.history.of(this.key),
    };
  }

  /** Open mappings and the broken ones, for the module summary. */
  counts(): { open: number; broken: number } {
    return {
      open: this.mappings.filter((m) => m.state === 'open').length,
      broken: this.mappings.filter((m) => m.state === 'broken').length,
    };
  }
}
