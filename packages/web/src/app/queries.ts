// Shell-level server state. The module list, version and frontend settings
// calls fail silently (spec §8): the shell then works with what it has.
import type { BaseConfigureView, FrontendControlResponse, ModulesListResponse, VersionResponse } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import { setItem } from '../api/storage';

export const queryKeys = {
  modules: ['modules'] as const,
  version: ['version'] as const,
  frontend: ['frontendcontroll'] as const,
  /** GET api/baseconfigure: the settings screen and the shell (display time zone) share it. */
  baseConfigure: ['baseconfigure'] as const,
};

export async function fetchBaseConfigure(signal?: AbortSignal, silent = false): Promise<BaseConfigureView> {
  const r = await get<{ ret: number; baseconfigure: BaseConfigureView }>('api/baseconfigure', { signal, silent });
  return r.baseconfigure;
}

/** The base settings for the shell: silent, its failure only means the browser's time zone is used. */
export function useBaseSettings(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.baseConfigure,
    enabled,
    queryFn: ({ signal }) => fetchBaseConfigure(signal, true),
    staleTime: 60_000,
  });
}

export function useModules(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.modules,
    enabled,
    queryFn: async ({ signal }) => {
      const r = await get<ModulesListResponse>('api/modules/list', { silent: true, signal });
      return { modules: Array.isArray(r.Modules) ? r.Modules : [], user: r.u };
    },
    staleTime: 30_000,
  });
}

export function useVersion() {
  return useQuery({
    queryKey: queryKeys.version,
    queryFn: async ({ signal }) => {
      const r = await get<VersionResponse>('version', { auth: false, silent: true, signal });
      // Spec §6: the 2FA flag from the version call is stored.
      if (typeof r.twoFAEnable === 'boolean') setItem('twoFAEnable', r.twoFAEnable);
      return r;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useFrontendControl(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.frontend,
    enabled,
    queryFn: ({ signal }) => get<FrontendControlResponse>('frontendcontroll', { auth: false, silent: true, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
