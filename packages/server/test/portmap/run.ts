// Runs one port-mapping call inside a lab namespace (through runInNs) and prints the result as
// JSON; a PortMapError is printed as { error: { code, params, text } } so the test can check it.
// Argument: one JSON object, the call (see Call below), or a list of calls run in order.
import { PortMapError } from '../../src/modules/stun/portmap/errors.js';
import { natpmpExternalAddress, natpmpMap, natpmpUnmap } from '../../src/modules/stun/portmap/natpmp.js';
import { pcpExternalAddress, pcpMap, pcpUnmap } from '../../src/modules/stun/portmap/pcp.js';
import {
  addPortMapping,
  deletePortMapping,
  discoverGateways,
  getExternalAddress,
  openGateway,
  type UpnpMappingRequest,
} from '../../src/modules/stun/portmap/upnp.js';

type Protocol = 'tcp' | 'udp';

export type Call =
  | { op: 'discover'; localAddress?: string; timeoutMs?: number }
  | { op: 'upnpAdd'; gateway?: string; localAddress?: string; mapping: UpnpMappingRequest }
  | { op: 'upnpDelete'; gateway?: string; protocol: Protocol; externalPort: number }
  | { op: 'natpmpAddress'; gateway?: string }
  | { op: 'natpmpMap'; protocol: Protocol; internalPort: number; externalPort: number; lifetimeSec: number }
  | { op: 'natpmpUnmap'; protocol: Protocol; internalPort: number }
  | { op: 'pcpAddress' }
  | { op: 'pcpMap'; protocol: Protocol; internalPort: number; externalPort: number; lifetimeSec: number; nonce: string }
  | { op: 'pcpUnmap'; protocol: Protocol; internalPort: number; nonce: string };

async function perform(c: Call): Promise<unknown> {
  switch (c.op) {
    case 'discover':
      return discoverGateways({ localAddress: c.localAddress, timeoutMs: c.timeoutMs });
    case 'upnpAdd': {
      const svc = await openGateway(c.gateway, { localAddress: c.localAddress });
      const { leaseSec } = await addPortMapping(svc, c.mapping, { localAddress: c.localAddress });
      return { svc, leaseSec, externalAddress: await getExternalAddress(svc, { localAddress: c.localAddress }) };
    }
    case 'upnpDelete': {
      const svc = await openGateway(c.gateway);
      await deletePortMapping(svc, { protocol: c.protocol, externalPort: c.externalPort });
      return { deleted: true };
    }
    case 'natpmpAddress':
      return natpmpExternalAddress({ gateway: c.gateway });
    case 'natpmpMap':
      return natpmpMap(c);
    case 'natpmpUnmap':
      await natpmpUnmap(c);
      return { deleted: true };
    case 'pcpAddress':
      return pcpExternalAddress();
    case 'pcpMap':
      return pcpMap({ ...c, nonce: Buffer.from(c.nonce, 'hex') });
    case 'pcpUnmap':
      await pcpUnmap({ ...c, nonce: Buffer.from(c.nonce, 'hex') });
      return { deleted: true };
  }
}

/** One call's outcome: its result, or its coded failure. */
async function outcome(call: Call): Promise<unknown> {
  try {
    return { ok: await perform(call) };
  } catch (err) {
    if (!(err instanceof PortMapError)) throw err;
    return { error: { code: err.code, params: err.params, text: err.message } };
  }
}

// One call, or a list run in order (one process start for several steps).
const arg = JSON.parse(process.argv[2] ?? '{}') as Call | Call[];
const out = [];
for (const c of Array.isArray(arg) ? arg : [arg]) out.push(await outcome(c));
process.stdout.write(JSON.stringify(Array.isArray(arg) ? out : out[0]));
