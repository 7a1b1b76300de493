// Shell-level server state. The module list, version and frontend settings
// calls fail silently (spec §8): the shell then works with what it has.
import type { FrontendControlResponse, ModulesListResponse, VersionResponse } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import { setItem } from '../api/storage';

export const queryKeys = {
  modules: ['modules'] as const,
  version: ['version'] as const,
  frontend: ['frontendcontroll'] as const,
};

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
