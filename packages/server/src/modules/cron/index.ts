import { CRON_SECRETS, type CronConfig, cronConfigSchema, cronIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerCronRoutes } from './routes.js';
import { CronRuntime } from './runtime.js';

/** Cron: a list of items (scaffolded by `npm run new-module`; see docs/adding-a-module.md). */
export const cronModule: ModuleDefinition<CronConfig> = {
  key: 'cron',
  configSchema: cronConfigSchema,
  issues: cronIssues,
  secrets: CRON_SECRETS,
  sample: () => ({
    enabled: true,
    items: [{ key: 'Sample1', name: 'sample', enabled: true, host: 'nas.lan', secret: 'sample-secret' }],
  }),
  // A module with listeners names their ports here (the port registry refuses clashes):
  // ports: (config) => config.items.map((i) => ({ proto: 'tcp', port: i.port, owner: { module: 'cron', item: i.name } })),
  createRuntime: (ctx) => new CronRuntime(ctx),
  routes: registerCronRoutes,
};
