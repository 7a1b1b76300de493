// What ACME offers other modules (core/modules/actions.ts): `renewNow` starts an order for a
// certificate now (a scheduled task's "renew at 3 am"); it answers once the order started.
import { type AcmeConfig, type AcmeRenewNowInput, acmeIssues, acmeRenewNowInputSchema } from '@lucky/shared';
import { defineAction } from '../../core/modules/actions.js';
import { AcmeRuntime } from './runtime.js';

export const acmeActions = {
  renewNow: defineAction<AcmeConfig, AcmeRenewNowInput>({
    input: acmeRenewNowInputSchema,
    targets: (config) => config.certificates.map((c) => ({ key: c.key, name: c.name })),
    async run(runtime, input) {
      if (!(runtime instanceof AcmeRuntime)) throw new Error('not the ACME runtime');
      const started = runtime.issueNow(input.certificate);
      if (started === 'started') return { ok: true, detail: 'order started' };
      const code = started === 'busy' ? 'busy' : 'certificateNotFound';
      return { ok: false, reason: { code, params: {} }, detail: acmeIssues.describe(code) };
    },
  }),
};
