// Checks and edits of the `safe` config slice the routes and the knock share: entry validation
// with its refusal codes, new keys, the lock-out guard, pruning of expired entries.
import { randomBytes } from 'node:crypto';
import {
  issueKit,
  SAFE_LIMITS,
  SAFE_MESSAGES,
  type SafeConfig,
  type SafeEntry,
  type SafeEntryInput,
  type SafeSettingsView,
  safeEntryProblem,
} from '@lucky/shared';
import type { ConfigStore } from '../config/store.js';
import { type ApiFailure, fieldFailure } from '../http/reply.js';
import type { CoreSafeGate } from './gate.js';
import { entryInterval, entryLive, isReversedRange } from './matcher.js';

export const SAFE_ISSUES = issueKit(SAFE_MESSAGES);

const KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random key of letters and digits (`length` ≤ 32, the schema's bound). */
export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  // 256 % 62 leaves a small bias; a key is an id, not a secret.
  for (const b of bytes) out += KEY_CHARS[b % KEY_CHARS.length];
  return out;
}

/** The knock URL's secret path: 32 url-safe characters from 24 random bytes (192 bits). */
export function randomKnockPath(): string {
  return randomBytes(24).toString('base64url');
}

export function safeFailure(
  code: keyof typeof SAFE_MESSAGES,
  field: string,
  params: Record<string, unknown> = {},
  status = 400,
): ApiFailure {
  return fieldFailure({ field, code, params, msg: SAFE_ISSUES.describe(code, params) }, status);
}

/** Why `input` cannot go on `list` (beside `except`, the entry being edited), as a refusal; nothing when it can. */
export function checkEntry(
  list: readonly SafeEntry[],
  input: Required<SafeEntryInput>,
  now: number,
  exceptKey?: string,
): void {
  const value = input.value;
  const problem = safeEntryProblem(value);
  if (problem) throw safeFailure(problem, 'value', { value });
  if (isReversedRange(value)) throw safeFailure('rangeReversed', 'value', { value });
  if (input.expiresAt !== null && !(Date.parse(input.expiresAt) > now)) throw safeFailure('expiryPast', 'expiresAt');
  const iv = entryInterval(value);
  for (const e of list) {
    if (e.key === exceptKey || !entryLive(e, now)) continue;
    const other = entryInterval(e.value);
    if (iv && other && other.family === iv.family && other.start === iv.start && other.end === iv.end)
      throw safeFailure('entryDuplicate', 'value', { value: e.value });
  }
  if (exceptKey === undefined && list.length >= SAFE_LIMITS.entries.max)
    throw fieldFailure({
      field: 'value',
      code: 'tooBig',
      params: { max: SAFE_LIMITS.entries.max },
      msg: SAFE_ISSUES.describe('tooBig', { max: SAFE_LIMITS.entries.max }),
    });
}

/**
 * Refuse `next` when it would refuse `ip` (the caller) at the admin console while the running
 * config admits it: the change would cut off the one making it.
 */
export function guardLockOut(
  gate: CoreSafeGate,
  current: SafeConfig,
  next: SafeConfig,
  ip: string,
  field: string,
): void {
  if (!gate.decideWith(current, ip, 'admin').allowed) return;
  const d = gate.decideWith(next, ip, 'admin');
  if (!d.allowed) throw safeFailure('wouldLockOut', field, { ip, rule: d.rule }, 409);
}

/** The slice without entries expired at `now` (the same object when none is). */
export function withoutExpired(cfg: SafeConfig, now: number): SafeConfig {
  const live = (l: SafeEntry[]) => (l.every((e) => entryLive(e, now)) ? l : l.filter((e) => entryLive(e, now)));
  const allow = live(cfg.allow);
  const block = live(cfg.block);
  return allow === cfg.allow && block === cfg.block ? cfg : { ...cfg, allow, block };
}

/** Drop expired entries from the saved config (on read and by the gate's timer); nothing written when none is. */
export async function pruneExpired(store: ConfigStore, now: number): Promise<void> {
  const cfg = store.get().safe;
  if (withoutExpired(cfg, now) === cfg) return;
  await store.update((d) => {
    d.safe = withoutExpired(d.safe, now);
  });
}

export function settingsView(cfg: SafeConfig): SafeSettingsView {
  return {
    allowMode: cfg.allowMode,
    exempt: cfg.exempt,
    knock: {
      enabled: cfg.knock.enabled,
      path: cfg.knock.path,
      hours: cfg.knock.hours,
      hasPassword: cfg.knock.passwordHash !== '',
    },
    autoBan: cfg.autoBan,
  };
}
