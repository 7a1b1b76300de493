import { canonicalPath, decisionPath } from '../http/canonicalPath.js';

/**
 * A configured prefix in the form request paths are compared in (`/%61pi//v1` → `/api/v1`, hex
 * upper case, `;` parameters cut), made once per config; one the canonical form refuses stays
 * as written.
 */
export function prefixForm(prefix: string): string {
  const c = canonicalPath(prefix);
  return typeof c === 'string' ? decisionPath(c) : prefix;
}

/** Does `path` start with `prefix` on a segment boundary (`/app` takes `/app` and `/app/x`, not `/apple`)? */
export function underPrefix(path: string, prefix: string): boolean {
  if (prefix === '/' || prefix === '') return true;
  const p = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`);
}
