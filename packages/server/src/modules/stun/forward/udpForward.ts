import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIp } from '@lucky/shared';
import { normalizeIp } from '../../../core/http/clientIp.js';
import { admit, Occupancy, ProxyStats, type Scope } from '../../../core/relay/limits.js';
import { type ListsWatch, watchLists } from '../../../core/safe/recheck.js';
import type { MappingHost } from '../host.js';

interface Session {
  key: string;
  client: { address: string; port: number };
  upstream: dgram.Socket;
  lastActive: number;
  release(): void;
  /** Datagrams that came before the target's socket was connected. */
  queue: Buffer[] | undefined;
  queuedBytes: number;
}

/** Datagrams (and bytes) kept per session while its socket to the target opens; more are dropped. */
const QUEUE_MAX = 64;
const QUEUE_MAX_BYTES = 256 * 1024;
/**
 * The mapping's socket takes every client's datagrams: 4 MiB buffers, as port forwarding's
 * listening sockets have, ride out the bursts the kernel's default (208 KiB) drops. In the NAT lab
 * at 10k datagrams/s this socket lost up to 6 % of them with the default, none with 4 MiB.
 */
const SOCKET_BUFFER = 4 * 1024 * 1024;

/**
 * Forwards datagrams that arrive on the mapping's socket (from anyone on the internet who knows
 * the public address) to the rule's target: one connected socket per client address and port,
 * replies sent back through the mapping's socket so they leave from the mapped port. Sessions
 * end after the rule's UDP time-out without traffic; the rule's connection caps apply.
 */
export class UdpForwarder {
  readonly stats = new ProxyStats();
  private readonly sessions = new Map<string, Session>();
  private readonly scope: Scope = { name: 'rule', occupancy: new Occupancy(), caps: { tcp: 0, udp: 0, perIp: 0 } };
  private sweep: NodeJS.Timeout | undefined;
  /** The session of the last datagram (cleared when it closes). */
  private last: Session | undefined;
  private readonly lists: ListsWatch | undefined;

  constructor(
    private readonly socket: dgram.Socket,
    private readonly host: MappingHost,
  ) {
    this.sweep = setInterval(() => this.expire(), 1000);
    this.sweep.unref();
    // As at a session's start: a client the lists refuse now loses its session (its next datagram
    // is refused when a new one would open).
    if (host.onListsChange)
      this.lists = watchLists(host.onListsChange, {
        open: () => this.sessions.values(),
        ipOf: (s) => (this.sessions.get(s.key) === s ? normalizeIp(s.client.address) : undefined),
        admits: (ip) => host.admits(ip),
        close: (s) => this.close(s, 'refused by the security lists'),
      });
    try {
      socket.setRecvBufferSize(SOCKET_BUFFER);
      socket.setSendBufferSize(SOCKET_BUFFER);
    } catch {
      // The kernel caps these (net.core.rmem_max / wmem_max); the defaults work, only bursts suffer.
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  fromClient(msg: Buffer, from: dgram.RemoteInfo): void {
    // Datagrams come in bursts from one client: a repeat skips building and hashing the map key.
    let s = this.last;
    if (!s || s.client.port !== from.port || s.client.address !== from.address) {
      const key = `${from.address}:${from.port}`;
      s = this.sessions.get(key) ?? this.open(key, from);
      if (!s) return;
      this.last = s;
    }
    s.lastActive = Date.now();
    this.stats.bytesIn += msg.length;
    if (s.queue) {
      if (s.queue.length < QUEUE_MAX && s.queuedBytes + msg.length <= QUEUE_MAX_BYTES) {
        s.queue.push(Buffer.from(msg));
        s.queuedBytes += msg.length;
      }
      return;
    }
    s.upstream.send(msg);
  }

  private open(key: string, from: dgram.RemoteInfo): Session | undefined {
    // No session for an address the security lists refuse (they log it).
    if (!this.host.admits(normalizeIp(from.address))) {
      this.stats.refused++;
      return undefined;
    }
    const rule = this.host.rule();
    this.scope.caps = { tcp: 0, udp: rule.maxConnections, perIp: rule.perIpMaxConnections };
    const ok = admit('udp', from.address, [this.scope]);
    if (!ok.ok) {
      this.stats.refused++;
      this.host.line(5, 'refused', { proto: 'udp', client: key, cap: ok.cap });
      return undefined;
    }
    this.stats.accepted++;
    const upstream = dgram.createSocket('udp4');
    const s: Session = {
      key,
      client: { address: from.address, port: from.port },
      upstream,
      lastActive: Date.now(),
      release: ok.release,
      queue: [],
      queuedBytes: 0,
    };
    this.sessions.set(key, s);
    this.stats.sessions = this.sessions.size;
    const target = `${rule.targetAddress}:${rule.targetPort}`;
    upstream.on('message', (reply) => {
      s.lastActive = Date.now();
      this.stats.bytesOut += reply.length;
      this.socket.send(reply, s.client.port, s.client.address);
    });
    upstream.on('error', (err) => this.close(s, `target ${target}: ${err.message}`));
    void (async () => {
      try {
        const address = isIp(rule.targetAddress)
          ? rule.targetAddress
          : (await lookup(rule.targetAddress, { family: 4 })).address;
        await new Promise<void>((resolve, reject) => {
          upstream.once('error', reject);
          upstream.connect(rule.targetPort, address, () => {
            upstream.off('error', reject);
            resolve();
          });
        });
        const queued = s.queue ?? [];
        s.queue = undefined;
        for (const m of queued) upstream.send(m);
        this.host.line(5, 'sessionOpened', { proto: 'udp', client: key, target });
      } catch (err) {
        this.close(s, `target ${target}: ${(err as Error).message}`);
      }
    })();
    return s;
  }

  private close(s: Session, detail: string): void {
    if (this.sessions.get(s.key) !== s) return;
    this.sessions.delete(s.key);
    if (this.last === s) this.last = undefined;
    this.stats.sessions = this.sessions.size;
    s.release();
    try {
      s.upstream.close();
    } catch {
      // already closed
    }
    this.host.line(5, 'sessionClosed', { proto: 'udp', client: s.key, detail });
  }

  private expire(): void {
    this.stats.sample();
    const idle = this.host.rule().udpTimeoutMs;
    const now = Date.now();
    for (const s of [...this.sessions.values()]) if (now - s.lastActive > idle) this.close(s, `idle for ${idle} ms`);
  }

  closeAll(): void {
    clearInterval(this.sweep);
    this.lists?.stop();
    for (const s of [...this.sessions.values()]) this.close(s, 'rule stopped');
  }
}
