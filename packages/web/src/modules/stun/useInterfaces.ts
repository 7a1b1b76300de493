// The box's IPv4 interfaces (core call /api/netinterfaces), for the channel pickers: interface
// names, and each address with the interface it belongs to.
import { useQuery } from '@tanstack/react-query';
import { fetchNetInterfaces, stunKeys } from './api';

export interface InterfaceAddress {
  address: string;
  name: string;
}

export function useInterfaces(enabled = true) {
  const query = useQuery({
    queryKey: stunKeys.interfaces,
    queryFn: ({ signal }) => fetchNetInterfaces(signal),
    enabled,
    staleTime: 60_000,
  });
  const list = query.data?.data.IPv4NewInterfaces ?? [];
  return {
    names: list.map((i) => i.NetInterfaceName),
    addresses: list.flatMap((i): InterfaceAddress[] =>
      i.AddressList.map((address) => ({ address, name: i.NetInterfaceName })),
    ),
    loading: query.isPending && enabled,
  };
}
