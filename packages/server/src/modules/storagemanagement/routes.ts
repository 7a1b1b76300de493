// REST calls of storage management (docs/API.md, "Storage management"): the list with each
// entry's space, reachability and users; add / edit / switch / delete; probe now. Bodies are
// parsed by the registry; an enabled local entry's folder is checked before the save; a removal
// is refused while a file service mounts the entry (naming who). While the module is off the
// entries read as stopped and "probe now" answers moduleDisabled.
import {
  enabledBodySchema,
  type StorageEntryConfig,
  type StoragemanagementConfig,
  type StoragemanagementEntryResponse,
  type StoragemanagementListResponse,
  storageEntryInputSchema,
} from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { checkFolder, refuse, warningsOf } from './checks.js';
import { StoragemanagementRuntime } from './runtime.js';
import { entryView } from './views.js';

export function registerStoragemanagementRoutes(r: Routes, api: ModuleApi<StoragemanagementConfig>): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof StoragemanagementRuntime ? rt : undefined;
  };
  const find = (config: StoragemanagementConfig, key: string) => {
    const entry = config.storages.find((s) => s.key === key);
    if (!entry) throw refuse('key', 'storageNotFound');
    return entry;
  };
  const uniqueName = (config: StoragemanagementConfig, name: string, key?: string) => {
    if (config.storages.some((s) => s.name === name && s.key !== key)) throw refuse('name', 'nameTaken', { name });
  };
  const answer = (
    key: string,
    warnings: StoragemanagementEntryResponse['warnings'] = [],
  ): StoragemanagementEntryResponse => ({
    ret: 0,
    storage: entryView(find(api.config(), key), live(), api.storages),
    warnings,
  });
  /** The entry as it will be saved (a password sent back masked is the stored one), checked. */
  const save = async (prev: StoragemanagementConfig, entry: StorageEntryConfig) => {
    const storages = prev.storages.some((s) => s.key === entry.key)
      ? prev.storages.map((s) => (s.key === entry.key ? entry : s))
      : [...prev.storages, entry];
    await api.saveConfig({ ...prev, storages });
    const saved = find(api.config(), entry.key);
    return warningsOf(saved);
  };

  r.add({
    method: 'GET',
    path: '/api/storagemanagement/storages',
    access: 'token',
    summary: 'Storage management: the module switch and every storage with its space, reachability and users',
    handler: (): StoragemanagementListResponse => {
      const config = api.config();
      const rt = live();
      return { ret: 0, enabled: config.enabled, list: config.storages.map((s) => entryView(s, rt, api.storages)) };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/storagemanagement/storages/:key',
    access: 'token',
    summary: 'Storage management: one storage',
    handler: (_req, _reply, input) => answer(find(api.config(), input.params.key).key),
  });

  r.add({
    method: 'POST',
    path: '/api/storagemanagement/storages',
    access: 'token',
    summary: 'Storage management: add a storage (the server assigns its key)',
    body: storageEntryInputSchema,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        uniqueName(prev, input.body.name);
        const entry: StorageEntryConfig = { ...input.body, key: newKey(prev.storages) };
        await checkFolder(entry);
        return answer(entry.key, await save(prev, entry));
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/storagemanagement/storages/:key',
    access: 'token',
    summary: 'Storage management: replace a storage (a password sent back masked is kept)',
    body: storageEntryInputSchema,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        uniqueName(prev, input.body.name, old.key);
        const entry: StorageEntryConfig = { ...input.body, key: old.key };
        await checkFolder(entry);
        return answer(old.key, await save(prev, entry));
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/storagemanagement/storages/:key/enable',
    access: 'token',
    summary: 'Storage management: switch a storage on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const entry = { ...find(prev, input.params.key), enabled: input.body.enabled };
        await checkFolder(entry);
        return answer(entry.key, await save(prev, entry));
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/storagemanagement/storages/:key',
    access: 'token',
    summary: 'Storage management: delete a storage (refused while a file service mounts it)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        const mounts = api.storages.mountsOf(old.key);
        if (mounts.length > 0) {
          throw refuse('key', 'storageInUse', {
            name: old.name,
            users: mounts.map((m) => `${m.module}: ${m.owner}`),
            mounts: mounts.map((m) => ({ module: m.module, owner: m.owner })),
          });
        }
        await api.saveConfig({ ...prev, storages: prev.storages.filter((s) => s.key !== old.key) });
        return { ret: 0 };
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/storagemanagement/storages/:key/probe',
    access: 'token',
    summary: 'Storage management: check a storage now (reachability and space)',
    handler: async (_req, _reply, input) => {
      const entry = find(api.config(), input.params.key);
      const rt = live();
      if (!rt) throw refuse('', 'moduleDisabled');
      await rt.probeNow(entry.key);
      return answer(entry.key);
    },
  });
}
