import { FTPSERVER_SECRETS, type FtpserverConfig, ftpserverConfigSchema, ftpserverIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerFtpserverRoutes } from './routes.js';
import { FtpserverRuntime } from './runtime.js';

/** The FTP server: mounts of storage management's storages, users with per-mount access, FTPS. */
export const ftpserverModule: ModuleDefinition<FtpserverConfig> = {
  key: 'ftpserver',
  configSchema: ftpserverConfigSchema,
  issues: ftpserverIssues,
  secrets: FTPSERVER_SECRETS,
  sample: () =>
    ftpserverConfigSchema.parse({
      enabled: false,
      mounts: [{ key: 'M1', name: 'share', storage: 'S1' }],
      users: [{ key: 'U1', name: 'alice', password: 'scrypt$sample', access: { M1: 'rw' } }],
    }),
  createRuntime: (ctx) => new FtpserverRuntime(ctx),
  routes: registerFtpserverRoutes,
};
