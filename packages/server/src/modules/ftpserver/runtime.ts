import type { FtpserverConfig } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';

/** The running module (the engine lands in the next commits). */
export class FtpserverRuntime implements ModuleRuntime<FtpserverConfig> {
  private config: FtpserverConfig | undefined;

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: FtpserverConfig): Promise<void> {
    this.config = config;
    this.ctx.log.info(`started with ${config.users.length} users`);
  }

  async reload(next: FtpserverConfig): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {
    this.config = undefined;
  }

  status() {
    return { details: { users: this.config?.users.length ?? 0, mounts: this.config?.mounts.length ?? 0 } };
  }
}
