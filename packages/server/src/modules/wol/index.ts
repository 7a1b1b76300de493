import { WOL_FREE_TEXT_SECRETS, WOL_SECRETS, type WolConfig, wolConfigSchema, wolIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { wolActions } from './actions.js';
import { registerWolRoutes } from './routes.js';
import { WolRuntime } from './runtime.js';

/** Wake-on-LAN: devices woken by magic packets, their online state, shutdown, relay, LAN scan. */
export const wolModule: ModuleDefinition<WolConfig> = {
  key: 'wol',
  switchable: { items: 'devices' },
  configSchema: wolConfigSchema,
  issues: wolIssues,
  secrets: WOL_SECRETS,
  freeTextSecrets: WOL_FREE_TEXT_SECRETS,
  sample: () =>
    wolConfigSchema.parse({
      enabled: true,
      devices: [
        {
          key: 'Sample1',
          name: 'nas',
          macs: ['02:00:00:00:00:01'],
          secureOn: '01:02:03:04:05:06',
          check: { host: '192.0.2.10', tcpPort: 22 },
          shutdown: {
            method: 'ssh',
            ssh: { user: 'root', privateKey: SAMPLE_KEY },
            agent: { url: 'http://192.0.2.10:16601', token: 'lkt_sample-agent-token' },
          },
          relay: { enabled: true, url: 'http://192.0.2.20:16601', token: 'lkt_sample-relay-token' },
        },
      ],
      webhook: { proxy: { password: 'sample-proxy-password' } },
    }),
  createRuntime: (ctx) => new WolRuntime(ctx),
  actions: wolActions,
  routes: registerWolRoutes,
};

// Not a usable key: only the shape the schema checks, for the secrets guard test.
const SAMPLE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nc2FtcGxlLWtleQ==\n-----END OPENSSH PRIVATE KEY-----\n';
