// Runs one port-mapping call inside a lab namespace (through runInNs) and prints the result as
// JSON; a PortMapError is printed as { error: { code, params, text } } so the test can check it.
// Argument: one JSON object, the call (see Call below).
import { PortMapError } from '../../src/modules/stun/portmap/errors.js';
import { type PortMapMethod, PortMapping, type PortMappingRequest } from '../../src/modules/stun/portmap/mapping.js';
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
  | { op: 'pcpUnmap'; protocol: Protocol; internalPort: number; nonce: string }
  /** A PortMapping kept until it has renewed `renewals` times or reported `changes` states; then stopped. */
  | {
      op: 'keep';
      method: PortMapMethod;
      req: PortMappingRequest;
      until: { renewals?: number; changes?: number };
      retryMinMs?: number;
    };

export type KeepEvent = { t: 'change' | 'renew'; state: Record<string, unknown> };

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
    case 'keep':
      return keep(c);
  }
}

async function keep(c: Extract<Call, { op: 'keep' }>): Promise<{ events: KeepEvent[] }> {
  const events: KeepEvent[] = [];
  let renewals = 0;
  let changes = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const check = () => {
    if (
      (c.until.renewals !== undefined && renewals >= c.until.renewals) ||
      (c.until.changes !== undefined && changes >= c.until.changes)
    ) {
      done();
    }
  };
  const mapping = new PortMapping(
    c.method,
    c.req,
    {
      onChange: (state) => {
        events.push({ t: 'change', state: { ...state } });
        changes++;
        check();
      },
      onRenew: (state) => {
        events.push({ t: 'renew', state: { ...state } });
        renewals++;
        check();
      },
    },
    { retryMinMs: c.retryMinMs ?? 200, retryMaxMs: 1000 },
  );
  mapping.start();
  await finished;
  await mapping.stop();
  return { events };
}

const call = JSON.parse(process.argv[2] ?? '{}') as Call;
try {
  process.stdout.write(JSON.stringify({ ok: await perform(call) }));
} catch (err) {
  if (!(err instanceof PortMapError)) throw err;
  process.stdout.write(JSON.stringify({ error: { code: err.code, params: err.params, text: err.message } }));
}
