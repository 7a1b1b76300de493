// Actions one module offers another. Modules never import each other (test/contract/
// boundaries.test.ts), so what one module may ask of another goes through the core: a definition
// declares `actions` (input schema, the items it can act on, run), a module asks through
// `ctx.actions.invoke(module, name, input)`, and the admin API lists them for pickers
// (GET /api/modules/actions). An invocation never throws: a module that is not in this build, is
// switched off or lacks the action, input that does not parse and a run that throws are each a
// coded refusal (`errors.<code>` in the browser).
import type { ActionResult, ActionTarget, Coded, ModuleActionView, ModuleKey } from '@lucky/shared';
import { fillTemplate } from '@lucky/shared';
import { type ZodType, z } from 'zod';
import type { ModuleDefinition, ModuleRuntime } from './types.js';

/** Who asks (a module's key, or `api` for the admin API), and the offering module's config. */
export interface ActionContext<C = unknown> {
  caller: ModuleKey | 'api';
  config: C;
}

/** One action of a module; `I` is what its input schema parses to. */
export interface ModuleAction<C = unknown, I = unknown> {
  input: ZodType<I>;
  /** The items it can act on, for pickers (DDNS: its tasks). */
  targets?(config: C): ActionTarget[];
  /** Runs on the live runtime (the module is on); a failure is `{ ok: false, reason }`. */
  run(runtime: ModuleRuntime<C>, input: I, ctx: ActionContext<C>): Promise<ActionResult>;
}

/** Keeps the input type of one action for `run` (a record of actions has many). */
export const defineAction = <C, I>(action: ModuleAction<C, I>): ModuleAction<C, I> => action;

/** What a module gets as `ctx.actions`. */
export interface ModuleActions {
  invoke(module: ModuleKey, name: string, input: unknown): Promise<ActionResult>;
  /** Every action of every module of this build, with its targets (also while its module is off). */
  list(): ModuleActionView[];
}

/** What the actions need of the supervisor. */
export interface ActionHost {
  keys(): ModuleKey[];
  definition(key: ModuleKey): ModuleDefinition;
  configOf<C>(key: ModuleKey): C;
  /** The live runtime, only while the module runs. */
  runningRuntime(key: ModuleKey): ModuleRuntime<unknown> | undefined;
  /** Validate → apply → save a module's slice (the item switch's way of changing it). */
  saveConfig(key: ModuleKey, next: unknown): Promise<void>;
}

/**
 * The item switch the core offers for every module with `switchable` (its rules, tasks or devices):
 * `enableItem` / `disableItem` with `{ key }` (the item's key or name), saved through the
 * supervisor like a change in the module's screen, whether the module runs or not.
 */
export const ITEM_SWITCH_ACTIONS = { enableItem: true, disableItem: false } as const;
const itemSwitchInput = z.object({ key: z.string().trim().min(1, 'required').max(64) });

interface SwitchableItem {
  key: string;
  name?: string;
  enabled: boolean;
}

function switchableItems(def: ModuleDefinition, config: unknown): SwitchableItem[] {
  if (!def.switchable) return [];
  const list = (config as Record<string, unknown>)[def.switchable.items];
  return Array.isArray(list) ? (list as SwitchableItem[]) : [];
}

function itemTargets(def: ModuleDefinition, config: unknown): ActionTarget[] {
  return switchableItems(def, config).map((i) => ({ key: i.key, name: i.name || i.key }));
}

/** The core's refusals, English with `{name}` placeholders (the browser's `errors.<code>`). */
const REFUSALS = {
  moduleNotFound: 'no module {module} in this build',
  moduleOff: '{module} is switched off',
  actionNotFound: '{module} offers no action {action}',
  actionInputInvalid: 'the input of {module} {action} is invalid: {field}: {detail}',
  actionFailed: '{module} {action} failed: {detail}',
  itemNotFound: '{module} has no item {item}',
} as const;

function refuse(code: keyof typeof REFUSALS, params: Record<string, unknown>): ActionResult {
  const reason: Coded = { code, params };
  return { ok: false, reason, detail: fillTemplate(REFUSALS[code], params) };
}

/** The actions as `caller` sees them. */
export function moduleActions(host: ActionHost, caller: ActionContext['caller']): ModuleActions {
  return {
    async invoke(module, name, input) {
      if (!host.keys().includes(module)) return refuse('moduleNotFound', { module });
      const def = host.definition(module);
      if (def.switchable && Object.hasOwn(ITEM_SWITCH_ACTIONS, name)) {
        return switchItem(host, def, module, name as keyof typeof ITEM_SWITCH_ACTIONS, input);
      }
      const action = Object.hasOwn(def.actions ?? {}, name) ? def.actions?.[name] : undefined;
      if (!action) return refuse('actionNotFound', { module, action: name });
      const runtime = host.runningRuntime(module);
      if (!runtime) return refuse('moduleOff', { module });
      const parsed = action.input.safeParse(input);
      if (!parsed.success) {
        const issue = def.issues.fromZod(parsed.error.issues[0], action.input);
        return refuse('actionInputInvalid', { module, action: name, field: issue.field, detail: issue.msg });
      }
      try {
        return await action.run(runtime, parsed.data, { caller, config: host.configOf(module) });
      } catch (err) {
        return refuse('actionFailed', { module, action: name, detail: (err as Error).message });
      }
    },
    list() {
      return host.keys().flatMap((module) => {
        const def = host.definition(module);
        const actions = def.actions ?? {};
        const names = Object.keys(actions);
        const config = host.configOf<{ enabled: boolean }>(module);
        const own = names.map((name) => ({
          module,
          name,
          enabled: config.enabled,
          targets: actions[name].targets?.(config) ?? [],
        }));
        if (!def.switchable) return own;
        // The item switch works while the module is off too (it only changes the saved slice).
        const targets = itemTargets(def, config);
        return [...own, ...Object.keys(ITEM_SWITCH_ACTIONS).map((name) => ({ module, name, enabled: true, targets }))];
      });
    },
  };
}

async function switchItem(
  host: ActionHost,
  def: ModuleDefinition,
  module: ModuleKey,
  name: keyof typeof ITEM_SWITCH_ACTIONS,
  input: unknown,
): Promise<ActionResult> {
  const parsed = itemSwitchInput.safeParse(input);
  if (!parsed.success) {
    const issue = def.issues.fromZod(parsed.error.issues[0], itemSwitchInput);
    return refuse('actionInputInvalid', { module, action: name, field: issue.field, detail: issue.msg });
  }
  const wanted = parsed.data.key;
  const config = host.configOf<Record<string, unknown>>(module);
  const items = switchableItems(def, config);
  const item = items.find((i) => i.key === wanted) ?? items.find((i) => i.name === wanted);
  if (!item) return refuse('itemNotFound', { module, item: wanted });
  const enabled = ITEM_SWITCH_ACTIONS[name];
  if (item.enabled === enabled)
    return { ok: true, detail: `${item.name || item.key} is ${enabled ? 'on' : 'off'} already` };
  const list = items.map((i) => (i === item ? { ...i, enabled } : i));
  try {
    await host.saveConfig(module, { ...config, [def.switchable?.items as string]: list });
  } catch (err) {
    return refuse('actionFailed', { module, action: name, detail: (err as Error).message });
  }
  return { ok: true, detail: `${item.name || item.key} switched ${enabled ? 'on' : 'off'}` };
}
