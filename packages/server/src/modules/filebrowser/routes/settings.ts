import {
  type FilebrowserConfig,
  type FilebrowserRootsResponse,
  type FilebrowserSettingsResponse,
  filebrowserSettingsPatchSchema,
} from '@lucky/shared';
import type { Routes } from '../../../core/http/registry.js';
import { addServiceLogRoutes } from '../../../core/logs/logRoutes.js';
import { serialQueue } from '../../../core/modules/keyed.js';
import type { ModuleApi } from '../../../core/modules/types.js';
import type { FilebrowserRuntime } from '../runtime.js';

/** The settings (everything but the shares), the storages it shows, and the module's log. */
export function registerSettingsRoutes(r: Routes, api: ModuleApi<FilebrowserConfig>): void {
  const serial = serialQueue();
  const live = () => api.runtime() as FilebrowserRuntime | undefined;
  const settings = (): FilebrowserSettingsResponse => {
    const { shares: _shares, ...rest } = api.config();
    return { ret: 0, settings: rest };
  };

  r.add({
    method: 'GET',
    path: '/api/filebrowser/settings',
    access: 'token',
    summary: 'File manager: the settings (module switch, trash, thumbnails, share-link rules, upload expiry)',
    handler: settings,
  });

  r.add({
    method: 'PUT',
    path: '/api/filebrowser/settings',
    access: 'token',
    summary: 'File manager: change settings (any subset; `enabled` is the module switch)',
    body: filebrowserSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const patch = Object.fromEntries(Object.entries(input.body).filter(([, v]) => v !== undefined));
        await api.saveConfig({ ...prev, ...patch });
        return settings();
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/filebrowser/roots',
    access: 'token',
    summary: 'File manager: the storages it shows (every storage storage management has open)',
    handler: (): FilebrowserRootsResponse => {
      const list = api.storages.list().map((s) => ({ key: s.key, name: s.name, kind: s.kind, readOnly: s.readOnly }));
      return { ret: 0, enabled: api.config().enabled, list };
    },
  });

  addServiceLogRoutes(r, {
    path: '/api/filebrowser/logs',
    service: 'File manager',
    holds: 'uploads, deletes, share links',
    log: () => live()?.log,
  });
}
