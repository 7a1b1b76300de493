import type { StunConfig, StunNatTypeBody, StunNatTypeView, StunSummary, StunWebhookTestResponse } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import type { RuleRunner } from './ruleRunner.js';

/**
 * The running STUN module: one RuleRunner per enabled rule. A saved config restarts only the
 * rules whose settings changed; the others keep their mappings (and the connections through them).
 */
export class StunRuntime implements ModuleRuntime<StunConfig> {
  private config: StunConfig | undefined;
  private readonly runners = new Map<string, RuleRunner>();

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: StunConfig): Promise<void> {
    this.config = config;
  }

  async reload(next: StunConfig): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {
    this.config = undefined;
  }

  rule(key: string): RuleRunner | undefined {
    return this.runners.get(key);
  }

  summary(config: StunConfig): StunSummary {
    return { enabled: config.enabled, rules: config.rules.length, open: 0, broken: 0 };
  }

  async reopen(_key: string): Promise<void> {}

  async detectNatForRule(_key: string): Promise<StunNatTypeView> {
    throw new Error('not yet');
  }

  async detectNat(_body: StunNatTypeBody): Promise<StunNatTypeView> {
    throw new Error('not yet');
  }

  async testWebhook(_w: unknown, _stored: unknown): Promise<StunWebhookTestResponse> {
    throw new Error('not yet');
  }

  async gateways(_localAddress: string): Promise<Array<{ location: string; name: string; externalAddress?: string }>> {
    return [];
  }

  ddnsTasks(): Array<{ key: string; name: string }> {
    return [];
  }

  status() {
    const rules = this.config?.rules ?? [];
    return { details: { rules: rules.length, running: this.runners.size, ctx: this.ctx.key } };
  }
}
