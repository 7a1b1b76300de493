import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIp } from '@lucky/shared';
import type { TokenBucket } from '../../core/relay/limits.js';
import { hostPort, type LogCode } from './ruleRuntime.js';
import type { UdpProxy } from './udpProxy.js';

/** Why a session ends: a log code (debug level), with its params. */
type CloseCode = Extract<
  LogCode,
  'sessionIdle' | 'sessionRevoked' | 'sessionPortClosed' | 'sessionTargetError' | 'sessionNoTarget'
>;

/** Datagrams kept while the target's name is resolved; more are dropped. */
const QUEUE_MAX = 64;

/**
 * One client (address + port) of a UDP port: a socket connected to the target (so only its
 * replies come in, and ICMP errors surface), replies sent back through the listening socket.
 */
export class UdpSession {
  lastActive = Date.now();
  closed = false;
  readonly address: string;
  readonly port: number;
  private upstream: dgram.Socket | undefined;
  private queue: Buffer[] | undefined = [];
  private bucketsIn: TokenBucket[];
  private bucketsOut: TokenBucket[];
  private oversizeLogged = false;

  constructor(
    private readonly proxy: UdpProxy,
    readonly key: string,
    client: dgram.RemoteInfo,
    readonly ip: string,
    private readonly who: string,
    private readonly release: () => void,
  ) {
    this.address = client.address;
    this.port = client.port;
    const b = proxy.rule.connectionBuckets();
    this.bucketsIn = b.in;
    this.bucketsOut = b.out;
  }

  /** Resolve the target (a host name per new session) and connect; the first working address wins. */
  async open(): Promise<void> {
    const rule = this.proxy.rule;
    const port = this.proxy.spec.targetPort;
    for (const host of rule.targetOrder()) {
      if (this.closed) return;
      let socket: dgram.Socket | undefined;
      try {
        const address = isIp(host) ? host : (await lookup(host)).address;
        socket = dgram.createSocket(address.includes(':') ? 'udp6' : 'udp4');
        const s = socket;
        // One error listener for the socket's whole life: while connecting it fails the attempt,
        // after that it ends the session (an ICMP "port unreachable" arrives as ECONNREFUSED).
        let connecting: ((err: Error) => void) | undefined;
        s.on('error', (err: NodeJS.ErrnoException) => {
          if (connecting) connecting(err);
          else this.close('sessionTargetError', { target: hostPort(address, port), detail: err.code ?? err.message });
        });
        await new Promise<void>((resolve, reject) => {
          connecting = reject;
          s.connect(port, address, () => {
            connecting = undefined;
            resolve();
          });
        });
        if (this.closed) {
          socket.close();
          return;
        }
        socket.on('message', (msg) => this.fromTarget(msg));
        this.upstream = socket;
        if (rule.log.wants(5))
          rule.line(5, 'sessionOpened', { id: this.proxy.id, client: this.who, target: hostPort(address, port) });
        const queued = this.queue ?? [];
        this.queue = undefined;
        for (const msg of queued) this.send(msg);
        return;
      } catch (err) {
        try {
          socket?.close();
        } catch {
          // never opened
        }
        rule.line(3, 'targetFailed', {
          id: this.proxy.id,
          client: this.who,
          target: hostPort(host, port),
          detail: (err as Error).message,
        });
      }
    }
    const targets = rule.rule.targetAddresses.map((h) => hostPort(h, port)).join(', ');
    rule.line(2, 'noTarget', { id: this.proxy.id, client: this.who, targets });
    this.close('sessionNoTarget');
  }

  fromClient(msg: Buffer): void {
    this.lastActive = Date.now();
    if (!this.fits(msg, 'client')) return;
    if (this.bucketsIn.length && !passes(this.bucketsIn, msg.length)) {
      this.dropped('in');
      return;
    }
    this.proxy.stats.bytesIn += msg.length;
    if (this.queue) {
      if (this.queue.length < QUEUE_MAX) this.queue.push(msg);
      return;
    }
    this.send(msg);
  }

  close(code: CloseCode, params: Record<string, unknown> = {}): void {
    if (this.closed) return;
    this.closed = true;
    const upstream = this.upstream;
    this.upstream = undefined;
    try {
      upstream?.close();
    } catch {
      // already closed by an error
    }
    this.release();
    this.proxy.sessionClosed(this);
    const log = this.proxy.rule.log;
    if (log.wants(5)) this.proxy.rule.line(5, code, { id: this.proxy.id, client: this.who, ...params });
  }

  private send(msg: Buffer): void {
    this.upstream?.send(msg, ignore);
  }

  private fromTarget(msg: Buffer): void {
    this.lastActive = Date.now();
    if (!this.fits(msg, 'target')) return;
    if (this.bucketsOut.length && !passes(this.bucketsOut, msg.length)) {
      this.dropped('out');
      return;
    }
    this.proxy.stats.bytesOut += msg.length;
    this.proxy.reply(msg, this.port, this.address);
  }

  /** Datagrams longer than the rule's packet size are dropped (logged once per session). */
  private fits(msg: Buffer, from: 'client' | 'target'): boolean {
    const max = this.proxy.rule.rule.udpPacketSize;
    if (msg.length <= max) return true;
    if (!this.oversizeLogged) {
      this.oversizeLogged = true;
      this.proxy.rule.line(3, from === 'client' ? 'oversizeFromClient' : 'oversizeFromTarget', {
        id: this.proxy.id,
        client: this.who,
        bytes: msg.length,
        max,
      });
    }
    return false;
  }

  private dropped(dir: 'in' | 'out'): void {
    const rule = this.proxy.rule;
    if (rule.log.wants(6))
      rule.line(6, dir === 'in' ? 'droppedIn' : 'droppedOut', { id: this.proxy.id, client: this.who });
  }
}

const ignore = () => {};

/** A datagram passes only if every limiter lets it. */
function passes(buckets: TokenBucket[], n: number): boolean {
  for (const b of buckets) if (!b.tryTake(n)) return false;
  return true;
}
