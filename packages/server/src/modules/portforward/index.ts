import {
  PORTFORWARD_SECRETS,
  type PortforwardConfig,
  portforwardConfigSchema,
  portforwardIssues,
  proxySpecs,
} from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import type { PortClaim } from '../../core/net/portRegistry.js';
import { portforwardMigrations } from './migrations.js';
import { registerPortforwardRoutes } from './routes.js';
import { PortforwardRuntime } from './runtime.js';

/** Every listening port of the rules that are switched on: each listen port × its TCP / UDP types. */
function ports(config: PortforwardConfig): PortClaim[] {
  return config.rules
    .filter((rule) => rule.enabled)
    .flatMap((rule) =>
      proxySpecs(rule).map((spec) => ({
        proto: spec.protocol,
        port: spec.port,
        host: spec.host,
        owner: { module: 'portforward', item: rule.name || rule.key },
      })),
    );
}

/** TCP/UDP port forwarding: rules of (forward types × listen ports) relayed to target addresses. */
export const portforwardModule: ModuleDefinition<PortforwardConfig> = {
  key: 'portforward',
  switchable: { items: 'rules' },
  configSchema: portforwardConfigSchema,
  issues: portforwardIssues,
  secrets: PORTFORWARD_SECRETS,
  sample: () =>
    portforwardConfigSchema.parse({
      enabled: true,
      rules: [
        {
          key: 'Sample1',
          name: 'sample',
          forwardTypes: ['tcp4'],
          listenAddress: '127.0.0.1',
          listenPorts: '1',
          targetAddresses: ['127.0.0.1'],
          targetPorts: '2',
          tlsMode: 'terminate',
          tlsCert: '-----BEGIN CERTIFICATE-----\n(sample)\n-----END CERTIFICATE-----',
          tlsKey: 'sample key',
        },
      ],
    }),
  migrations: portforwardMigrations,
  ports,
  createRuntime: (ctx) => new PortforwardRuntime(ctx),
  routes: registerPortforwardRoutes,
};
