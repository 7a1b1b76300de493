// Data of the screen: the storages, the open folder's listing, and a read ticket per storage
// (for `<img>`, `<a download>` and zip links, which carry no Authorization header).
import { useQuery } from '@tanstack/react-query';
import { fetchList, fetchRoots, fetchTicket, filebrowserKeys } from './api';

/** Renew the ticket this long before it expires (a link clicked late still works). */
const RENEW_BEFORE_MS = 5 * 60_000;

export const useRoots = () =>
  useQuery({ queryKey: filebrowserKeys.roots, queryFn: ({ signal }) => fetchRoots(signal) });

export const useListing = (storage: string, path: string) =>
  useQuery({
    queryKey: filebrowserKeys.list(storage, path),
    queryFn: ({ signal }) => fetchList(storage, path, signal),
    enabled: storage !== '',
    // A folder's listing may be 10,000 entries: keep the last one on screen while the next loads.
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[2] === storage ? prev : undefined),
  });

export function useTicket(storage: string): string {
  const q = useQuery({
    queryKey: filebrowserKeys.ticket(storage),
    queryFn: () => fetchTicket(storage),
    enabled: storage !== '',
    staleTime: (query) => Math.max(0, (query.state.data?.expiresAt ?? 0) - Date.now() - RENEW_BEFORE_MS),
    refetchInterval: (query) => Math.max(10_000, (query.state.data?.expiresAt ?? 0) - Date.now() - RENEW_BEFORE_MS),
  });
  return q.data?.ticket ?? '';
}
