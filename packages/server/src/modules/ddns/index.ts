import {
  DDNS_FREE_TEXT_SECRETS,
  DDNS_SECRETS,
  type DdnsConfig,
  ddnsConfigSchema,
  ddnsIssues,
  ddnsTaskSchema,
} from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { ddnsActions } from './actions.js';
import { registerDdnsRoutes } from './routes.js';
import { type DdnsModuleOptions, DdnsRuntime } from './runtime.js';

export type { DdnsModuleOptions } from './runtime.js';

/**
 * Dynamic DNS: tasks that keep DNS records in step with the public IP. The slice's `enabled` is
 * the module switch (off by default): the supervisor runs the scheduler only while it is on.
 * `options` are for tests and the benchmark only (provider stubs, a faster clock); the program
 * uses `ddnsModule`. No listener, so no ports. Other modules may ask it to sync a task now
 * (`syncNow`, actions.ts).
 */
export function createDdnsModule(options: DdnsModuleOptions = {}): ModuleDefinition<DdnsConfig> {
  // Made once at program start: the first round waits the first-check delay from here.
  const bootAt = options.bootAt ?? Date.now();
  return {
    key: 'ddns',
    switchable: { items: 'tasks' },
    configSchema: ddnsConfigSchema,
    issues: ddnsIssues,
    secrets: DDNS_SECRETS,
    freeTextSecrets: DDNS_FREE_TEXT_SECRETS,
    sample: () =>
      ddnsConfigSchema.parse({
        enabled: true,
        webhook: { proxy: { type: 'http', address: '127.0.0.1:3128', password: 'global-proxy-password' } },
        tasks: [
          ddnsTaskSchema.parse({
            key: 'Sample1',
            name: 'sample',
            domains: ['nas.example.com'],
            ipSource: { type: 'url', urls: ['https://ip.example.net/'] },
            dns: { provider: 'cloudflare', secret: 'sample-token' },
            proxy: { type: 'http', address: '127.0.0.1:3128', password: 'sample-proxy-password' },
            webhook: { proxy: { type: 'http', address: '127.0.0.1:3128', password: 'webhook-proxy-password' } },
          }),
        ],
      }),
    createRuntime: (ctx) => new DdnsRuntime(ctx, { ...options, bootAt }),
    routes: registerDdnsRoutes,
    actions: ddnsActions,
  };
}

export const ddnsModule = createDdnsModule();
