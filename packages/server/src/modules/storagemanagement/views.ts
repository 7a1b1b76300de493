// What the GET routes answer for an entry: its config with the password masked, what the last
// probe found (or why there is none: module off, entry off) and who mounts it.
import { maskSecrets, STORAGEMANAGEMENT_REASONS, type StorageEntryConfig, type StorageEntryView } from '@lucky/shared';
import type { StorageService } from '../../core/storage/types.js';
import type { StoragemanagementRuntime } from './runtime.js';

const ENTRY_SECRETS = ['webdav.password'];

export function entryView(
  entry: StorageEntryConfig,
  rt: StoragemanagementRuntime | undefined,
  storages: StorageService,
): StorageEntryView {
  const masked = maskSecrets(entry, ENTRY_SECRETS);
  const mounts = storages.mountsOf(entry.key).map((m) => ({ module: m.module, owner: m.owner, enabled: m.enabled }));
  if (!rt) {
    return {
      ...masked,
      state: 'stopped',
      reason: { code: 'moduleDisabled' },
      error: STORAGEMANAGEMENT_REASONS.moduleDisabled,
      mounts,
    };
  }
  if (!entry.enabled) {
    return {
      ...masked,
      state: 'disabled',
      reason: { code: 'entryDisabled' },
      error: STORAGEMANAGEMENT_REASONS.entryDisabled,
      mounts,
    };
  }
  const p = rt.probeOf(entry.key);
  if (!p || p.state === 'checking') {
    return {
      ...masked,
      state: 'checking',
      reason: { code: 'notChecked' },
      error: STORAGEMANAGEMENT_REASONS.notChecked,
      mounts,
    };
  }
  return {
    ...masked,
    state: p.state,
    ...(p.reason ? { reason: p.reason, error: p.error } : {}),
    ...(p.space ? { space: p.space } : {}),
    ...(p.checkedAt ? { checkedAt: p.checkedAt } : {}),
    mounts,
  };
}
