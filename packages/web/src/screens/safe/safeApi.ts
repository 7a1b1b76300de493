// The calls of the security lists (/api/safe, core/routes/safe.ts on the server) and their cache
// keys. Every body and view is the shared contract's (shared/src/safe.ts).
import type {
  SafeBansResponse,
  SafeEntry,
  SafeEntryInput,
  SafeList,
  SafeResponse,
  SafeScope,
  SafeSettingsPatch,
  SafeTestResponse,
} from '@lucky/shared';
import { ApiError, del, get, post, put } from '../../api/client';

export const safeKeys = {
  all: ['safe'] as const,
  bans: ['safe', 'bans'] as const,
};

export const fetchSafe = (signal?: AbortSignal) => get<SafeResponse>('api/safe', { signal });
export const fetchBans = (signal?: AbortSignal) => get<SafeBansResponse>('api/safe/bans', { signal });

/** Refusals are the caller's to show (beside a field, or as the lock-out warning): silent. */
export const saveSafeSettings = (patch: SafeSettingsPatch) => put('api/safe/settings', patch, { silent: true });

export const addEntry = (list: SafeList, input: SafeEntryInput) =>
  post<{ ret: 0; entry?: SafeEntry }>(`api/safe/lists/${list}`, input, { silent: true });
export const editEntry = (list: SafeList, key: string, input: SafeEntryInput) =>
  put<{ ret: 0; entry?: SafeEntry }>(`api/safe/lists/${list}/${encodeURIComponent(key)}`, input, { silent: true });
export const deleteEntry = (list: SafeList, key: string) =>
  del(`api/safe/lists/${list}/${encodeURIComponent(key)}`, { silent: true });

export const unban = (ip: string) => del(`api/safe/bans/${encodeURIComponent(ip)}`);
export const unbanAll = () => del('api/safe/bans');

export const testAddress = (ip: string, scope: SafeScope) =>
  post<SafeTestResponse>('api/safe/test', { ip, scope }, { silent: true });

/** The knock URL: on the admin listener's own origin, outside the security entrance. */
export const knockUrl = (origin: string, path: string) => `${origin}/knock/${path}`;

const PATH_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A fresh secret knock path: 32 characters of 64 (192 bits), drawn by the browser's CSPRNG. */
export function randomKnockPath(length = 32): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 256 is a multiple of 64: every character is equally likely.
  return Array.from(bytes, (b) => PATH_CHARS[b % PATH_CHARS.length]).join('');
}

/** The caller's address and the rule a `wouldLockOut` refusal names, else undefined. */
export function lockOutOf(err: unknown): { ip: string; rule: string; field?: string } | undefined {
  if (!(err instanceof ApiError) || err.reply?.code !== 'wouldLockOut') return undefined;
  const p = err.reply.params ?? {};
  return { ip: String(p.ip ?? ''), rule: String(p.rule ?? ''), field: err.reply.field };
}
