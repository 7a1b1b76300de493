import { enabledBodySchema, MODULE_KEYS, type ModuleActionsResponse, type ModuleKey } from '@lucky/shared';
import { z } from 'zod';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { notFound } from '../http/reply.js';
import { moduleActions } from '../modules/actions.js';

const keyParams = z.object({ key: z.enum(MODULE_KEYS) });

/**
 * The module switch every module has (its slice's `enabled`), each module's true state, and the
 * actions modules offer each other (for the pickers of a screen).
 */
export function registerModuleRoutes(r: RouteRegistry, core: Core): void {
  const known = (key: string): ModuleKey => {
    const parsed = keyParams.safeParse({ key });
    if (!parsed.success || !core.modules.keys().includes(parsed.data.key))
      throw notFound(`unknown module ${key}`, 'moduleNotFound');
    return parsed.data.key;
  };

  r.add({
    method: 'GET',
    path: '/api/modules/status',
    access: 'token',
    summary: 'Modules: each present module with its switch and true state (running, disabled, error + reason)',
    handler: () => ({
      ret: 0,
      list: core.modules.status().map((s) => ({
        ...s,
        enabled: core.modules.configOf<{ enabled: boolean }>(s.key).enabled,
      })),
    }),
  });

  r.add({
    method: 'PUT',
    path: '/api/modules/:key/enabled',
    access: 'token',
    summary: "Modules: switch a module on or off (its settings and rules stay); answers the module's state",
    body: enabledBodySchema,
    handler: async (_req, _reply, input) => {
      const key = known(input.params.key);
      await core.modules.setEnabled(key, input.body.enabled);
      const status = core.modules.status().find((s) => s.key === key);
      return { ret: 0, status: { ...status, enabled: input.body.enabled } };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/modules/actions',
    access: 'token',
    summary:
      "Modules: the actions modules offer each other (DDNS syncNow …), each with its module's switch and the items it can act on",
    handler: (): ModuleActionsResponse => ({ ret: 0, list: moduleActions(core.modules, 'api').list() }),
  });
}
