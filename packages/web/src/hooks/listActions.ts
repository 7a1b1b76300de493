// Pieces every module list screen uses for its actions (switch, delete, sync…).
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { MessageInstance } from 'antd/es/message/interface';
import { errorDuration } from '../api/callErrors';

/** Puts an item the server just answered into the cached list, so a switch does not flicker back. */
export function patchListItem<T extends { key: string }>(qc: QueryClient, queryKey: QueryKey, item: T): void {
  qc.setQueryData<{ list: T[] }>(queryKey, (old) => {
    if (!old) return old;
    const found = old.list.some((x) => x.key === item.key);
    return { ...old, list: found ? old.list.map((x) => (x.key === item.key ? item : x)) : [...old.list, item] };
  });
}

/**
 * Runs one call: on success `done` gets the answer; a failure is shown in the
 * user's language (by `describe`) and answers false. Either way the list is
 * refreshed, so it shows what the server now has.
 */
export function makeAttempt(
  message: MessageInstance,
  describe: (err: unknown) => string | undefined,
  refresh: () => unknown,
) {
  return async <T>(run: () => Promise<T>, done?: (r: T) => void): Promise<boolean> => {
    try {
      const r = await run();
      done?.(r);
      return true;
    } catch (err) {
      const text = describe(err);
      if (text) void message.error({ content: text, key: text, duration: errorDuration(err) });
      return false;
    } finally {
      void refresh();
    }
  };
}
