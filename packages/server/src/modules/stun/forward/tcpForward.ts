import net from 'node:net';
import { normalizeIp } from '../../../core/http/clientIp.js';
import { resetAny } from '../../../core/net/connGuard.js';
import { admit, Occupancy, ProxyStats, type Scope } from '../../../core/relay/limits.js';
import { adoptWithOwnedBuffers, OwnedBufferReader, Pump } from '../../../core/relay/tcpRelay.js';
import { type ListsWatch, watchLists } from '../../../core/safe/recheck.js';
import type { MappingHost } from '../host.js';

/** One relayed connection, as the security lists' re-check sees it. */
interface Relayed {
  ip: string;
  client: net.Socket;
  reset(): void;
}

/**
 * Relays connections that the mapping's listener accepts (clients on the internet coming in
 * through the public port) to the rule's target, with port forwarding's pumps (backpressure,
 * half-close) and its connection caps (per rule, per client address). Both sides are read into
 * buffers the relay owns, as port forwarding reads them: with a fresh buffer per read and the
 * stream machinery the relay moved half of port forwarding's throughput in the NAT lab
 * (bench/stun.mjs).
 */
export class TcpForwarder {
  readonly stats = new ProxyStats();
  private readonly scope: Scope = { name: 'rule', occupancy: new Occupancy(), caps: { tcp: 0, udp: 0, perIp: 0 } };
  private readonly open = new Set<net.Socket>();
  /** The relayed connections by client address (asked again when the security lists change). */
  private readonly clients = new Set<Relayed>();
  private readonly sampler: NodeJS.Timeout;
  private readonly lists: ListsWatch | undefined;

  constructor(private readonly host: MappingHost) {
    this.sampler = setInterval(() => this.stats.sample(), 1000);
    this.sampler.unref();
    // As at accept: a client the lists refuse now is reset, its connection to the target closed.
    if (host.onListsChange)
      this.lists = watchLists(host.onListsChange, {
        open: () => this.clients,
        ipOf: (c) => (c.client.destroyed ? undefined : c.ip),
        admits: (ip) => host.admits(ip),
        close: (c) => c.reset(),
      });
  }

  get size(): number {
    return this.stats.connections;
  }

  accept(raw: net.Socket): void {
    const ip = normalizeIp(raw.remoteAddress);
    if (ip && !this.host.admits(ip)) {
      this.stats.refused++;
      raw.resetAndDestroy();
      return;
    }
    const rule = this.host.rule();
    const who = `${raw.remoteAddress}:${raw.remotePort}`;
    this.scope.caps = { tcp: rule.maxConnections, udp: 0, perIp: rule.perIpMaxConnections };
    const ok = admit('tcp', raw.remoteAddress ?? '', [this.scope]);
    if (!ok.ok) {
      this.stats.refused++;
      this.host.line(5, 'refused', { proto: 'tcp', client: who, cap: ok.cap });
      // A reset, as port forwarding and the web service refuse: a FIN would leave a TIME_WAIT
      // entry on the mapped port for every refused connection of a flood.
      raw.resetAndDestroy();
      return;
    }
    // Falls back to the accepted socket in stream mode when Node's internals refuse the handle.
    const clientReader = new OwnedBufferReader();
    const adopted = adoptWithOwnedBuffers(raw, clientReader);
    const client = adopted ?? raw;
    const targetReader = new OwnedBufferReader();
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
      onread: targetReader.onread,
    });
    upstream.setTimeout(this.host.timeoutMs(), () => upstream.destroy(new Error('connect timed out')));
    this.open.add(client);
    this.open.add(upstream);
    let done = false;
    const relayed: Relayed = {
      ip,
      client,
      reset: () => {
        resetAny(client, raw);
        finish();
      },
    };
    this.clients.add(relayed);
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      ok.release();
      this.stats.connections--;
      this.clients.delete(relayed);
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
      // Idle = no byte either way: a socket's own time-out fires while the other side is busy,
      // so it only closes when the last byte (either way) is older than the time-out too.
      let lastByte = Date.now();
      const idleMs = rule.tcpIdleTimeoutMs;
      if (idleMs > 0) {
        const onIdle = () => {
          if (Date.now() - lastByte < idleMs) return;
          this.host.line(4, 'idleClosed', { proto: 'tcp', client: who, seconds: Math.round(idleMs / 1000) });
          finish();
        };
        client.setTimeout(idleMs, onIdle);
        upstream.setTimeout(idleMs, onIdle);
      }
      const toTarget = new Pump(client, upstream, adopted ? clientReader : undefined, {
        count: (n) => {
          lastByte = Date.now();
          bytesIn += n;
          this.stats.bytesIn += n;
        },
        buckets: [],
      });
      const toClient = new Pump(upstream, client, targetReader, {
        count: (n) => {
          lastByte = Date.now();
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
    this.lists?.stop();
    for (const s of [...this.open]) s.destroy();
  }
}
