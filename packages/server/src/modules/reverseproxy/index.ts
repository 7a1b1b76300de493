import { issueKit, REVERSEPROXY_MESSAGES, type ReverseproxyConfig, reverseproxyConfigSchema } from '@lucky/shared';
import type { ModuleDefinition } from '../../core/modules/types.js';
import { registerReverseproxyRoutes } from './routes.js';
import { ReverseproxyRuntime } from './runtime.js';

/** Web service: reverse proxy, redirect, URL jump, file server, text output per domain and path. */
export const reverseproxyModule: ModuleDefinition<ReverseproxyConfig> = {
  key: 'reverseproxy',
  configSchema: reverseproxyConfigSchema,
  issues: issueKit(REVERSEPROXY_MESSAGES),
  createRuntime: (ctx) => new ReverseproxyRuntime(ctx),
  routes: registerReverseproxyRoutes,
};
