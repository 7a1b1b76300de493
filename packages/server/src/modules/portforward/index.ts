import { issueKit, PORTFORWARD_MESSAGES, type PortforwardConfig, portforwardConfigSchema } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerPortforwardRoutes } from './routes.js';
import { PortforwardRuntime } from './runtime.js';

/** TCP/UDP port forwarding: rules of (forward types × listen ports) relayed to target addresses. */
export const portforwardModule: ModuleDefinition<PortforwardConfig> = {
  key: 'portforward',
  configSchema: portforwardConfigSchema,
  issues: issueKit(PORTFORWARD_MESSAGES),
  createRuntime: (ctx) => new PortforwardRuntime(ctx),
  routes: registerPortforwardRoutes,
};
