// The storage keys storage management's slice holds, for the "unknown storage" check at save.
// Modules never import each other, so the slice is read as data: its list of entries is the
// array of objects with a string `key` (storage management keeps one such list).
export function storageKeysOf(slice: unknown): Set<string> | undefined {
  if (!slice || typeof slice !== 'object') return undefined;
  for (const v of Object.values(slice as Record<string, unknown>)) {
    if (!Array.isArray(v)) continue;
    const keys = v.map((e) => (e && typeof e === 'object' ? (e as { key?: unknown }).key : undefined));
    if (keys.every((k) => typeof k === 'string')) return new Set(keys as string[]);
  }
  return undefined;
}
