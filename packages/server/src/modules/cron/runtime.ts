import type { CronConfig } from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';

export class CronRuntime implements ModuleRuntime<CronConfig> {
  private config: CronConfig | undefined;
  constructor(private readonly ctx: ModuleContext) {}
  async start(config: CronConfig): Promise<void> {
    this.config = config;
    void this.ctx;
  }
  async reload(next: CronConfig): Promise<void> {
    this.config = next;
  }
  async stop(): Promise<void> {
    this.config = undefined;
  }
  status() {
    const on = (this.config?.tasks ?? []).filter((t) => t.enabled).length;
    return on === 0 ? { state: 'stopped' as const, reason: { code: 'noTasks' } } : { details: { tasks: on } };
  }
}
