import { FILEBROWSER_SECRETS, type FilebrowserConfig, filebrowserConfigSchema, filebrowserIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerFilebrowserRoutes } from './routes.js';
import { FilebrowserRuntime } from './runtime.js';

/**
 * The browser file manager: every storage of storage management in the browser (browse, upload,
 * download, preview, edit, share links). It opens no port of its own: the admin API serves it and
 * the console's listener serves the share links under `/s/`.
 */
export const filebrowserModule: ModuleDefinition<FilebrowserConfig> = {
  key: 'filebrowser',
  configSchema: filebrowserConfigSchema,
  issues: filebrowserIssues,
  secrets: FILEBROWSER_SECRETS,
  sample: () =>
    filebrowserConfigSchema.parse({
      enabled: true,
      trash: true,
      // The routes check a new share's storage and target; a stored one whose storage is gone
      // reads as `missing`, so a sample may name a storage the bare program has not.
      shares: [
        {
          key: 'SampleShare1',
          id: 'c2FtcGxlLXNoYXJlLWlkLQ',
          storage: 'SampleStorage',
          path: '/photos',
          kind: 'dir',
          // A hash-shaped sample (never a real one): what the guard test plants and looks for.
          password: 'scrypt$32768$8$1$c2FtcGxlLXNhbHQ=$c2FtcGxlLWhhc2gtc2FtcGxlLWhhc2g=',
          createdAt: 1_760_000_000_000,
        },
      ],
    }),
  /** A share link keeps its storage in use (storage management names it before a delete). */
  storageMounts: (config) => config.shares.map((s) => ({ storage: s.storage, owner: `share ${s.path}` })),
  /**
   * Share links are served under `/s/` without an admin login (shares/public.ts); outside the LAN
   * too with `sharesOutsideLan`, while some link is switched on.
   */
  publicPaths: (config) => [
    { prefix: '/s/', outsideLan: config.sharesOutsideLan && config.shares.some((s) => s.enabled) },
  ],
  createRuntime: (ctx) => new FilebrowserRuntime(ctx),
  routes: registerFilebrowserRoutes,
};
