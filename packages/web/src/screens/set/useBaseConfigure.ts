import type { BaseConfigurePut } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { put, type RequestOptions } from '../../api/client';
import { fetchBaseConfigure, queryKeys } from '../../app/queries';

export const BASE_CONFIGURE_KEY = queryKeys.baseConfigure;

export interface SaveReply {
  ret: number;
  port?: number;
  restartNeeded?: boolean;
  /** The saved port applies only once the program runs without its -p flag. */
  portOverriddenByFlag?: boolean;
  token?: string;
}

export function useBaseConfigure() {
  return useQuery({
    queryKey: BASE_CONFIGURE_KEY,
    queryFn: ({ signal }) => fetchBaseConfigure(signal),
  });
}

/**
 * PUT a subset of the settings; refreshes the settings and the shell's module list (banner) afterwards.
 * `silent`: the form shows a refusal itself (useFormErrors).
 */
export function useSaveBaseConfigure() {
  const queryClient = useQueryClient();
  return useCallback(
    async (body: BaseConfigurePut, opts: Pick<RequestOptions, 'silent'> = {}): Promise<SaveReply> => {
      const reply = await put<SaveReply>('api/baseconfigure', body, opts);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: BASE_CONFIGURE_KEY }),
        queryClient.invalidateQueries({ queryKey: queryKeys.modules }),
        queryClient.invalidateQueries({ queryKey: queryKeys.frontend }),
      ]);
      return reply;
    },
    [queryClient],
  );
}

/** The fields of `next` that differ from `prev` (arrays compared by value). */
export function changedFields<T extends object>(prev: T, next: Partial<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (JSON.stringify(next[key]) !== JSON.stringify(prev[key])) out[key] = next[key];
  }
  return out;
}
