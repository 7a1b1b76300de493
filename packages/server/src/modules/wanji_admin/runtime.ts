import type { WanjiAdminConfig } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';

/**
 * The running module. The supervisor starts it only while the module switch is on, calls
 * `reload` with each saved config (after the routes' checks), and stops it on shutdown.
 */
export class WanjiAdminRuntime implements ModuleRuntime<WanjiAdminConfig> {
  private config: WanjiAdminConfig | undefined;

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: WanjiAdminConfig): Promise<void> {
    this.config = config;
    this.ctx.log.info(`started with ${config.items.length} items`);
  }

  async reload(next: WanjiAdminConfig): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {
    this.config = undefined;
  }

  status() {
    const items = this.config?.items ?? [];
    const enabled = items.filter((i) => i.enabled).length;
    // Nothing switched on: the module is on but does nothing (the overview says stopped, not running).
    return {
      state: enabled > 0 ? ('running' as const) : ('stopped' as const),
      details: { items: items.length, enabled },
    };
  }
}
