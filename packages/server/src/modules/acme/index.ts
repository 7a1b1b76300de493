import { ACME_FREE_TEXT_SECRETS, ACME_SECRETS, type AcmeConfig, acmeConfigSchema, acmeIssues } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { acmeActions } from './actions.js';
import { checkConfig } from './checks.js';
import { clientKit } from './kit.js';
import { registerAcmeRoutes } from './routes.js';
import { AcmeRuntime } from './runtime.js';

/**
 * ACME: accounts at CAs order certificates for the box's names (HTTP-01 through the web service or
 * a stand-alone responder, DNS-01 through the core DNS providers), renew them on schedule or ARI's
 * window, and keep them in the core certificate store (docs/ARCHITECTURE.md, "ACME").
 */
export const acmeModule: ModuleDefinition<AcmeConfig> = {
  key: 'acme',
  switchable: { items: 'certificates' },
  configSchema: acmeConfigSchema,
  issues: acmeIssues,
  secrets: ACME_SECRETS,
  freeTextSecrets: ACME_FREE_TEXT_SECRETS,
  sample: () =>
    acmeConfigSchema.parse({
      accounts: [{ key: 'Acct1', name: 'le', eab: { kid: 'k', hmacKey: 'sample-hmac' }, accountKeyPem: 'sample-key' }],
      certificates: [
        {
          key: 'Cert1',
          name: 'home',
          account: 'Acct1',
          names: ['home.example.com'],
          enabled: false,
          dns: { secret: 'sample-dns-secret' },
          webhook: { proxy: { password: 'sample-proxy' } },
        },
      ],
    }),
  // The stand-alone HTTP-01 responder holds its port only while an order runs (and only when no
  // web-service rule listens there): no standing claim.
  validate: (config) => checkConfig(config),
  createRuntime: (ctx) => new AcmeRuntime(ctx, { kit: clientKit }),
  routes: (r, api) => registerAcmeRoutes(r, api, clientKit),
  actions: acmeActions,
};
