import {
  REVERSEPROXY_FREE_TEXT_SECRETS,
  REVERSEPROXY_SECRETS,
  type ReverseproxyConfig,
  reverseproxyConfigSchema,
  reverseproxyIssues,
} from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { reverseproxyMigrations } from './migrations.js';
import { registerReverseproxyRoutes } from './routes.js';
import { ReverseproxyRuntime } from './runtime.js';

const unbracket = (a: string) => a.replace(/^\[|\]$/g, '');

/** Web service: reverse proxy, redirect, URL jump, file server, text output per domain and path. */
export const reverseproxyModule: ModuleDefinition<ReverseproxyConfig> = {
  key: 'reverseproxy',
  switchable: { items: 'rules' },
  configSchema: reverseproxyConfigSchema,
  issues: reverseproxyIssues,
  secrets: REVERSEPROXY_SECRETS,
  freeTextSecrets: REVERSEPROXY_FREE_TEXT_SECRETS,
  sample: () =>
    reverseproxyConfigSchema.parse({
      enabled: true,
      rules: [
        {
          key: 'SampleRule1',
          name: 'sample',
          address: '127.0.0.1',
          port: 16601,
          defaultRule: {
            serviceType: 'text',
            basicAuth: { enabled: true, user: 'u', password: 'sample-password' },
            requestHeaders: [{ name: 'Authorization', value: 'Bearer sample-token' }],
          },
          subRules: [
            {
              key: 'SampleSub1',
              domains: ['sample.test'],
              serviceType: 'text',
              basicAuth: { enabled: true, user: 'u', password: 'sample-password' },
            },
          ],
        },
      ],
    }),
  migrations: reverseproxyMigrations,
  /** One TCP listener per enabled rule. */
  ports: (config) =>
    config.rules
      .filter((r) => r.enabled)
      .map((r) => ({
        proto: 'tcp' as const,
        port: r.port,
        host: unbracket(r.address),
        owner: { module: 'reverseproxy', item: r.name || r.key },
      })),
  createRuntime: (ctx) => new ReverseproxyRuntime(ctx),
  routes: registerReverseproxyRoutes,
};
