import { WOL_SECRETS, type WolConfig, wolConfigSchema, wolIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerWolRoutes } from './routes.js';
import { WolRuntime } from './runtime.js';

/** Wol: a list of items (scaffolded by `npm run new-module`; see docs/adding-a-module.md). */
export const wolModule: ModuleDefinition<WolConfig> = {
  key: 'wol',
  configSchema: wolConfigSchema,
  issues: wolIssues,
  secrets: WOL_SECRETS,
  sample: () => ({
    enabled: true,
    items: [{ key: 'Sample1', name: 'sample', enabled: true, host: 'nas.lan', secret: 'sample-secret' }],
  }),
  // A module with listeners names their ports here (the port registry refuses clashes):
  // ports: (config) => config.items.map((i) => ({ proto: 'tcp', port: i.port, owner: { module: 'wol', item: i.name } })),
  createRuntime: (ctx) => new WolRuntime(ctx),
  routes: registerWolRoutes,
};
