import {
  enabledBodySchema,
  maskSecrets,
  WANJI_ADMIN_SECRETS,
  type WanjiAdminConfig,
  type WanjiAdminItem,
  type WanjiAdminItemResponse,
  type WanjiAdminItemView,
  type WanjiAdminListResponse,
  wanjiAdminIssues,
  wanjiAdminItemInputSchema,
} from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import { fieldFailure } from '../../core/http/reply.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';

const itemSecrets = WANJI_ADMIN_SECRETS.map((p) => p.replace(/^items\.\*\./, ''));
const view = (item: WanjiAdminItem): WanjiAdminItemView => maskSecrets(item, itemSecrets);

const refuse = (field: string, code: 'nameTaken' | 'itemNotFound', status = 400) =>
  fieldFailure({ field, code, params: {}, msg: wanjiAdminIssues.describe(code) }, status);

/** REST calls of the wanji_admin module: /api/wanji_admin/items … (bodies parsed by the registry). */
export function registerWanjiAdminRoutes(r: Routes, api: ModuleApi<WanjiAdminConfig>): void {
  const serial = serialQueue();
  const find = (config: WanjiAdminConfig, key: string) => {
    const item = config.items.find((i) => i.key === key);
    if (!item) throw refuse('key', 'itemNotFound', 404);
    return item;
  };
  const uniqueName = (config: WanjiAdminConfig, name: string, key?: string) => {
    if (config.items.some((i) => i.name === name && i.key !== key)) throw refuse('name', 'nameTaken');
  };

  r.add({
    method: 'GET',
    path: '/api/wanji_admin/items',
    access: 'token',
    summary: 'WanjiAdmin: the module switch and every item (secrets masked)',
    handler: (): WanjiAdminListResponse => {
      const config = api.config();
      return { ret: 0, enabled: config.enabled, list: config.items.map(view) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/wanji_admin/items',
    access: 'token',
    summary: 'WanjiAdmin: add an item (the server assigns its key)',
    body: wanjiAdminItemInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WanjiAdminItemResponse> => {
        const prev = api.config();
        uniqueName(prev, input.body.name);
        const item = { ...input.body, key: newKey(prev.items) };
        await api.saveConfig({ ...prev, items: [...prev.items, item] });
        return { ret: 0, item: view(find(api.config(), item.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/wanji_admin/items/:key',
    access: 'token',
    summary: 'WanjiAdmin: replace an item (a secret sent back masked is kept)',
    body: wanjiAdminItemInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WanjiAdminItemResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        uniqueName(prev, input.body.name, old.key);
        const item = { ...input.body, key: old.key };
        await api.saveConfig({ ...prev, items: prev.items.map((i) => (i.key === old.key ? item : i)) });
        return { ret: 0, item: view(find(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/wanji_admin/items/:key/enable',
    access: 'token',
    summary: 'WanjiAdmin: switch an item on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<WanjiAdminItemResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        const items = prev.items.map((i) => (i.key === old.key ? { ...i, enabled: input.body.enabled } : i));
        await api.saveConfig({ ...prev, items });
        return { ret: 0, item: view(find(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/wanji_admin/items/:key',
    access: 'token',
    summary: 'WanjiAdmin: delete an item',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        await api.saveConfig({ ...prev, items: prev.items.filter((i) => i.key !== old.key) });
        return { ret: 0 };
      }),
  });
}
