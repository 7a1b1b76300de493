import type { AcmeConfig } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';

/**
 * The running module. The supervisor starts it only while the module switch is on, calls
 * `reload` with each saved config (after the routes' checks), and stops it on shutdown.
 */
export class AcmeRuntime implements ModuleRuntime<AcmeConfig> {
  private config: AcmeConfig | undefined;

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: AcmeConfig): Promise<void> {
    this.config = config;
    this.ctx.log.info(`started with ${config.certificates.length} certificates`);
  }

  async reload(next: AcmeConfig): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {
    this.config = undefined;
  }

  status() {
    const certs = this.config?.certificates ?? [];
    return { details: { certificates: certs.length } };
  }
}
