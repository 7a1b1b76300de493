import {
  STORAGEMANAGEMENT_SECRETS,
  type StoragemanagementConfig,
  storagemanagementConfigSchema,
  storagemanagementIssues,
} from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerStoragemanagementRoutes } from './routes.js';
import { StoragemanagementRuntime } from './runtime.js';

/** Storagemanagement: a list of items (scaffolded by `npm run new-module`; see docs/adding-a-module.md). */
export const storagemanagementModule: ModuleDefinition<StoragemanagementConfig> = {
  key: 'storagemanagement',
  configSchema: storagemanagementConfigSchema,
  issues: storagemanagementIssues,
  secrets: STORAGEMANAGEMENT_SECRETS,
  sample: () => ({
    enabled: true,
    items: [{ key: 'Sample1', name: 'sample', enabled: true, host: 'nas.lan', secret: 'sample-secret' }],
  }),
  // A module with listeners names their ports here (the port registry refuses clashes):
  // ports: (config) => config.items.map((i) => ({ proto: 'tcp', port: i.port, owner: { module: 'storagemanagement', item: i.name } })),
  createRuntime: (ctx) => new StoragemanagementRuntime(ctx),
  routes: registerStoragemanagementRoutes,
};
