// A share as the admin API shows it: password masked, the link's path, its state and use.
import {
  type FilebrowserConfig,
  type FilebrowserShare,
  type FilebrowserShareState,
  type FilebrowserShareView,
  SECRET_MASK,
} from '@lucky/shared';
import type { ModuleApi } from '../../../core/modules/types.js';
import type { ShareUse } from './state.js';

export const shareUrl = (id: string): string => `/s/${id}`;

/** What the link answers now, before the target is looked at (`missing` needs a stat). */
export function shareStateOf(share: FilebrowserShare, use: ShareUse, now = Date.now()): FilebrowserShareState {
  if (!share.enabled) return 'disabled';
  if (share.expiresAt > 0 && share.expiresAt <= now) return 'expired';
  if (share.maxDownloads > 0 && use.downloads >= share.maxDownloads) return 'exhausted';
  return 'active';
}

/** The view; `exists` says whether the target (and its storage) is there. */
export function shareView(
  api: ModuleApi<FilebrowserConfig>,
  share: FilebrowserShare,
  use: ShareUse,
  exists: boolean,
): FilebrowserShareView {
  const info = api.storages.list().find((s) => s.key === share.storage);
  const state = shareStateOf(share, use);
  return {
    key: share.key,
    id: share.id,
    url: shareUrl(share.id),
    storage: share.storage,
    storageName: info?.name ?? share.storage,
    path: share.path,
    kind: share.kind,
    enabled: share.enabled,
    password: share.password ? SECRET_MASK : '',
    expiresAt: share.expiresAt,
    maxDownloads: share.maxDownloads,
    downloads: use.downloads,
    lastAccessAt: use.lastAccessAt,
    note: share.note,
    createdAt: share.createdAt,
    state: state === 'active' && !exists ? 'missing' : state,
  };
}

/** Whether the share's target is there (its storage open, the path of the kind it was shared as). */
export async function targetExists(api: ModuleApi<FilebrowserConfig>, share: FilebrowserShare): Promise<boolean> {
  const storage = api.storages.get(share.storage);
  if (!storage) return false;
  try {
    return (await storage.stat(share.path)).kind === share.kind;
  } catch {
    return false;
  }
}
