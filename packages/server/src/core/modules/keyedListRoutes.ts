import { enabledBodySchema, keepSecrets, maskSecrets } from '@lucky/shared';
import type { ZodType } from 'zod';
import type { Routes } from '../http/registry.js';
import { newKey, type SerialQueue } from './keyed.js';
import type { ModuleApi } from './types.js';

// The add / edit / switch / delete (and list / one) routes of a keyed list of items in a module's
// config slice — consoles, rules, devices, tasks. A module says where its list is and what is its
// own (checks, secrets, views, answers); the routes, their order of checks and their answers are
// the same for every module. Each change runs in the module's serial queue and goes through
// `api.saveConfig` (validate → apply → save), so a refused change leaves nothing half-saved.

/** An item of a keyed list: the key the server gives it and its own switch. */
export interface KeyedItem {
  key: string;
  enabled: boolean;
}

/** The fields of a config slice that hold a keyed list. */
export type KeyedListField<C> = { [F in keyof C]: C[F] extends readonly KeyedItem[] ? F : never }[keyof C];

/** The item type of the list at `F`. */
export type KeyedItemOf<C, F extends keyof C> = (C[F] extends readonly (infer I)[] ? I : never) & KeyedItem;

export interface KeyedListSpec<C, F extends KeyedListField<C>, B, V> {
  /** The list's path (`/api/stun/rules`); an item is `<path>/:key`, its switch `<path>/:key/enable`. */
  path: string;
  /** Where the list is in the config slice. */
  field: F;
  /** The body of an add or an edit (the module's schema, its codes). */
  body: ZodType<B>;
  /** The module's queue: its other changes (settings) share it, so no change starts from an old config. */
  serial: SerialQueue;
  /** The module's refusal of a key that is not in the list (its code, field and HTTP status). */
  notFound: (key: string) => Error;
  /**
   * Secret fields, by path inside an item (`token`, `webhook.proxy.password`): views show them
   * masked; an edit that sends the mask back keeps the stored value before any check sees it.
   */
  secrets?: readonly string[];
  /** The module's checks on a body before the item is made (a unique name, …); `old` on an edit. */
  check?: (prev: C, body: B, old: KeyedItemOf<C, F> | undefined) => void;
  /** The item to store from a body (default: the body with its key); `old` on an edit. */
  make?: (body: B, key: string, old: KeyedItemOf<C, F> | undefined) => KeyedItemOf<C, F> | Promise<KeyedItemOf<C, F>>;
  /**
   * Checks across the list on the changed config, item secrets in place, before it is saved
   * (ports two rules hold, …). Run for an add, an edit and a switch on: switching off or deleting
   * never conflicts with anything.
   */
  checkChange?: (next: C, prev: C, key: string) => void;
  /** Refuses a delete while something uses the item (throw the module's refusal). */
  inUse?: (config: C, item: KeyedItemOf<C, F>) => void;
  /** What else goes with a deleted item (users' access to a deleted mount); the list itself is done here. */
  detach?: (config: C, item: KeyedItemOf<C, F>) => C;
  /** One item as read: `item` has its secrets masked. */
  view: (item: KeyedItemOf<C, F>, config: C) => V;
  /** The answers' field for the item (`rule` → `{ ret: 0, rule }`). */
  answer: string;
  /** An add answers the new key beside the item too (`{ ret: 0, key, rule }`). */
  addAnswersKey?: boolean;
  /** GET of the list: the module's own answer around the item views (its switch, settings, summary). */
  list?: { summary: string; answer: (config: C, views: V[]) => object };
  /** The routes' summaries (the OpenAPI document); `one` also adds GET `<path>/:key`. */
  summaries: { add: string; edit: string; enable: string; delete: string; one?: string };
}

/**
 * Adds the keyed list's routes: [GET path], POST path, [GET path/:key], PUT path/:key,
 * PUT path/:key/enable, DELETE path/:key. Answers `{ ret: 0, [answer]: view }` (delete:
 * `{ ret: 0 }`); an unknown key is `notFound`; refusals are the module's own.
 */
export function addKeyedListRoutes<C, F extends KeyedListField<C>, B, V>(
  r: Routes,
  api: ModuleApi<C>,
  spec: KeyedListSpec<C, F, B, V>,
): void {
  type I = KeyedItemOf<C, F>;
  const { path, field, serial, secrets = [] } = spec;
  const itemsOf = (config: C) => config[field] as unknown as I[];
  const withItems = (config: C, items: I[]): C => ({ ...config, [field]: items });
  const find = (config: C, key: string): I => {
    const item = itemsOf(config).find((x) => x.key === key);
    if (!item) throw spec.notFound(key);
    return item;
  };
  const viewOf = (item: I, config: C) => spec.view(maskSecrets(item, secrets), config);
  /** The answer with the item as saved, read back (the supervisor may have normalised it). */
  const saved = (key: string, head: Record<string, unknown> = {}) => {
    const config = api.config();
    return { ret: 0, ...head, [spec.answer]: viewOf(find(config, key), config) };
  };
  const save = async (prev: C, next: C, key: string, checked: boolean) => {
    if (checked) spec.checkChange?.(next, prev, key);
    await api.saveConfig(next);
  };
  /** An add (`old` undefined) or an edit: the module's checks, the item made, secrets kept, saved. */
  const write = async (prev: C, body: B, key: string, old: I | undefined) => {
    spec.check?.(prev, body, old);
    const made = spec.make ? await spec.make(body, key, old) : ({ ...body, key } as I);
    const item = keepSecrets(made, old, secrets);
    const items = old ? itemsOf(prev).map((x) => (x.key === key ? item : x)) : [...itemsOf(prev), item];
    await save(prev, withItems(prev, items), key, true);
  };

  if (spec.list) {
    const list = spec.list;
    r.add({
      method: 'GET',
      path,
      access: 'token',
      summary: list.summary,
      handler: () => {
        const config = api.config();
        return list.answer(
          config,
          itemsOf(config).map((x) => viewOf(x, config)),
        );
      },
    });
  }

  r.add({
    method: 'POST',
    path,
    access: 'token',
    summary: spec.summaries.add,
    body: spec.body,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const key = newKey(itemsOf(prev));
        await write(prev, input.body, key, undefined);
        return saved(key, spec.addAnswersKey ? { key } : {});
      }),
  });

  if (spec.summaries.one) {
    r.add({
      method: 'GET',
      path: `${path}/:key`,
      access: 'token',
      summary: spec.summaries.one,
      handler: (_req, _reply, input) => saved(find(api.config(), input.params.key).key),
    });
  }

  r.add({
    method: 'PUT',
    path: `${path}/:key`,
    access: 'token',
    summary: spec.summaries.edit,
    body: spec.body,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        await write(prev, input.body, old.key, old);
        return saved(old.key);
      }),
  });

  r.add({
    method: 'PUT',
    path: `${path}/:key/enable`,
    access: 'token',
    summary: spec.summaries.enable,
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const { enabled } = input.body;
        const prev = api.config();
        const old = find(prev, input.params.key);
        const items = itemsOf(prev).map((x) => (x.key === old.key ? { ...x, enabled } : x));
        await save(prev, withItems(prev, items), old.key, enabled);
        return saved(old.key);
      }),
  });

  r.add({
    method: 'DELETE',
    path: `${path}/:key`,
    access: 'token',
    summary: spec.summaries.delete,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        spec.inUse?.(prev, old);
        const rest = spec.detach ? spec.detach(prev, old) : prev;
        await save(
          prev,
          withItems(
            rest,
            itemsOf(prev).filter((x) => x.key !== old.key),
          ),
          old.key,
          false,
        );
        return { ret: 0 };
      }),
  });
}
