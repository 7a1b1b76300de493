// The storage keys storage management's slice holds, for the "unknown storage" check at save.
// Modules never import each other: the slice comes through the validate context as data, typed
// by storage management's shared schema.
import type { StoragemanagementConfig } from '@lucky/shared';

export function storageKeysOf(slice: unknown): Set<string> | undefined {
  const list = (slice as Partial<StoragemanagementConfig> | undefined)?.storages;
  return Array.isArray(list) ? new Set(list.map((s) => s.key)) : undefined;
}
