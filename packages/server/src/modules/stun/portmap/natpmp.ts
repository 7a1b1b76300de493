// NAT-PMP client (RFC 6886): the gateway's public address, mapping a UDP or TCP port for a
// lifetime, and deleting it (lifetime 0). Every answer is checked for size, version, opcode and
// our own internal port before it is believed.
import net from 'node:net';
import { PortMapError } from './errors.js';
import { defaultGateway } from './gateway.js';
import { NATPMP_PORT, resultError, type UdpExchangeOptions, udpExchange, type Verdict } from './udpExchange.js';

export type MapProtocol = 'udp' | 'tcp';

export interface GatewayOptions extends UdpExchangeOptions {
  /** The gateway's IPv4 address; default: the default route's gateway. */
  gateway?: string;
  /** The server port (5351); another one only for tests against a fake gateway. */
  port?: number;
}

export interface NatPmpAddress {
  externalAddress: string;
  /** Seconds since the gateway's port-mapping table was (re)initialised; a drop means it lost our mappings. */
  epoch: number;
  gateway: string;
}

export interface NatPmpMapping {
  protocol: MapProtocol;
  internalPort: number;
  /** The port the gateway chose (it may differ from the suggested one). */
  externalPort: number;
  lifetimeSec: number;
  epoch: number;
  gateway: string;
}

const OP_ADDRESS = 0;
const OP_UDP = 1;
const OP_TCP = 2;

/** The gateway to ask: the given one (an IPv4 literal) or the default route's. */
export async function resolveGateway(opts: { gateway?: string; localAddress?: string }): Promise<string> {
  if (opts.gateway === undefined || opts.gateway === '') return defaultGateway(opts.localAddress);
  if (!net.isIPv4(opts.gateway)) throw new PortMapError('badGateway', { gateway: opts.gateway });
  return opts.gateway;
}

/** Checks the common header of an answer to `op`; undefined when it is ours and succeeded. */
function header(msg: Buffer, op: number, size: number, gateway: string): Verdict<never> | undefined {
  if (msg.length < 4) return { ignore: `${msg.length}-byte answer` };
  if (msg[0] !== 0) return { ignore: `version ${msg[0]}` };
  if (msg[1] !== 128 + op) return { ignore: `opcode ${msg[1]}` };
  const result = msg.readUInt16BE(2);
  if (result !== 0) throw resultError('natpmp', gateway, result);
  if (msg.length < size) return { ignore: `${msg.length}-byte answer` };
  return undefined;
}

/** The gateway's public IPv4 address (opcode 0). */
export async function natpmpExternalAddress(opts: GatewayOptions = {}): Promise<NatPmpAddress> {
  const gateway = await resolveGateway(opts);
  return udpExchange(
    'natpmp',
    gateway,
    opts.port ?? NATPMP_PORT,
    () => Buffer.from([0, OP_ADDRESS]),
    (msg) => {
      const bad = header(msg, OP_ADDRESS, 12, gateway);
      if (bad) return bad;
      const externalAddress = [...msg.subarray(8, 12)].join('.');
      return { value: { externalAddress, epoch: msg.readUInt32BE(4), gateway } };
    },
    opts,
  );
}

/**
 * Maps `internalPort` of this host (the request's source address) for `lifetimeSec` seconds,
 * suggesting `externalPort` (0: any). Lifetime 0 deletes; use natpmpUnmap for that.
 */
export async function natpmpMap(
  req: { protocol: MapProtocol; internalPort: number; externalPort: number; lifetimeSec: number },
  opts: GatewayOptions = {},
): Promise<NatPmpMapping> {
  const gateway = await resolveGateway(opts);
  const op = req.protocol === 'udp' ? OP_UDP : OP_TCP;
  return udpExchange(
    'natpmp',
    gateway,
    opts.port ?? NATPMP_PORT,
    () => {
      const b = Buffer.alloc(12);
      b[1] = op;
      b.writeUInt16BE(req.internalPort, 4);
      b.writeUInt16BE(req.externalPort, 6);
      b.writeUInt32BE(req.lifetimeSec, 8);
      return b;
    },
    (msg) => {
      const bad = header(msg, op, 16, gateway);
      if (bad) return bad;
      if (msg.readUInt16BE(8) !== req.internalPort) return { ignore: `answer for port ${msg.readUInt16BE(8)}` };
      const externalPort = msg.readUInt16BE(10);
      const lifetimeSec = msg.readUInt32BE(12);
      if (req.lifetimeSec > 0 && (externalPort === 0 || lifetimeSec === 0)) {
        return { ignore: `external port ${externalPort}, lifetime ${lifetimeSec}` };
      }
      return {
        value: {
          protocol: req.protocol,
          internalPort: req.internalPort,
          externalPort,
          lifetimeSec,
          epoch: msg.readUInt32BE(4),
          gateway,
        },
      };
    },
    opts,
  );
}

/** Deletes this host's mapping of `internalPort` (RFC 6886 §3.4: lifetime 0, suggested port 0). */
export async function natpmpUnmap(
  req: { protocol: MapProtocol; internalPort: number },
  opts: GatewayOptions = {},
): Promise<void> {
  await natpmpMap({ ...req, externalPort: 0, lifetimeSec: 0 }, opts);
}
