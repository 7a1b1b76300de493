import type {
  StunConfig,
  StunNatTypeBody,
  StunNatTypeView,
  StunSettings,
  StunSummary,
  StunWebhookTestResponse,
  WebhookSettings,
} from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { detectNat } from './natDetect.js';
import { StunNotifier } from './notify.js';
import { discoverGateways } from './portmap/upnp.js';
import { needsRestart, RuleRunner } from './ruleRunner.js';

/**
 * The running STUN module: one RuleRunner per enabled rule. A saved config restarts only the
 * rules whose sockets or servers changed; name, log and notification edits apply in place, and
 * global settings (server list, keep-alive, defaults, webhook) are read live by every rule.
 */
export class StunRuntime implements ModuleRuntime<StunConfig> {
  private config: StunConfig | undefined;
  private readonly runners = new Map<string, RuleRunner>();
  private readonly notifier: StunNotifier;

  constructor(private readonly ctx: ModuleContext) {
    this.notifier = new StunNotifier(ctx, () => this.settings());
  }

  private settings(): StunSettings {
    const { rules: _rules, ...settings } = this.config as StunConfig;
    return settings;
  }

  async start(config: StunConfig): Promise<void> {
    this.config = config;
    for (const rule of config.rules) if (rule.enabled) await this.startRule(rule.key);
  }

  private async startRule(key: string): Promise<void> {
    const rule = this.config?.rules.find((r) => r.key === key);
    if (!rule) return;
    const runner = new RuleRunner(rule, { ctx: this.ctx, settings: () => this.settings(), notifier: this.notifier });
    this.runners.set(key, runner);
    await runner.start();
  }

  async reload(next: StunConfig, prev: StunConfig): Promise<void> {
    this.config = next;
    const before = new Map(prev.rules.map((r) => [r.key, r]));
    const after = new Map(next.rules.filter((r) => r.enabled).map((r) => [r.key, r]));
    for (const [key, runner] of [...this.runners]) {
      const rule = after.get(key);
      const old = before.get(key);
      if (!rule || !old || needsRestart(old, rule)) {
        this.runners.delete(key);
        await runner.stop();
      } else runner.update(rule);
    }
    for (const key of after.keys()) if (!this.runners.has(key)) await this.startRule(key);
  }

  async stop(): Promise<void> {
    const all = [...this.runners.values()];
    this.runners.clear();
    await Promise.all(all.map((r) => r.stop()));
    this.config = undefined;
  }

  rule(key: string): RuleRunner | undefined {
    return this.runners.get(key);
  }

  summary(config: StunConfig): StunSummary {
    let open = 0;
    let broken = 0;
    for (const r of this.runners.values()) {
      const c = r.counts();
      open += c.open;
      broken += c.broken;
    }
    return { enabled: config.enabled, rules: config.rules.length, open, broken };
  }

  async reopen(key: string): Promise<void> {
    this.runners.get(key)?.reopen();
  }

  async detectNatForRule(key: string): Promise<StunNatTypeView> {
    const rule = this.config?.rules.find((r) => r.key === key);
    if (!rule) throw new Error('no such rule');
    const result = await detectNat(
      {
        stunServers: rule.stunServers.length ? rule.stunServers : this.settings().stunServers,
        channelMode: rule.channelMode,
        channelIp: rule.channelIp,
        channelInterface: rule.channelInterface,
        timeoutMs: rule.timeoutMs,
      },
      this.ctx.signal,
    );
    const runner = this.runners.get(key);
    if (runner) {
      runner.natType = result;
      runner.line(4, 'natType', { verdict: result.verdict, mapping: result.mapping, filtering: result.filtering });
    }
    return result;
  }

  async detectNat(body: Required<StunNatTypeBody>): Promise<StunNatTypeView> {
    return detectNat(
      { ...body, stunServers: body.stunServers.length ? body.stunServers : this.settings().stunServers },
      this.ctx.signal,
    );
  }

  testWebhook(w: WebhookSettings): Promise<StunWebhookTestResponse> {
    return this.notifier.test(w);
  }

  async gateways(localAddress: string): Promise<Array<{ location: string; name: string; externalAddress?: string }>> {
    const found = await discoverGateways({ ...(localAddress ? { localAddress } : {}), timeoutMs: 3000 });
    return found.map((g) => ({
      location: g.location,
      name: g.friendlyName || g.address,
      ...(g.externalAddress ? { externalAddress: g.externalAddress } : {}),
    }));
  }

  ddnsTasks(): Array<{ key: string; name: string }> {
    return this.notifier.ddnsTasks();
  }

  status() {
    let open = 0;
    let broken = 0;
    let failed = 0;
    for (const r of this.runners.values()) {
      const c = r.counts();
      open += c.open;
      broken += c.broken;
      if (c.broken > 0) failed++;
    }
    return {
      ...(failed
        ? {
            reason: { code: 'rulesFailed', params: { count: failed } },
            error: `${failed} rule(s) have no working mapping; see the STUN list`,
          }
        : {}),
      details: { rules: this.config?.rules.length ?? 0, running: this.runners.size, open, broken },
    };
  }
}
