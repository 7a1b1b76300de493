import type { ZodType } from 'zod';

/** A stored number that was outside its field's range, and the bound it was read as. */
export interface ClampedValue {
  field: string;
  from: number;
  to: number;
}

/**
 * Reads a STORED document (the config file, a module's slice, a restored backup) with `schema`.
 * A number a later version narrowed the range of is read as the nearest bound, so an old file
 * keeps working, and `onClamp` is told. Only for reading what is stored: an API write is
 * validated with the schema itself and refused when out of range.
 */
export function parseStored<T>(schema: ZodType<T>, doc: unknown, onClamp?: (c: ClampedValue) => void): T {
  let r = schema.safeParse(doc);
  if (r.success) return r.data;
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(doc));
  } catch {
    throw r.error;
  }
  for (let round = 0; round < 8 && !r.success; round++) {
    let changed = false;
    for (const issue of r.error.issues) {
      if ((issue.code !== 'too_big' && issue.code !== 'too_small') || issue.origin !== 'number') continue;
      const bound = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum);
      if (!Number.isFinite(bound) || issue.path.length === 0) continue;
      let parent = copy as Record<PropertyKey, unknown> | undefined;
      for (const key of issue.path.slice(0, -1)) parent = parent?.[key] as Record<PropertyKey, unknown> | undefined;
      const key = issue.path[issue.path.length - 1];
      const from = parent?.[key];
      if (!parent || typeof from !== 'number' || from === bound) continue;
      parent[key] = bound;
      changed = true;
      onClamp?.({ field: issue.path.map(String).join('.'), from, to: bound });
    }
    if (!changed) break;
    r = schema.safeParse(copy);
  }
  if (r.success) return r.data;
  throw r.error;
}
