import { SECRET_MASK } from '../modules/secretText.js';

// One secret mechanism for every module: a whole-value secret reads as SECRET_MASK when it is
// set and '' when it is not; a write that sends SECRET_MASK back keeps the stored value, any
// other value replaces it ('' clears it). A module names its secrets by path patterns over its
// config slice: dotted keys, `*` for every element of an array, e.g. `rules.*.tls.key`.
// Array elements are matched with the stored ones by their `key` field (rules and tasks have
// one), else by index, so re-ordering a list cannot move a secret to another rule.

export { SECRET_MASK };

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(value: Json, prev: Json, parts: string[], at: (next: Json, prev: Json) => Json): Json {
  if (parts.length === 0) return at(value, prev);
  const [head, ...rest] = parts;
  if (head === '*') {
    if (!Array.isArray(value)) return value;
    const prevList = Array.isArray(prev) ? prev : [];
    return value.map((item, i) => {
      const key = isObject(item) ? item.key : undefined;
      const match = key !== undefined ? prevList.find((p) => isObject(p) && p.key === key) : prevList[i];
      return walk(item, match, rest, at);
    });
  }
  if (!isObject(value) || !(head in value)) return value;
  return { ...value, [head]: walk(value[head], isObject(prev) ? prev[head] : undefined, rest, at) };
}

const split = (pattern: string) => pattern.split('.').filter(Boolean);

/** The value as a read shows it: every secret at `paths` replaced by SECRET_MASK (or '' when unset). */
export function maskSecrets<T>(value: T, paths: readonly string[]): T {
  let out: Json = value;
  for (const p of paths)
    out = walk(out, undefined, split(p), (v) => (typeof v === 'string' ? (v === '' ? '' : SECRET_MASK) : v));
  return out as T;
}

/** A write: each secret sent back as SECRET_MASK takes the stored value again. */
export function keepSecrets<T>(next: T, prev: unknown, paths: readonly string[]): T {
  let out: Json = next;
  for (const p of paths)
    out = walk(out, prev, split(p), (v, old) => (v === SECRET_MASK ? (typeof old === 'string' ? old : '') : v));
  return out as T;
}

/** Every string at `paths` that is set (for the guard test that plants secrets and reads them back). */
export function secretValues(value: Json, paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const p of paths)
    walk(value, undefined, split(p), (v) => {
      if (typeof v === 'string' && v !== '') found.push(v);
      return v;
    });
  return found;
}
