import type { ConfigMigration } from '../../core/modules/types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `enable` → `enabled` on one object (a value already named `enabled` wins). */
function renameSwitch(o: unknown): unknown {
  if (!isObj(o) || !('enable' in o)) return o;
  const { enable, ...rest } = o;
  return 'enabled' in rest ? rest : { ...rest, enabled: enable };
}

/** A default rule or sub rule: its own switch and those of basic auth, CORS and robots.txt. */
function service(s: unknown): unknown {
  const out = renameSwitch(s);
  if (!isObj(out)) return out;
  return {
    ...out,
    ...(isObj(out.basicAuth) ? { basicAuth: renameSwitch(out.basicAuth) } : {}),
    ...(isObj(out.cors) ? { cors: renameSwitch(out.cors) } : {}),
    ...(isObj(out.robots) ? { robots: renameSwitch(out.robots) } : {}),
  };
}

function rule(r: unknown): unknown {
  const out = renameSwitch(r);
  if (!isObj(out)) return out;
  return {
    ...out,
    ...(out.defaultRule !== undefined ? { defaultRule: service(out.defaultRule) } : {}),
    ...(Array.isArray(out.subRules) ? { subRules: out.subRules.map(service) } : {}),
  };
}

/**
 * Stored slices of older versions, upgraded in order (docs/adding-a-module.md, "Migrations").
 * v0 → v1: one name for on/off — a rule's, a sub rule's and the default rule's `enable`, and
 * those of basic auth, CORS and robots.txt, become `enabled`.
 */
export const reverseproxyMigrations: readonly ConfigMigration[] = [
  (slice) => ({ ...slice, ...(Array.isArray(slice.rules) ? { rules: slice.rules.map(rule) } : {}) }),
];
