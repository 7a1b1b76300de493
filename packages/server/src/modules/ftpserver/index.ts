import { FTPSERVER_SECRETS, type FtpserverConfig, ftpserverConfigSchema, ftpserverIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import type { PortClaim } from '../../core/net/portRegistry.js';
import { registerFtpserverRoutes } from './routes.js';
import { FtpserverRuntime } from './runtime.js';
import { storageKeysOf } from './storageKeys.js';

/** The control port and every port of the passive range (the registry refuses a clash with another owner). */
function ports(c: FtpserverConfig): PortClaim[] {
  const owner = (item: string) => ({ module: 'ftpserver', item });
  const claims: PortClaim[] = [{ proto: 'tcp', port: c.port, host: c.address, owner: owner('control') }];
  for (let p = c.passive.portMin; p <= c.passive.portMax; p++)
    claims.push({ proto: 'tcp', port: p, host: c.address, owner: owner('passive') });
  return claims;
}

/** The FTP server: mounts of storage management's storages, users with per-mount access, FTPS. */
export const ftpserverModule: ModuleDefinition<FtpserverConfig> = {
  key: 'ftpserver',
  configSchema: ftpserverConfigSchema,
  issues: ftpserverIssues,
  secrets: FTPSERVER_SECRETS,
  // Reaches the one secret path (a user's password); no mount, as no storage exists in the guard's program.
  sample: () =>
    ftpserverConfigSchema.parse({
      enabled: false,
      users: [{ key: 'U1', name: 'alice', password: 'scrypt$sample', access: {} }],
    }),
  ports,
  storageMounts: (c) => c.mounts.map((m) => ({ storage: m.storage, owner: m.name })),
  validate(c, ctx) {
    let slice: unknown;
    try {
      slice = ctx.configOf('storagemanagement');
    } catch {
      return undefined; // a program without storage management (unit tests of the wiring)
    }
    const known = storageKeysOf(slice);
    if (!known) return undefined;
    const i = c.mounts.findIndex((m) => !known.has(m.storage));
    if (i < 0) return undefined;
    const storage = c.mounts[i]?.storage ?? '';
    return {
      field: `mounts.${i}.storage`,
      code: 'storageNotFound',
      params: { storage },
      msg: ftpserverIssues.describe('storageNotFound', { storage }),
    };
  },
  createRuntime: (ctx) => new FtpserverRuntime(ctx),
  routes: registerFtpserverRoutes,
};
