import {
  STORAGEMANAGEMENT_SECRETS,
  type StoragemanagementConfig,
  storagemanagementConfigSchema,
  storagemanagementIssues,
} from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerStoragemanagementRoutes } from './routes.js';
import { StoragemanagementRuntime } from './runtime.js';

/**
 * Storage management: the storages (local folders, remote WebDAV servers) the file services
 * mount, opened and published to every module as ctx.storages. It starts before the file
 * services (THE list's order) so their first sessions find the storages there.
 */
export const storagemanagementModule: ModuleDefinition<StoragemanagementConfig> = {
  key: 'storagemanagement',
  configSchema: storagemanagementConfigSchema,
  issues: storagemanagementIssues,
  secrets: STORAGEMANAGEMENT_SECRETS,
  sample: () => ({
    enabled: true,
    storages: [
      {
        key: 'Sample1',
        name: 'nas',
        enabled: true,
        kind: 'webdav',
        readOnly: false,
        local: { path: '' },
        webdav: { url: 'https://nas.lan/dav/', user: 'me', password: 'sample-secret', tlsVerify: true },
      },
    ],
  }),
  createRuntime: (ctx) => new StoragemanagementRuntime(ctx),
  routes: registerStoragemanagementRoutes,
};
