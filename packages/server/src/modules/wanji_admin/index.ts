import { WANJI_ADMIN_SECRETS, type WanjiAdminConfig, wanjiAdminConfigSchema, wanjiAdminIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { wanjiAdminActions } from './actions.js';
import { registerWanjiAdminRoutes } from './routes.js';
import { WanjiAdminRuntime } from './runtime.js';

/** Wanji admin: this console watches and drives other Lucky consoles through their API tokens. */
export const wanjiAdminModule: ModuleDefinition<WanjiAdminConfig> = {
  key: 'wanji_admin',
  configSchema: wanjiAdminConfigSchema,
  issues: wanjiAdminIssues,
  secrets: WANJI_ADMIN_SECRETS,
  sample: () => ({
    enabled: true,
    refreshSeconds: 15,
    timeoutMs: 5000,
    consoles: [
      {
        key: 'Sample1',
        name: 'nas',
        enabled: true,
        url: 'https://nas.lan:16601',
        token: 'lkt_sample-secret-token',
        tls: { mode: 'pin', fingerprint: Array(32).fill('AB').join(':'), ca: '' },
        note: '',
      },
    ],
  }),
  switchable: { items: 'consoles' },
  actions: wanjiAdminActions,
  createRuntime: (ctx) => new WanjiAdminRuntime(ctx),
  routes: registerWanjiAdminRoutes,
};
