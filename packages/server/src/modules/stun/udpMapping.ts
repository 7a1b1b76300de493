import dgram from 'node:dgram';
import { UdpForwarder } from './forward/udpForward.js';
import type { MappingHost } from './host.js';
import { type Endpoint, Mapping, MappingError, stunReason } from './mapping.js';
import { UdpStunChannel } from './protocol/udp.js';
import { failover, rfcSchedule } from './servers.js';

/**
 * A UDP mapping: one socket on the local port carries the STUN Bindings (which also keep the NAT
 * entry alive, one per heartbeat) and the forwarded traffic. STUN answers are told from payload
 * by their transaction ids; everything else is a client's datagram for the target.
 */
export class UdpMapping extends Mapping {
  private socket: dgram.Socket | undefined;
  private stun: UdpStunChannel | undefined;
  private forwarder: UdpForwarder | undefined;
  private boundAddress = '0.0.0.0';

  constructor(host: MappingHost, localPort: number) {
    super('udp', host, localPort);
  }

  get localAddress(): string {
    return this.boundAddress;
  }

  protected async ensureChannel(): Promise<void> {
    if (this.socket) return;
    const { address } = this.host.channel();
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind({ port: this.localPort, address, exclusive: true }, () => {
        socket.off('error', reject);
        resolve();
      });
    }).catch((err: NodeJS.ErrnoException) => {
      socket.close();
      if (err.code === 'EADDRINUSE') throw new MappingError(stunReason('localPortBusy', { port: this.localPort }));
      throw err;
    });
    this.localPort = socket.address().port;
    this.boundAddress = address;
    const stun = new UdpStunChannel(socket);
    socket.on('message', (msg, rinfo) => {
      if (stun.handle(msg, rinfo)) return;
      if (this.forwarder) this.forwarder.fromClient(msg, rinfo);
    });
    socket.on('error', (err) =>
      this.host.line(3, 'socketError', { proto: 'udp', port: this.localPort, detail: err.message }),
    );
    this.socket = socket;
    this.stun = stun;
    if (!this.host.rule().disableForwarding) {
      this.forwarder = new UdpForwarder(socket, this.host);
      this.host.line(4, 'listening', { proto: 'udp', port: this.localPort });
    }
  }

  protected async check(): Promise<{ mapped: Endpoint; server: string }> {
    const stun = this.stun;
    if (!stun) throw new Error('socket closed');
    const timeoutMs = this.host.timeoutMs();
    return failover(this.host, 'udp', async (server) => {
      const answer = await stun.binding(server, { ...rfcSchedule(timeoutMs), signal: this.host.signal });
      return answer.mapped;
    });
  }

  protected async closeChannel(): Promise<void> {
    this.forwarder?.closeAll();
    this.forwarder = undefined;
    const s = this.socket;
    this.socket = undefined;
    this.stun = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  figures() {
    const s = this.forwarder?.stats;
    return {
      connections: this.forwarder?.size ?? 0,
      bytesIn: s?.bytesIn ?? 0,
      bytesOut: s?.bytesOut ?? 0,
      rateIn: s?.rateIn ?? 0,
      rateOut: s?.rateOut ?? 0,
    };
  }
}
