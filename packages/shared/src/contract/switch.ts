import { z } from 'zod';

/**
 * Every module's config slice starts with its switch, `enabled` (one name for on/off across the
 * product: modules, rules, tasks). Off: the supervisor does not run the module and reports it
 * `disabled`; its settings and rules stay.
 */
export const moduleSwitchShape = (on: boolean) => ({ enabled: z.boolean().default(on) });

/** PUT /api/modules/:key/enabled and every rule's or task's `…/enable` call. */
export const enabledBodySchema = z.object({ enabled: z.boolean() });
