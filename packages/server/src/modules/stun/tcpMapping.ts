import net from 'node:net';
import { connectShared, listenShared, type SharedPortBind, sharedPortSupport } from '../../core/net/sharedPort.js';
import { TcpForwarder } from './forward/tcpForward.js';
import type { MappingHost } from './host.js';
import { KeepAlive } from './keepAlive.js';
import { type Endpoint, Mapping, MappingError, stunReason } from './mapping.js';
import { TcpStunConnection } from './protocol/tcp.js';
import { failover, publicEndpoint } from './servers.js';

/**
 * A TCP mapping. Every socket of it shares the one local port (SO_REUSEADDR + SO_REUSEPORT,
 * core/net/sharedPort.ts): the listener that receives what comes in through the public port,
 * the keep-alive connection that holds the NAT entry open, and a fresh connection to a STUN
 * server per check (closed with a reset, so no TIME_WAIT blocks the next check to that server).
 * Without a keep-alive URL, a STUN connection is kept open instead and asked at each heartbeat.
 */
export class TcpMapping extends Mapping {
  private listener: net.Server | undefined;
  private forwarder: TcpForwarder | undefined;
  private keeper: KeepAlive | undefined;
  /** The kept STUN connection when there is no keep-alive URL. */
  private kept: { conn: TcpStunConnection; socket: net.Socket; server: string } | undefined;
  private boundAddress = '0.0.0.0';

  constructor(host: MappingHost, localPort: number) {
    super('tcp', host, localPort);
  }

  get localAddress(): string {
    return this.boundAddress;
  }

  private bind(): SharedPortBind {
    const c = this.host.channel();
    return { address: c.address, port: this.localPort, ...(c.device ? { device: c.device } : {}) };
  }

  protected async ensureChannel(): Promise<void> {
    const support = sharedPortSupport();
    if (!support.ok) throw new MappingError(stunReason('nativeHelperMissing', { detail: support.detail }));
    this.boundAddress = this.host.channel().address;
    if (!this.host.rule().disableForwarding && !this.listener) {
      const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true, noDelay: true });
      const forwarder = new TcpForwarder(this.host);
      server.on('connection', (c) => forwarder.accept(c));
      server.on('error', (err) =>
        this.host.line(2, 'listenFailed', { proto: 'tcp', port: this.localPort, detail: err.message }),
      );
      try {
        this.localPort = await listenShared(server, this.bind());
      } catch (err) {
        server.close();
        forwarder.closeAll();
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'EADDRINUSE') throw new MappingError(stunReason('localPortBusy', { port: this.localPort }));
        if (e.code === 'EPERM' && this.host.channel().device)
          throw new MappingError(stunReason('bindToDeviceDenied', { interface: this.host.channel().device }));
        throw err;
      }
      this.listener = server;
      this.forwarder = forwarder;
      this.host.line(4, 'listening', { proto: 'tcp', port: this.localPort });
    }
  }

  protected override async keepAlive(): Promise<void> {
    const url = this.host.keepAliveUrl();
    if (!url) {
      // The setting changed to "keep the STUN connection": the HTTP one goes.
      this.keeper?.drop();
      this.keeper = undefined;
      return;
    }
    if (!this.keeper || this.keeper.url !== new KeepAlive(url).url) {
      this.keeper?.drop();
      this.keeper = new KeepAlive(url);
    }
    try {
      await this.keeper.ping(this.bind(), this.host.timeoutMs(), this.host.signal);
    } catch (err) {
      const detail = (err as Error).message;
      this.host.line(3, 'keepAliveFailed', { proto: 'tcp', url, detail });
      throw new MappingError(stunReason('keepAliveFailed', { url, detail }));
    }
  }

  protected async check(): Promise<{ mapped: Endpoint; server: string }> {
    const timeoutMs = this.host.timeoutMs();
    const signal = () => this.host.signal;
    if (!this.host.keepAliveUrl()) {
      // The kept STUN connection is the keep-alive: ask over it, open a new one when it failed.
      const k = this.kept;
      if (k && !k.socket.destroyed) {
        try {
          const answer = await k.conn.binding({ timeoutMs, signal: signal() });
          const mapped = publicEndpoint(answer.mapped, k.server);
          this.host.serverWorked(k.server);
          return { mapped, server: k.server };
        } catch {
          this.dropKept();
        }
      }
      let opened: typeof this.kept;
      const result = await failover(this.host, 'tcp', async (server) => {
        const socket = await connectShared(this.bind(), server.address, server.port, { timeoutMs, signal: signal() });
        const conn = new TcpStunConnection(socket);
        try {
          const answer = await conn.binding({ timeoutMs, signal: signal() });
          opened = { conn, socket, server: '' };
          return answer.mapped;
        } catch (err) {
          socket.resetAndDestroy();
          throw err;
        }
      });
      if (opened) this.kept = { ...opened, server: result.server };
      return result;
    }
    // A kept STUN connection (from before the keep-alive URL was set) holds the 4-tuple a fresh
    // check to that server needs: close it first.
    this.dropKept();
    return failover(this.host, 'tcp', async (server) => {
      const socket = await connectShared(this.bind(), server.address, server.port, { timeoutMs, signal: signal() });
      try {
        const answer = await new TcpStunConnection(socket).binding({ timeoutMs, signal: signal() });
        return answer.mapped;
      } finally {
        socket.resetAndDestroy();
      }
    });
  }

  private dropKept(): void {
    const k = this.kept;
    this.kept = undefined;
    if (k && !k.socket.destroyed) k.socket.resetAndDestroy();
  }

  protected async closeChannel(): Promise<void> {
    this.keeper?.drop();
    this.keeper = undefined;
    this.dropKept();
    this.forwarder?.closeAll();
    this.forwarder = undefined;
    const l = this.listener;
    this.listener = undefined;
    if (l) await new Promise<void>((resolve) => l.close(() => resolve()));
  }

  figures() {
    const s = this.forwarder?.stats;
    return {
      connections: s?.connections ?? 0,
      bytesIn: s?.bytesIn ?? 0,
      bytesOut: s?.bytesOut ?? 0,
      rateIn: s?.rateIn ?? 0,
      rateOut: s?.rateOut ?? 0,
    };
  }
}
