import { FTPSERVER_SECRETS, type FtpserverConfig, ftpserverConfigSchema, ftpserverIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerFtpserverRoutes } from './routes.js';
import { FtpserverRuntime } from './runtime.js';

/** Ftpserver: a list of items (scaffolded by `npm run new-module`; see docs/adding-a-module.md). */
export const ftpserverModule: ModuleDefinition<FtpserverConfig> = {
  key: 'ftpserver',
  configSchema: ftpserverConfigSchema,
  issues: ftpserverIssues,
  secrets: FTPSERVER_SECRETS,
  sample: () => ({
    enabled: true,
    items: [{ key: 'Sample1', name: 'sample', enabled: true, host: 'nas.lan', secret: 'sample-secret' }],
  }),
  // A module with listeners names their ports here (the port registry refuses clashes):
  // ports: (config) => config.items.map((i) => ({ proto: 'tcp', port: i.port, owner: { module: 'ftpserver', item: i.name } })),
  createRuntime: (ctx) => new FtpserverRuntime(ctx),
  routes: registerFtpserverRoutes,
};
