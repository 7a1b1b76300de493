import {
  STUN_FREE_TEXT_SECRETS,
  STUN_SECRETS,
  type StunConfig,
  stunConfigSchema,
  stunIssues,
  stunRuleSchema,
} from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import type { PortClaim } from '../../core/net/portRegistry.js';
import { registerStunRoutes } from './routes.js';
import { StunRuntime } from './runtime.js';

/** The local ports the enabled rules keep (a rule with local port 0 picks a free one at start). */
function ports(config: StunConfig): PortClaim[] {
  return config.rules.flatMap((rule) =>
    rule.enabled && rule.localPort !== 0
      ? rule.protocols.map((proto) => ({
          proto,
          port: rule.localPort,
          host: rule.channelMode === 'ip' ? rule.channelIp : '',
          owner: { module: 'stun' as const, item: rule.name },
        }))
      : [],
  );
}

/** STUN NAT traversal: keeps NAT mappings open with STUN and forwards what comes in through them. */
export const stunModule: ModuleDefinition<StunConfig> = {
  key: 'stun',
  switchable: { items: 'rules' },
  configSchema: stunConfigSchema,
  issues: stunIssues,
  secrets: STUN_SECRETS,
  freeTextSecrets: STUN_FREE_TEXT_SECRETS,
  sample: () =>
    stunConfigSchema.parse({
      enabled: true,
      webhook: { proxy: { type: 'http', address: '127.0.0.1:1', password: 'global-secret' } },
      rules: [
        stunRuleSchema.parse({
          key: 'Sample1',
          name: 'sample',
          enabled: false,
          targetAddress: '127.0.0.1',
          targetPort: 22,
          webhook: { proxy: { type: 'http', address: '127.0.0.1:1', password: 'rule-secret' } },
        }),
      ],
    }),
  ports,
  createRuntime: (ctx) => new StunRuntime(ctx),
  routes: registerStunRoutes,
};
