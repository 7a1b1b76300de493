import type { WolConfig } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';

/**
 * The running module. The supervisor starts it only while the module switch is on, calls
 * `reload` with each saved config (after the routes' checks), and stops it on shutdown.
 */
export class WolRuntime implements ModuleRuntime<WolConfig> {
  private config: WolConfig | undefined;

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: WolConfig): Promise<void> {
    this.config = config;
    this.ctx.log.info(`started with ${config.items.length} items`);
  }

  async reload(next: WolConfig): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {
    this.config = undefined;
  }

  status() {
    const items = this.config?.items ?? [];
    return { details: { items: items.length, enabled: items.filter((i) => i.enabled).length } };
  }
}
