import { ACME_SECRETS, type AcmeConfig, type AcmeListResponse, maskSecrets } from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import type { ModuleApi } from '../../core/modules/types.js';

/** REST calls of the acme module: /api/acme/… (bodies parsed by the registry). */
export function registerAcmeRoutes(r: Routes, api: ModuleApi<AcmeConfig>): void {
  r.add({
    method: 'GET',
    path: '/api/acme',
    access: 'token',
    summary: 'ACME: the module switch, settings, accounts and certificates (secrets masked)',
    handler: (): AcmeListResponse => {
      const config = maskSecrets(api.config(), [...ACME_SECRETS]);
      return {
        ret: 0,
        enabled: config.enabled,
        settings: { expiryWarnDays: config.expiryWarnDays, httpTimeout: config.httpTimeout },
        accounts: config.accounts.map(({ accountKeyPem: _k, ...a }) => ({ ...a, registered: a.accountUrl !== '' })),
        certificates: config.certificates.map((c) => ({ ...c, status: { state: 'pending', failures: 0 } })),
        dnsProviders: [],
      };
    },
  });
}
