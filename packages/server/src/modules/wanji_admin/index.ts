import { WANJI_ADMIN_SECRETS, type WanjiAdminConfig, wanjiAdminConfigSchema, wanjiAdminIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerWanjiAdminRoutes } from './routes.js';
import { WanjiAdminRuntime } from './runtime.js';

/** WanjiAdmin: a list of items (scaffolded by `npm run new-module`; see docs/adding-a-module.md). */
export const wanjiAdminModule: ModuleDefinition<WanjiAdminConfig> = {
  key: 'wanji_admin',
  configSchema: wanjiAdminConfigSchema,
  issues: wanjiAdminIssues,
  secrets: WANJI_ADMIN_SECRETS,
  sample: () => ({
    enabled: true,
    items: [{ key: 'Sample1', name: 'sample', enabled: true, host: 'nas.lan', secret: 'sample-secret' }],
  }),
  // A module with listeners names their ports here (the port registry refuses clashes):
  // ports: (config) => config.items.map((i) => ({ proto: 'tcp', port: i.port, owner: { module: 'wanji_admin', item: i.name } })),
  createRuntime: (ctx) => new WanjiAdminRuntime(ctx),
  routes: registerWanjiAdminRoutes,
};
