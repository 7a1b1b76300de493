import { randomBytes } from 'node:crypto';
import {
  type FilebrowserConfig,
  type FilebrowserShare,
  type FilebrowserShareResponse,
  type FilebrowserSharesResponse,
  filebrowserIssues,
  filebrowserShareInputSchema,
  filebrowserSharePatchSchema,
  SECRET_MASK,
  SHARE_ID,
} from '@lucky/shared';
import { hashPassword } from '../../../core/auth/password.js';
import type { Routes } from '../../../core/http/registry.js';
import { fieldFailure } from '../../../core/http/reply.js';
import { newKey, serialQueue } from '../../../core/modules/keyed.js';
import type { ModuleApi } from '../../../core/modules/types.js';
import type { FilebrowserRuntime } from '../runtime.js';
import { registerPublicShareRoutes } from '../shares/public.js';
import { shareStateFor } from '../shares/state.js';
import { shareView, targetExists } from '../shares/view.js';
import { onStorage, storageOf } from '../storageAccess.js';

/**
 * Share links: the admin's list (token) and the public pages under `/s/` (no login). A new link's
 * id is 128 random bits; its password is kept as a scrypt hash; download counts live in the
 * module's state file (shares/state.ts), never in the config.
 */
export function registerShareRoutes(r: Routes, api: ModuleApi<FilebrowserConfig>): void {
  const serial = serialQueue();
  const live = () => api.runtime() as FilebrowserRuntime | undefined;
  const state = shareStateFor(api.configDir);
  const view = async (share: FilebrowserShare) => {
    await state.load();
    return shareView(api, share, state.get(share.key), await targetExists(api, share));
  };
  const find = (key: string): FilebrowserShare => {
    const share = api.config().shares.find((s) => s.key === key);
    if (!share)
      throw fieldFailure(
        { field: 'key', code: 'shareNotFound', params: {}, msg: filebrowserIssues.describe('shareNotFound') },
        404,
      );
    return share;
  };

  r.add({
    method: 'GET',
    path: '/api/filebrowser/shares',
    access: 'token',
    summary: 'File manager: the share links (password masked, state, downloads, last access)',
    handler: async (): Promise<FilebrowserSharesResponse> => ({
      ret: 0,
      list: await Promise.all(api.config().shares.map(view)),
    }),
  });

  r.add({
    method: 'POST',
    path: '/api/filebrowser/shares',
    access: 'token',
    summary: 'File manager: share a file or folder (the server draws the link id; password stored hashed)',
    body: filebrowserShareInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FilebrowserShareResponse> => {
        const b = input.body;
        const storage = storageOf(api, b.storage);
        const entry = await onStorage(() => storage.stat(b.path));
        const prev = api.config();
        let id: string;
        do id = randomBytes(16).toString('base64url');
        while (!SHARE_ID.test(id) || prev.shares.some((s) => s.id === id));
        const share: FilebrowserShare = {
          key: newKey(prev.shares),
          id,
          storage: b.storage,
          path: entry.path,
          kind: entry.kind,
          enabled: true,
          password: b.password ? await hashPassword(b.password) : '',
          expiresAt: b.expiresAt,
          maxDownloads: b.maxDownloads,
          note: b.note,
          createdAt: Date.now(),
        };
        await api.saveConfig({ ...prev, shares: [...prev.shares, share] });
        live()?.line(4, 'shareCreated', { storage: share.storage, path: share.path });
        return { ret: 0, share: await view(share) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/filebrowser/shares/:key',
    access: 'token',
    summary: 'File manager: change a share link (switch, password, expiry, download limit, note)',
    body: filebrowserSharePatchSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<FilebrowserShareResponse> => {
        const old = find(input.params.key);
        const p = input.body;
        const password =
          p.password === undefined || p.password === SECRET_MASK
            ? old.password
            : p.password === ''
              ? ''
              : await hashPassword(p.password);
        const next: FilebrowserShare = {
          ...old,
          enabled: p.enabled ?? old.enabled,
          password,
          expiresAt: p.expiresAt ?? old.expiresAt,
          maxDownloads: p.maxDownloads ?? old.maxDownloads,
          note: p.note ?? old.note,
        };
        const prev = api.config();
        await api.saveConfig({ ...prev, shares: prev.shares.map((s) => (s.key === old.key ? next : s)) });
        return { ret: 0, share: await view(next) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/filebrowser/shares/:key',
    access: 'token',
    summary: 'File manager: remove a share link (the link answers not found from now on)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const old = find(input.params.key);
        const prev = api.config();
        const shares = prev.shares.filter((s) => s.key !== old.key);
        await api.saveConfig({ ...prev, shares });
        await state.load();
        state.prune(shares.map((s) => s.key));
        live()?.line(4, 'shareRevoked', { storage: old.storage, path: old.path });
        return { ret: 0 };
      }),
  });

  registerPublicShareRoutes(r, api);
}
