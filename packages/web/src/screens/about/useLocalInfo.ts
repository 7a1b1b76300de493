import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client';

export interface ProgramInfo {
  AppName?: string;
  Version?: string;
  OS?: string;
  ARCH?: string;
  NodeVersion?: string;
  StartTime?: string | number;
  ConfigDir?: string;
}

export function useProgramInfo() {
  return useQuery({
    queryKey: ['info'],
    queryFn: async ({ signal }) => {
      const r = await get<{ ret: number; info?: ProgramInfo }>('api/info', { signal });
      return r.info ?? {};
    },
  });
}
