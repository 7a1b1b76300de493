import { WEBDAV_SECRETS, type WebdavConfig, webdavConfigSchema, webdavIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerWebdavRoutes } from './routes.js';
import { WebdavRuntime } from './runtime.js';

/** Webdav: a list of items (scaffolded by `npm run new-module`; see docs/adding-a-module.md). */
export const webdavModule: ModuleDefinition<WebdavConfig> = {
  key: 'webdav',
  configSchema: webdavConfigSchema,
  issues: webdavIssues,
  secrets: WEBDAV_SECRETS,
  sample: () => ({
    enabled: true,
    items: [{ key: 'Sample1', name: 'sample', enabled: true, host: 'nas.lan', secret: 'sample-secret' }],
  }),
  // A module with listeners names their ports here (the port registry refuses clashes):
  // ports: (config) => config.items.map((i) => ({ proto: 'tcp', port: i.port, owner: { module: 'webdav', item: i.name } })),
  createRuntime: (ctx) => new WebdavRuntime(ctx),
  routes: registerWebdavRoutes,
};
