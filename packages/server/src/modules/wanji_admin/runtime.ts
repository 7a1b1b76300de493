import type { WanjiAdminConfig } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';

/** The running module (poller to come). */
export class WanjiAdminRuntime implements ModuleRuntime<WanjiAdminConfig> {
  private config: WanjiAdminConfig | undefined;

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: WanjiAdminConfig): Promise<void> {
    this.config = config;
    void this.ctx;
  }

  async reload(next: WanjiAdminConfig): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {
    this.config = undefined;
  }

  status() {
    const enabled = (this.config?.consoles ?? []).filter((i) => i.enabled).length;
    return { state: enabled > 0 ? ('running' as const) : ('stopped' as const), details: { enabled } };
  }
}
