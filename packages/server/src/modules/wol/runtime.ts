import type { WolConfig } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';

/** The running module (the sender, the checks and the routes' live state land here). */
export class WolRuntime implements ModuleRuntime<WolConfig> {
  private config: WolConfig | undefined;

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: WolConfig): Promise<void> {
    this.config = config;
    this.ctx.log.info(`started with ${config.devices.length} devices`);
  }

  async reload(next: WolConfig): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {
    this.config = undefined;
  }

  status() {
    const devices = this.config?.devices ?? [];
    return {
      state: devices.some((d) => d.enabled) ? ('running' as const) : ('stopped' as const),
      details: { devices: devices.length, enabled: devices.filter((d) => d.enabled).length },
    };
  }
}
