// PCP client (RFC 6887), MAP opcode only: map a UDP or TCP port of this host for a lifetime,
// renew it (same nonce), delete it (lifetime 0). A NAT-PMP-only gateway answers a PCP request
// with a version-0 "unsupported version" packet (RFC 6887 §9): that becomes the coded error
// `unsupportedVersion`, on which 'auto' falls back to NAT-PMP.
import { randomBytes, randomInt } from 'node:crypto';
import net from 'node:net';
import { type GatewayOptions, type MapProtocol, type NatPmpMapping, resolveGateway } from './natpmp.js';
import { NATPMP_PORT, resultError, udpExchange, type Verdict } from './udpExchange.js';

/** A NAT-PMP mapping's fields, and the external address PCP names in the same answer. */
export interface PcpMapping extends NatPmpMapping {
  externalAddress: string;
}

const VERSION = 2;
const OP_MAP = 1;
const RESPONSE = 0x80;
const HEADER = 24;
const MAP_PAYLOAD = 36;
const IANA_PROTOCOL: Record<MapProtocol, number> = { udp: 17, tcp: 6 };

/** A mapping's identity towards the gateway: renewals and the delete must carry the same one. */
export const newPcpNonce = (): Buffer => randomBytes(12);

/** An IPv4 address in PCP's 16-byte form (IPv4-mapped IPv6, ::ffff:a.b.c.d). */
function mapped(ipv4: string): Buffer {
  const b = Buffer.alloc(16);
  b[10] = 0xff;
  b[11] = 0xff;
  ipv4.split('.').forEach((o, i) => {
    b[12 + i] = Number(o);
  });
  return b;
}

/** The IPv4 address of a 16-byte field, undefined when it is not IPv4-mapped. */
function unmapped(b: Buffer): string | undefined {
  if (b.length !== 16 || !b.subarray(0, 10).equals(Buffer.alloc(10)) || b[10] !== 0xff || b[11] !== 0xff)
    return undefined;
  return [...b.subarray(12, 16)].join('.');
}

interface MapFields {
  protocol: MapProtocol;
  internalPort: number;
  externalPort: number;
  lifetimeSec: number;
  nonce: Buffer;
}

function mapRequest(local: string, req: MapFields): Buffer {
  const b = Buffer.alloc(HEADER + MAP_PAYLOAD);
  b[0] = VERSION;
  b[1] = OP_MAP;
  b.writeUInt32BE(req.lifetimeSec, 4);
  mapped(net.isIPv4(local) ? local : '0.0.0.0').copy(b, 8);
  req.nonce.copy(b, HEADER);
  b[HEADER + 12] = IANA_PROTOCOL[req.protocol];
  b.writeUInt16BE(req.internalPort, HEADER + 16);
  b.writeUInt16BE(req.externalPort, HEADER + 18);
  mapped('0.0.0.0').copy(b, HEADER + 20);
  return b;
}

function mapAnswer(msg: Buffer, req: MapFields, gateway: string): Verdict<PcpMapping> {
  if (msg.length < 4) return { ignore: `${msg.length}-byte answer` };
  // A NAT-PMP server's answer to a version it does not speak: version 0, result 1 (RFC 6886 §3.5).
  if (msg[0] === 0 && msg.readUInt16BE(2) === 1) throw resultError('pcp', gateway, 1);
  if (msg[1] !== (RESPONSE | OP_MAP)) return { ignore: `opcode ${msg[1]}` };
  const result = msg[3];
  // An unsupported-version answer carries the server's own version (RFC 6887 §9).
  if (result === 1) throw resultError('pcp', gateway, 1);
  if (msg[0] !== VERSION) return { ignore: `version ${msg[0]}` };
  if (msg.length < HEADER + MAP_PAYLOAD) {
    // Error answers may come without the opcode payload; they cannot be matched to a request.
    return result !== 0 ? { ignore: `result ${result} without payload` } : { ignore: `${msg.length}-byte answer` };
  }
  if (!msg.subarray(HEADER, HEADER + 12).equals(req.nonce)) return { ignore: 'another nonce' };
  if (msg[HEADER + 12] !== IANA_PROTOCOL[req.protocol] || msg.readUInt16BE(HEADER + 16) !== req.internalPort) {
    return { ignore: 'answer for another mapping' };
  }
  if (result !== 0) throw resultError('pcp', gateway, result);
  const lifetimeSec = msg.readUInt32BE(4);
  const externalPort = msg.readUInt16BE(HEADER + 18);
  const externalAddress = unmapped(msg.subarray(HEADER + 20, HEADER + 36));
  if (!externalAddress) return { ignore: 'external address is not IPv4' };
  if (req.lifetimeSec > 0 && (externalPort === 0 || lifetimeSec === 0)) {
    return { ignore: `external port ${externalPort}, lifetime ${lifetimeSec}` };
  }
  return {
    value: {
      protocol: req.protocol,
      internalPort: req.internalPort,
      externalPort,
      externalAddress,
      lifetimeSec,
      epoch: msg.readUInt32BE(8),
      gateway,
    },
  };
}

/**
 * Maps `internalPort` of this host (the request's source address) for `lifetimeSec` seconds,
 * suggesting `externalPort` (0: any). The gateway may shorten or lengthen the lifetime and pick
 * another port; the answer says what it gave.
 */
export async function pcpMap(req: MapFields, opts: GatewayOptions = {}): Promise<PcpMapping> {
  const gateway = await resolveGateway(opts);
  return udpExchange(
    'pcp',
    gateway,
    opts.port ?? NATPMP_PORT,
    (local) => mapRequest(local, req),
    (msg) => mapAnswer(msg, req, gateway),
    opts,
  );
}

/** Deletes the mapping made with `nonce` (lifetime 0). */
export async function pcpUnmap(
  req: { protocol: MapProtocol; internalPort: number; nonce: Buffer },
  opts: GatewayOptions = {},
): Promise<void> {
  await pcpMap({ ...req, externalPort: 0, lifetimeSec: 0 }, opts);
}

/**
 * The gateway's public address. PCP has no request for it: a short UDP mapping of a random high
 * port is made and deleted again, and its answer names the address. (A fixed low port such as
 * discard/9 is refused by common permission rules; miniupnpd 2.3 then searches for another
 * external port without end and stops answering.)
 */
export async function pcpExternalAddress(
  opts: GatewayOptions = {},
): Promise<{ externalAddress: string; gateway: string }> {
  const internalPort = randomInt(49152, 65536);
  const req = { protocol: 'udp' as const, internalPort, nonce: newPcpNonce() };
  const m = await pcpMap({ ...req, externalPort: internalPort, lifetimeSec: 120 }, opts);
  await pcpUnmap(req, { ...opts, gateway: m.gateway }).catch(() => {
    // the short mapping expires by itself
  });
  return { externalAddress: m.externalAddress, gateway: m.gateway };
}
