// What the dialogs pick from outside the module: storages of storage management (for a mount),
// certificates of the core's store (the name whose certificate FTPS presents) and the box's
// addresses (the listening address). Each is read when its dialog opens; a failure leaves the
// picker empty and the field still takes typed text (or, for storages, says so).
import type { NetInterfacesResponse, StorageEntryView, StoragemanagementListResponse } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { get } from '../../api/client';
import { type CertView, certValidity, fetchCerts } from '../../screens/safe/certs';
import { ftpKeys } from './api';

export type StorageChoice = Pick<StorageEntryView, 'key' | 'name' | 'kind' | 'readOnly' | 'state'>;

/** Storage management's entries (its list call), for the mount dialog's storage picker. */
export function useStorages(enabled: boolean) {
  const query = useQuery({
    queryKey: ftpKeys.storages,
    queryFn: ({ signal }) =>
      get<StoragemanagementListResponse>('api/storagemanagement/storages', { signal, silent: true }),
    enabled,
    staleTime: 0,
  });
  const data = query.data;
  const list: StorageChoice[] = useMemo(
    () => (data?.list ?? []).map(({ key, name, kind, readOnly, state }) => ({ key, name, kind, readOnly, state })),
    [data],
  );
  return { list, loading: query.isPending && enabled, failed: query.isError };
}

export interface CertChoice {
  /** A name FTPS can present the certificate for (wildcards are not names: the user types one under it). */
  name: string;
  remark: string;
  notAfter?: string;
  usable: boolean;
}

/** Names of the store's enabled certificates, each once (the valid one that expires last wins). */
export function certChoices(certs: readonly CertView[], now = Date.now()): CertChoice[] {
  const byName = new Map<string, CertChoice>();
  for (const c of certs) {
    if (!c.Enable) continue;
    const v = certValidity(c, now);
    const usable = v.state === 'valid' || v.state === 'soon';
    for (const domain of c.CertsInfo[0]?.Domains ?? []) {
      const name = domain.toLowerCase();
      if (name.startsWith('*.')) continue;
      const old = byName.get(name);
      const later = !old || (usable && (!old.usable || (v.notAfter ?? '') > (old.notAfter ?? '')));
      if (later) byName.set(name, { name, remark: c.Remark, notAfter: v.notAfter, usable });
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function useCertChoices(enabled: boolean) {
  const query = useQuery({
    queryKey: ftpKeys.certs,
    queryFn: ({ signal }) => fetchCerts(signal),
    enabled,
    staleTime: 0,
  });
  return { list: certChoices(query.data ?? []), loading: query.isPending && enabled };
}

/** Every address of the box's interfaces, IPv4 first. */
export function useLocalAddresses(enabled: boolean) {
  const query = useQuery({
    queryKey: ftpKeys.interfaces,
    queryFn: ({ signal }) => get<NetInterfacesResponse>('api/netinterfaces', { signal, silent: true }),
    enabled,
    staleTime: 60_000,
  });
  const d = query.data?.data;
  const all = [...(d?.IPv4NewInterfaces ?? []), ...(d?.IPv6NewInterfaces ?? [])];
  return all.flatMap((i) => i.AddressList.map((address) => ({ address, name: i.NetInterfaceName })));
}
