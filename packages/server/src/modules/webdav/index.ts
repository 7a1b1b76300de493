import {
  type StoragemanagementConfig,
  WEBDAV_SECRETS,
  type WebdavConfig,
  webdavConfigSchema,
  webdavIssues,
} from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerWebdavRoutes } from './routes.js';
import { WebdavRuntime } from './runtime.js';

/** The storage keys storage management has (on or off): a mount may name only these. */
function storageKeys(configOf: (key: 'storagemanagement') => unknown): Set<string> {
  const sm = configOf('storagemanagement') as StoragemanagementConfig | undefined;
  return new Set((sm?.storages ?? []).map((s) => s.key));
}

/** WebDAV server: storages of storage management published to the users over HTTP(S). */
export const webdavModule: ModuleDefinition<WebdavConfig> = {
  key: 'webdav',
  configSchema: webdavConfigSchema,
  issues: webdavIssues,
  secrets: WEBDAV_SECRETS,
  sample: () =>
    webdavConfigSchema.parse({
      enabled: false,
      // No mount: a mount must name a storage of storage management, which a bare program has not.
      users: [
        {
          key: 'SampleUser1',
          name: 'sample',
          // A hash-shaped sample (never a real one): what the guard test plants and looks for.
          password: 'scrypt$32768$8$1$c2FtcGxlLXNhbHQ=$c2FtcGxlLWhhc2gtc2FtcGxlLWhhc2g=',
        },
      ],
    }),
  /** One TCP listener (claimed while the module is on). */
  ports: (config) => [
    {
      proto: 'tcp',
      port: config.port,
      host: config.address.replace(/^\[|\]$/g, ''),
      owner: { module: 'webdav', item: 'WebDAV' },
    },
  ],
  storageMounts: (config) => config.mounts.map((m) => ({ storage: m.storage, owner: m.name })),
  validate: (config, ctx) => {
    const known = storageKeys((key) => ctx.configOf(key));
    const i = config.mounts.findIndex((m) => !known.has(m.storage));
    if (i < 0) return undefined;
    const params = { storage: config.mounts[i].storage };
    return {
      field: `mounts.${i}.storage`,
      code: 'storageUnknown',
      params,
      msg: webdavIssues.describe('storageUnknown', params),
    };
  },
  createRuntime: (ctx) => new WebdavRuntime(ctx),
  routes: registerWebdavRoutes,
};
