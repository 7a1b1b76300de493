import { PORTFORWARD_LIMITS } from '@lucky/shared';
import type { ConfigMigration } from '../../core/modules/types.js';

type Slice = Record<string, unknown>;
const isObject = (v: unknown): v is Slice => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * 0 → 1: rules saved before a rule had a per-address cap by default (it was 0, no cap) and an
 * idle time-out. Such a rule has no `tcpIdleTimeoutMs`, and gets the default cap new rules get,
 * so an upgrade does not leave one address able to hold every slot of an old rule. A cap of 0
 * chosen since then (the rule has `tcpIdleTimeoutMs`) stays 0.
 */
const capRulesSavedBeforeDefaults: ConfigMigration = (slice) => {
  if (!Array.isArray(slice.rules)) return slice;
  const rules = slice.rules.map((r: unknown) =>
    isObject(r) && !('tcpIdleTimeoutMs' in r) && r.perIpMaxConnections === 0
      ? { ...r, perIpMaxConnections: PORTFORWARD_LIMITS.rulePerIpMaxConnections.default }
      : r,
  );
  return { ...slice, rules };
};

/** `migrations[n]` turns a stored slice of version n into n + 1 (the supervisor runs them). */
export const portforwardMigrations: readonly ConfigMigration[] = [capRulesSavedBeforeDefaults];
