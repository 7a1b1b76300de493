import { ACME_SECRETS, type AcmeConfig, acmeConfigSchema, acmeIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerAcmeRoutes } from './routes.js';
import { AcmeRuntime } from './runtime.js';

/** Acme: a list of items (scaffolded by `npm run new-module`; see docs/adding-a-module.md). */
export const acmeModule: ModuleDefinition<AcmeConfig> = {
  key: 'acme',
  configSchema: acmeConfigSchema,
  issues: acmeIssues,
  secrets: ACME_SECRETS,
  sample: () =>
    acmeConfigSchema.parse({
      accounts: [{ key: 'Acct1', name: 'le', eab: { kid: 'k', hmacKey: 'sample-hmac' }, accountKeyPem: 'sample-key' }],
      certificates: [
        {
          key: 'Cert1',
          name: 'home',
          account: 'Acct1',
          names: ['home.example.com'],
          dns: { secret: 'sample-dns-secret' },
          webhook: { proxy: { password: 'sample-proxy' } },
        },
      ],
    }),
  // A module with listeners names their ports here (the port registry refuses clashes):
  // ports: (config) => config.items.map((i) => ({ proto: 'tcp', port: i.port, owner: { module: 'acme', item: i.name } })),
  createRuntime: (ctx) => new AcmeRuntime(ctx),
  routes: registerAcmeRoutes,
};
