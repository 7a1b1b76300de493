import net from 'node:net';
import { admit, Occupancy, ProxyStats, type Scope } from '../../../core/relay/limits.js';
import { Pump } from '../../../core/relay/tcpRelay.js';
import type { MappingHost } from '../host.js';

/**
 * Relays connections that the mapping's listener accepts (clients on the internet coming in
 * through the public port) to the rule's target, with port forwarding's pumps (backpressure,
 * half-close) and its connection caps (per rule, per client address).
 */
export class TcpForwarder {
  readonly stats = new ProxyStats();
  private readonly scope: Scope = { name: 'rule', occupancy: new Occupancy(), caps: { tcp: 0, udp: 0, perIp: 0 } };
  private readonly open = new Set<net.Socket>();
  private readonly sampler: NodeJS.Timeout;

  constructor(private readonly host: MappingHost) {
    this.sampler = setInterval(() => this.stats.sample(), 1000);
    this.sampler.unref();
  }

  get size(): number {
    return this.stats.connections;
  }

  accept(client: net.Socket): void {
    const rule = this.host.rule();
    const who = `${client.remoteAddress}:${client.remotePort}`;
    this.scope.caps = { tcp: rule.maxConnections, udp: 0, perIp: rule.perIpMaxConnections };
    const ok = admit('tcp', client.remoteAddress ?? '', [this.scope]);
    if (!ok.ok) {
      this.stats.refused++;
      this.host.line(5, 'refused', { proto: 'tcp', client: who, cap: ok.cap });
      // A reset, as port forwarding and the web service refuse: a FIN would leave a TIME_WAIT
      // entry on the mapped port for every refused connection of a flood.
      client.resetAndDestroy();
      return;
    }
    this.stats.accepted++;
    this.stats.connections++;
    const target = `${rule.targetAddress}:${rule.targetPort}`;
    const started = Date.now();
    let bytesIn = 0;
    let bytesOut = 0;
    const upstream = net.connect({
      host: rule.targetAddress,
      port: rule.targetPort,
      allowHalfOpen: true,
      noDelay: true,
    });
    upstream.setTimeout(this.host.timeoutMs(), () => upstream.destroy(new Error('connect timed out')));
    this.open.add(client);
    this.open.add(upstream);
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      ok.release();
      this.stats.connections--;
      this.open.delete(client);
      this.open.delete(upstream);
      client.destroy();
      upstream.destroy();
      if (err && bytesIn + bytesOut === 0)
        this.host.line(3, 'targetFailed', { proto: 'tcp', client: who, target, detail: err.message });
      else
        this.host.line(5, 'closed', {
          proto: 'tcp',
          client: who,
          seconds: Math.round((Date.now() - started) / 1000),
          in: bytesIn,
          out: bytesOut,
        });
    };
    client.on('error', finish);
    upstream.on('error', finish);
    client.on('close', () => finish());
    upstream.on('close', () => finish());
    client.pause();
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      this.host.line(5, 'opened', { proto: 'tcp', client: who, target });
      const toTarget = new Pump(client, upstream, undefined, {
        count: (n) => {
          bytesIn += n;
          this.stats.bytesIn += n;
        },
        buckets: [],
      });
      const toClient = new Pump(upstream, client, undefined, {
        count: (n) => {
          bytesOut += n;
          this.stats.bytesOut += n;
        },
        buckets: [],
      });
      toTarget.start();
      toClient.start();
    });
  }

  closeAll(): void {
    clearInterval(this.sampler);
    for (const s of [...this.open]) s.destroy();
  }
}
