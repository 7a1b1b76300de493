// Connection caps for a listener (the admin port, the web service's ports): per client address
// and in total, checked when a connection is accepted, before a byte of it is read. One address
// that opens thousands of idle connections (slowloris) is refused once it holds its share, so the
// process keeps file descriptors for everyone else.
import type net from 'node:net';
import { CONNECTION_LIMITS as C } from '@lucky/shared';

export interface ListenerLimits {
  /** Open connections of one address (IPv6: its /64). */
  perAddress: number;
  /** Open connections over the whole listener (or module). */
  total: number;
  /** A TLS handshake must be done this long after accept. */
  handshakeMs: number;
  /** A request head must arrive whole within this long (and a new connection's first byte). */
  headerMs: number;
}

/** The defaults of the settings (where no settings are at hand: helper processes, tests). */
export function defaultLimits(): ListenerLimits {
  return {
    perAddress: C.webMaxConnsPerAddress.default,
    total: C.webMaxConns.default,
    handshakeMs: C.handshakeTimeout.default * 1000,
    headerMs: C.headerTimeout.default * 1000,
  };
}

/** The address a cap counts: IPv4 as is (mapped forms unmapped), IPv6 by its /64, as one host can use a whole /64. */
export function addressKey(ip: string): string {
  if (ip.startsWith('::ffff:') && ip.includes('.')) return ip.slice(7);
  if (!ip.includes(':')) return ip;
  const bare = ip.split('%')[0].toLowerCase();
  const [head, tail = ''] = bare.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t] : h;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const LOG_EVERY_MS = 60_000;

/** One log line per address per minute, however many connections it opens. */
export class RefusalLog {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  note(key: string, line: string): void {
    const t = this.now();
    const prev = this.last.get(key);
    if (prev !== undefined && t - prev < LOG_EVERY_MS) return;
    if (this.last.size >= 10_000) for (const [k, at] of this.last) if (t - at >= LOG_EVERY_MS) this.last.delete(k);
    this.last.set(key, t);
    this.write(`${line} (more from this address are not logged for a minute)`);
  }
}

interface Holder {
  /** In accept order: the first is the oldest. */
  sockets: Set<net.Socket>;
  lan: boolean;
  /** Speaks for many clients: never the one that gives way. */
  proxy: boolean;
}

/**
 * Counts the open connections of one or more listeners by client address. `admit` is called at
 * accept: past the per-address cap the connection is refused; at the total cap a newcomer takes
 * the oldest connection of the address that holds the most (when that one holds more than the
 * newcomer would), so one flooder cannot lock everyone out. LAN peers may use all of `total`;
 * outside peers a share that leaves an eighth of it (at least one) free for the LAN. A proxy
 * (trusted, or a PROXY protocol sender) speaks for many clients: no per-address cap, never evicted.
 */
export class ConnectionGuard {
  private readonly holders = new Map<string, Holder>();
  private open = 0;
  refused = 0;
  private readonly log: RefusalLog;

  constructor(
    private readonly name: string,
    readonly limits: () => ListenerLimits,
    private readonly isLan: (ip: string) => boolean,
    write: (line: string) => void,
  ) {
    this.log = new RefusalLog(write);
  }

  get size(): number {
    return this.open;
  }

  /** Every connection admitted and still open (the security lists ask them again: safe/recheck.ts). */
  *sockets(): IterableIterator<net.Socket> {
    for (const h of this.holders.values()) yield* h.sockets;
  }

  /** Open connections of this address (its /64 for IPv6). */
  countOf(ip: string): number {
    return this.holders.get(addressKey(ip))?.sockets.size ?? 0;
  }

  /**
   * Admits the socket (counted until it closes) or refuses it (reset and destroyed): true when
   * admitted. `proxy`: the peer speaks for many clients (a trusted proxy, a PROXY protocol
   * sender), so only the total cap applies to it.
   */
  admit(socket: net.Socket, ip = socket.remoteAddress ?? '', proxy = false): boolean {
    const { perAddress, total } = this.limits();
    const key = addressKey(ip);
    const holder = this.holders.get(key);
    const mine = holder?.sockets.size ?? 0;
    if (mine >= perAddress && !proxy)
      return this.refuse(socket, key, ip, `it holds ${mine} connections (per-address cap)`);
    const lan = holder ? holder.lan : this.isLan(ip);
    const room = lan ? total : total - Math.max(1, total >> 3);
    if (this.open >= room && !this.evictFor(proxy ? Number.POSITIVE_INFINITY : mine, lan))
      return this.refuse(socket, key, ip, `${this.open} connections are open (total cap ${total})`);
    let h = holder;
    if (!h) {
      h = { sockets: new Set(), lan, proxy };
      this.holders.set(key, h);
    }
    h.sockets.add(socket);
    this.open++;
    const held = h;
    socket.once('close', () => {
      if (!held.sockets.delete(socket)) return;
      this.open--;
      if (held.sockets.size === 0 && this.holders.get(key) === held) this.holders.delete(key);
    });
    return true;
  }

  /**
   * Frees a slot by closing the oldest connection of the biggest holder, if it holds more than
   * the newcomer would after admission. An outside newcomer never takes a LAN peer's connection.
   */
  private evictFor(mine: number, lan: boolean): boolean {
    let biggest: Holder | undefined;
    for (const h of this.holders.values()) {
      if ((!lan && h.lan) || h.proxy) continue;
      if (!biggest || h.sockets.size > biggest.sockets.size) biggest = h;
    }
    if (!biggest || biggest.sockets.size <= mine + 1) return false;
    const oldest = biggest.sockets.values().next().value as net.Socket;
    // Counted out now: the close event comes later, and the newcomer takes the slot at once.
    biggest.sockets.delete(oldest);
    this.open--;
    oldest.destroy();
    return true;
  }

  private refuse(socket: net.Socket, key: string, ip: string, why: string): false {
    this.refused++;
    this.log.note(key, `${this.name}: refused a connection from ${ip}: ${why}`);
    reset(socket);
    return false;
  }
}

/** Closes with a reset where the handle allows it (no TIME_WAIT kept on our side), else plainly. */
export function reset(socket: net.Socket): void {
  // Without its handle (sent to a helper process, taken over by a wrapper) resetAndDestroy would
  // emit ERR_SOCKET_CLOSED as an error event: close it plainly.
  if (!hasHandle(socket)) {
    socket.destroy();
    return;
  }
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

/**
 * A reset on whichever of `sockets` holds the TCP handle (a relay's client may be the accepted
 * socket, the one adopted for owned-buffer reads, or a TLS socket over it); all are destroyed.
 */
export function resetAny(...sockets: net.Socket[]): void {
  const owner = sockets.find((s) => !s.destroyed && hasHandle(s) && isTcpHandle(s));
  if (owner) reset(owner);
  for (const s of sockets) s.destroy();
}

const hasHandle = (s: net.Socket) => (s as unknown as { _handle?: unknown })._handle != null;
/** A TLS socket's handle is its TLS wrap, on which resetAndDestroy throws. */
const isTcpHandle = (s: net.Socket) =>
  (s as unknown as { _handle?: { constructor?: { name?: string } } })._handle?.constructor?.name === 'TCP';
