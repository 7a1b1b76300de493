// NAT behaviour discovery (RFC 5780 §4.3 mapping, §4.4 filtering) against one server that
// answers from two addresses (OTHER-ADDRESS). The sockets are the caller's: a UdpStunChannel on
// the socket to classify, and for TCP a connect function that opens each connection from the same
// local port, so the same code runs in the module and inside a network namespace in tests.
//
// Limitation (TCP): the three TCP connections are made one after another from one local port,
// each closed with an RST first so the port is not held in TIME_WAIT; a plain net.connect with
// localPort does for that (the tests). Holding a kept-alive connection or a listener on that port
// at the same time needs SO_REUSEADDR + SO_REUSEPORT on every socket: the module's connect
// function is then core/net/sharedPort.ts's connectShared, which is not this file's business.
import type net from 'node:net';
import os from 'node:os';
import { StunError, toStunError } from './errors.js';
import { TcpStunConnection } from './tcp.js';
import type { BindingAnswer, StunEndpoint, UdpBindingOptions, UdpStunChannel } from './udp.js';

export type MappingBehaviour = 'none' | 'endpointIndependent' | 'addressDependent' | 'addressPortDependent' | 'unknown';
export type FilteringBehaviour = 'endpointIndependent' | 'addressDependent' | 'addressPortDependent' | 'unknown';
export type NatVerdict =
  | 'open'
  | 'fullCone'
  | 'restrictedCone'
  | 'portRestrictedCone'
  | 'symmetric'
  | 'blocked'
  | 'unsupportedServer';

export interface NatTypeResult {
  mapping: MappingBehaviour;
  filtering: FilteringBehaviour;
  /** Present when a TCP connect function was given. */
  tcpMapping?: MappingBehaviour;
  /** The mapped address of the first UDP test (else of the first TCP test). */
  publicAddress?: StunEndpoint;
  /** The server's alternate address (OTHER-ADDRESS), when it gave one. */
  otherAddress?: StunEndpoint;
  verdict: NatVerdict;
  /** The verdict in plain English (the UI translates `verdict` and `tcpMapping`). */
  detail: string;
  /** Why a behaviour stayed unknown (English, for the log): server errors, answers from the wrong address. */
  notes: string[];
}

export type Connect = (host: string, port: number) => Promise<net.Socket>;

export interface NatTypeOptions {
  /** The server's primary address (an IPv4 address: resolve names first). */
  server: StunEndpoint;
  /**
   * A channel on the UDP socket to classify. The socket should not have talked to the server's
   * alternate address yet, or the filtering tests see a hole it opened itself.
   */
  udp: UdpStunChannel;
  /** Opens a TCP connection to host:port from the same local port each time; TCP mapping is tested when given. */
  connect?: Connect;
  /**
   * The addresses that are this machine's ("no NAT" when the mapped address is one of them, on the
   * local port). Default: the socket's own address, or every interface's when bound to 0.0.0.0.
   */
  localAddresses?: readonly string[];
  /** Retransmission for each UDP test (default RTO 500 ms, 4 requests, give-up 3 s after the last: 6.5 s). */
  timing?: Pick<UdpBindingOptions, 'rtoMs' | 'rc' | 'rm'>;
  /** Time-out of each TCP Binding (default 10 s). */
  tcpTimeoutMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMING = { rtoMs: 500, rc: 4, rm: 6 };

export interface UdpBehaviour {
  mapping: MappingBehaviour;
  filtering: FilteringBehaviour;
  publicAddress?: StunEndpoint;
  otherAddress?: StunEndpoint;
  /** Test I got no answer at all. */
  blocked: boolean;
  /** Why a behaviour stayed unknown (server errors, answers from the wrong address). */
  notes: string[];
}

const plainV4 = (a: string | undefined) => (a?.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : (a ?? ''));
const same = (a: StunEndpoint, b: StunEndpoint) => a.address === b.address && a.port === b.port;

function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i?.family === 'IPv4')
    .map((i) => i!.address);
}

/**
 * Whether `mapped` is the local endpoint itself: no NAT in between. The addresses that count as
 * ours: the caller's list, else the socket's own address, else (bound to 0.0.0.0) every interface's.
 */
function isLocal(mapped: StunEndpoint, local: StunEndpoint, given: readonly string[] | undefined): boolean {
  if (mapped.port !== local.port) return false;
  const wildcard = local.address === '0.0.0.0' || local.address === '';
  const ours = given ?? (wildcard ? interfaceAddresses() : [local.address]);
  return ours.includes(mapped.address);
}

/** No answer at all is a result for these tests (RFC 5780 reads it as "filtered"); anything else is not. */
async function answerOrNothing(p: Promise<BindingAnswer>): Promise<BindingAnswer | undefined> {
  try {
    return await p;
  } catch (err) {
    if (toStunError(err).code === 'timeout') return undefined;
    throw err;
  }
}

/**
 * UDP mapping and filtering behaviour. Order matters: the filtering tests run right after test I,
 * before the mapping tests send to the alternate address and open the filter for it themselves.
 */
export async function udpBehaviour(opts: NatTypeOptions): Promise<UdpBehaviour> {
  const timing = { ...DEFAULT_TIMING, ...opts.timing, signal: opts.signal };
  const { udp, server } = opts;
  const notes: string[] = [];
  const out: UdpBehaviour = { mapping: 'unknown', filtering: 'unknown', blocked: false, notes };

  // Test I: the primary address.
  const first = await answerOrNothing(udp.binding(server, timing));
  if (!first) return { ...out, blocked: true };
  out.publicAddress = first.mapped;
  out.otherAddress = first.otherAddress;
  const noNat = isLocal(first.mapped, udp.local(), opts.localAddresses);
  if (noNat) out.mapping = 'none';
  const other = first.otherAddress;
  if (!other || other.address === server.address || other.port === server.port) {
    if (other) notes.push('the alternate address does not differ from the primary in both address and port');
    return out;
  }

  // Filtering test II: answer from the alternate address and port.
  try {
    const changed = await answerOrNothing(udp.binding(server, { ...timing, changeIp: true, changePort: true }));
    if (changed && !(changed.server.address === other.address && changed.server.port === other.port)) {
      notes.push(
        `asked to answer from ${other.address}:${other.port}, the server answered from ${changed.server.address}:${changed.server.port}`,
      );
    } else if (changed) {
      out.filtering = 'endpointIndependent';
    } else {
      // Filtering test III: answer from the primary address, alternate port.
      const portOnly = await answerOrNothing(udp.binding(server, { ...timing, changePort: true }));
      if (portOnly && !(portOnly.server.address === server.address && portOnly.server.port === other.port)) {
        notes.push(
          `asked to answer from port ${other.port}, the server answered from ${portOnly.server.address}:${portOnly.server.port}`,
        );
      } else {
        out.filtering = portOnly ? 'addressDependent' : 'addressPortDependent';
      }
    }
  } catch (err) {
    const e = toStunError(err);
    if (e.code === 'aborted') throw e;
    notes.push(`filtering: ${e.message}`);
  }

  if (noNat) return out;
  // Mapping tests II (alternate address, primary port) and III (alternate address and port).
  try {
    const second = await udp.binding({ address: other.address, port: server.port }, timing);
    if (same(second.mapped, first.mapped)) out.mapping = 'endpointIndependent';
    else {
      const third = await udp.binding(other, timing);
      out.mapping = same(third.mapped, second.mapped) ? 'addressDependent' : 'addressPortDependent';
    }
  } catch (err) {
    const e = toStunError(err);
    if (e.code === 'aborted') throw e;
    notes.push(`mapping: ${e.message}`);
  }
  return out;
}

/** TCP mapping behaviour: tests I–III over three connections from the same local port. */
export async function tcpMapping(
  connect: Connect,
  server: StunEndpoint,
  opts: {
    otherAddress?: StunEndpoint;
    localAddresses?: readonly string[];
    timeoutMs?: number;
    signal?: AbortSignal;
  } = {},
): Promise<{ mapping: MappingBehaviour; publicAddress?: StunEndpoint; otherAddress?: StunEndpoint; notes: string[] }> {
  const notes: string[] = [];
  let localPort: number | undefined;
  let noNat = false;
  const ask = async (to: StunEndpoint): Promise<BindingAnswer> => {
    const socket = await connect(to.address, to.port);
    const conn = new TcpStunConnection(socket);
    try {
      const local = { address: plainV4(socket.localAddress), port: socket.localPort ?? 0 };
      if (localPort !== undefined && local.port !== localPort) {
        throw new StunError('failed', `the TCP connections did not keep local port ${localPort} (got ${local.port})`, {
          error: 'localPortChanged',
        });
      }
      localPort = local.port;
      const answer = await conn.binding({ timeoutMs: opts.timeoutMs ?? 10_000, signal: opts.signal });
      if (isLocal(answer.mapped, local, opts.localAddresses)) noNat = true;
      return answer;
    } finally {
      conn.close({ reset: true });
    }
  };
  try {
    const first = await ask(server);
    const other = opts.otherAddress ?? first.otherAddress;
    if (noNat) return { mapping: 'none', publicAddress: first.mapped, otherAddress: other, notes };
    if (!other) {
      notes.push('the server gave no alternate address');
      return { mapping: 'unknown', publicAddress: first.mapped, notes };
    }
    const second = await ask({ address: other.address, port: server.port });
    if (same(second.mapped, first.mapped)) {
      return { mapping: 'endpointIndependent', publicAddress: first.mapped, otherAddress: other, notes };
    }
    const third = await ask(other);
    return {
      mapping: same(third.mapped, second.mapped) ? 'addressDependent' : 'addressPortDependent',
      publicAddress: first.mapped,
      otherAddress: other,
      notes,
    };
  } catch (err) {
    const e = toStunError(err);
    if (e.code === 'aborted') throw e;
    notes.push(`TCP: ${e.message}`);
    return { mapping: 'unknown', notes };
  }
}

/** The verdict from the behaviours (RFC 3489's names, as users know them). */
export function verdictOf(u: Pick<UdpBehaviour, 'mapping' | 'filtering' | 'otherAddress' | 'blocked'>): NatVerdict {
  if (u.blocked) return 'blocked';
  if (!u.otherAddress) return 'unsupportedServer';
  if (u.mapping === 'addressDependent' || u.mapping === 'addressPortDependent') return 'symmetric';
  if (u.mapping === 'unknown' || u.filtering === 'unknown') return 'unsupportedServer';
  if (u.filtering === 'endpointIndependent') return u.mapping === 'none' ? 'open' : 'fullCone';
  return u.filtering === 'addressDependent' ? 'restrictedCone' : 'portRestrictedCone';
}

const VERDICT_TEXT: Record<NatVerdict, string> = {
  open: 'no NAT and no filtering: this address is public, TCP and UDP ports can be opened directly',
  fullCone: 'endpoint-independent mapping and filtering: TCP and UDP ports can be opened',
  restrictedCone:
    'endpoint-independent mapping, address-dependent filtering: the public port stays the same, but only hosts this side has contacted get through, so ports cannot be opened to everyone',
  portRestrictedCone:
    'endpoint-independent mapping, address- and port-dependent filtering: the public port stays the same, but only the exact host and port this side has contacted get through, so ports cannot be opened to everyone',
  symmetric: 'the mapping changes per destination: ports cannot be opened through this NAT',
  blocked: 'no answer from the STUN server over UDP: UDP is blocked or the server is down',
  unsupportedServer:
    'the STUN server does not support NAT behaviour discovery (RFC 5780: it gives no working alternate address), so the NAT type cannot be told; choose another server',
};

const TCP_TEXT: Record<MappingBehaviour, string> = {
  none: 'TCP: no NAT',
  endpointIndependent: 'TCP: endpoint-independent mapping',
  addressDependent: 'TCP: the mapping changes per destination address, TCP ports cannot be opened',
  addressPortDependent: 'TCP: the mapping changes per destination, TCP ports cannot be opened',
  unknown: 'TCP: mapping behaviour unknown',
};

/** The English sentence for a verdict (and the TCP mapping, when tested). */
export function verdictText(verdict: NatVerdict, tcp?: MappingBehaviour): string {
  return tcp ? `${VERDICT_TEXT[verdict]}; ${TCP_TEXT[tcp]}` : VERDICT_TEXT[verdict];
}

/** RFC 5780 discovery over UDP, and TCP mapping when `connect` is given. */
export async function detectNatType(opts: NatTypeOptions): Promise<NatTypeResult> {
  const u = await udpBehaviour(opts);
  const result: NatTypeResult = {
    mapping: u.mapping,
    filtering: u.filtering,
    publicAddress: u.publicAddress,
    otherAddress: u.otherAddress,
    verdict: verdictOf(u),
    detail: '',
    notes: [...u.notes],
  };
  if (opts.connect) {
    const t = await tcpMapping(opts.connect, opts.server, {
      otherAddress: u.otherAddress,
      localAddresses: opts.localAddresses,
      timeoutMs: opts.tcpTimeoutMs,
      signal: opts.signal,
    });
    result.tcpMapping = t.mapping;
    result.publicAddress ??= t.publicAddress;
    result.notes.push(...t.notes);
  }
  result.detail = verdictText(result.verdict, result.tcpMapping);
  return result;
}
