import { DDNS_MESSAGES, type DdnsConfig, ddnsConfigSchema, issueKit } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerDdnsRoutes } from './routes.js';
import { type DdnsModuleOptions, DdnsRuntime } from './runtime.js';

export type { DdnsModuleOptions } from './runtime.js';

/**
 * Dynamic DNS: tasks that keep DNS records in step with the public IP. `options` are for tests
 * and the benchmark only (provider stubs, a faster clock); the program uses `ddnsModule`.
 */
export function createDdnsModule(options: DdnsModuleOptions = {}): ModuleDefinition<DdnsConfig> {
  return {
    key: 'ddns',
    configSchema: ddnsConfigSchema,
    issues: issueKit(DDNS_MESSAGES),
    createRuntime: (ctx) => new DdnsRuntime(ctx, options),
    routes: registerDdnsRoutes,
  };
}

export const ddnsModule = createDdnsModule();
