import net from 'node:net';
import tls from 'node:tls';
import { isIp } from '@lucky/shared';
import { resetAny } from '../../core/net/connGuard.js';
import type { ProxyStats } from '../../core/relay/limits.js';
import { adoptWithOwnedBuffers, OwnedBufferReader, Pump } from '../../core/relay/tcpRelay.js';
import type { RuleRuntime } from './ruleRuntime.js';
import { hostPort } from './ruleRuntime.js';
import { serverTlsOptions } from './ruleTls.js';

const TLS_HANDSHAKE_MS = 10_000;

/** What a connection needs from its port: identity, target port, figures, and a way to say it ended. */
export interface ConnectionOwner {
  readonly id: string;
  readonly targetPort: number;
  readonly rule: RuleRuntime;
  readonly stats: ProxyStats;
  connectionClosed(conn: TcpConnection): void;
}

const errText = (err: Error) => (err as NodeJS.ErrnoException).code ?? err.message;
const kb = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;

/**
 * One forwarded TCP connection: optional TLS handshake with the client, connect to the target
 * (round-robin start, next address on failure), then a relay in both directions. Errors on one
 * side end the other (a reset is passed on as a reset); a clean FIN is passed on as a FIN.
 */
export class TcpConnection {
  bytesIn = 0;
  bytesOut = 0;
  private client: net.Socket;
  /** The accepted socket (`client` may wrap it: TLS, owned buffers), for a reset. */
  private readonly raw: net.Socket;
  private clientReader: OwnedBufferReader | undefined;
  private target: net.Socket | undefined;
  private pumps: Pump[] = [];
  private readonly started = Date.now();
  private closedSides = 0;
  private finished = false;
  private targetName = '';
  private handshaking = false;
  private noCertificate = false;
  /** Bytes relayed at the last idle check, and when that count last moved. */
  private seenBytes = 0;
  private activeAt = Date.now();

  constructor(
    private readonly owner: ConnectionOwner,
    raw: net.Socket,
    readonly ip: string,
    private readonly who: string,
    private readonly release: () => void,
  ) {
    this.raw = raw;
    const mode = owner.rule.rule.tlsMode;
    if (mode === 'none') {
      // Plain on both sides: read the client into owned buffers (see OwnedBufferReader).
      const reader = new OwnedBufferReader();
      const adopted = adoptWithOwnedBuffers(raw, reader);
      this.client = adopted ?? raw;
      this.clientReader = adopted ? reader : undefined;
    } else if (mode === 'terminate') {
      // The TLS socket reports the connection's errors; the raw one only needs a listener.
      raw.on('error', () => {});
      const options = serverTlsOptions(owner.rule.tls);
      if (options) {
        this.client = new tls.TLSSocket(raw, options);
        this.handshaking = true;
      } else {
        // No certificate to offer (the store is empty): the client cannot get through.
        owner.rule.line(3, 'noCertificate', { id: owner.id, client: who });
        this.client = raw;
        this.noCertificate = true;
      }
    } else {
      this.client = raw;
    }
    this.client.on('error', (err) => {
      if (this.handshaking)
        owner.rule.line(3, 'tlsHandshakeFailed', { id: owner.id, client: who, detail: (err as Error).message });
      this.sideFailed(this.target, err, 'client');
    });
    this.client.on('close', () => this.sideClosed());
  }

  start(): void {
    const rule = this.owner.rule;
    if (this.noCertificate) {
      this.client.destroy();
      return;
    }
    if (!this.handshaking) {
      this.connect(rule.targetOrder(), 0);
      return;
    }
    const timer = setTimeout(() => this.client.destroy(new Error('handshake timed out')), TLS_HANDSHAKE_MS);
    this.client.once('secure', () => {
      clearTimeout(timer);
      this.handshaking = false;
      this.connect(rule.targetOrder(), 0);
    });
    this.client.once('close', () => clearTimeout(timer));
  }

  /**
   * Called by the port's idle sweep: true (and the connection is closed) when no byte went
   * either way for `idleMs`. Counting bytes here costs the relay nothing per chunk.
   */
  closeIfIdle(now: number, idleMs: number): boolean {
    const bytes = this.bytesIn + this.bytesOut;
    if (bytes !== this.seenBytes) {
      this.seenBytes = bytes;
      this.activeAt = now;
      return false;
    }
    if (now - this.activeAt < idleMs) return false;
    const log = this.owner.rule.log;
    if (log.wants(4))
      this.owner.rule.line(4, 'idleClosed', {
        id: this.owner.id,
        client: this.who,
        seconds: Math.round(idleMs / 1000),
      });
    this.destroy();
    return true;
  }

  /** Still relaying (or about to). */
  get open(): boolean {
    return !this.client.destroyed;
  }

  /**
   * Ends it with a reset (the security lists refuse the client now): on the socket that holds the
   * TCP handle, which is `client` after adoption and `raw` under TLS.
   */
  reset(): void {
    resetAny(this.client, this.raw);
    this.destroy();
  }

  /** Ends the connection now (port closing, rule switched off, address no longer allowed). */
  destroy(): void {
    this.client.destroy();
    this.target?.destroy();
  }

  private connect(order: string[], i: number): void {
    const rule = this.owner.rule;
    if (this.client.destroyed) return;
    if (i >= order.length) {
      rule.line(2, 'noTarget', { id: this.owner.id, client: this.who, targets: order.join(', ') });
      this.client.destroy();
      return;
    }
    const host = order[i];
    const port = this.owner.targetPort;
    const name = hostPort(host, port);
    const timeoutMs = rule.shared.settings.connectTimeoutMs;
    const originate = rule.rule.tlsMode === 'originate' ? rule.tls.client : undefined;
    const reader = rule.rule.tlsMode === 'none' ? new OwnedBufferReader() : undefined;
    const sock = originate
      ? tls.connect({
          host,
          port,
          // Not in the typings, but tls.connect hands it to the TLS socket (half-close works).
          allowHalfOpen: true,
          ...originate,
          // SNI and the name to verify: the configured one, else a host-name target.
          servername: originate.servername ?? (isIp(host) ? undefined : host),
        } as tls.ConnectionOptions)
      : net.connect({ host, port, allowHalfOpen: true, noDelay: true, onread: reader?.onread });
    const timer = setTimeout(() => sock.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const onFail = (err: Error) => {
      clearTimeout(timer);
      this.client.off('close', abandon);
      rule.line(3, 'targetFailed', { id: this.owner.id, client: this.who, target: name, detail: errText(err) });
      this.connect(order, i + 1);
    };
    const abandon = () => sock.destroy();
    this.client.once('close', abandon);
    sock.once('error', onFail);
    sock.once(originate ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      this.client.off('close', abandon);
      sock.off('error', onFail);
      if (this.client.destroyed) {
        sock.destroy();
        return;
      }
      this.targetName = name;
      this.relay(sock, reader);
    });
  }

  private relay(target: net.Socket, targetReader: OwnedBufferReader | undefined): void {
    const { owner } = this;
    const stats = owner.stats;
    this.target = target;
    target.on('error', (err) => this.sideFailed(this.client, err, 'target'));
    target.on('close', () => this.sideClosed());
    const buckets = owner.rule.connectionBuckets();
    this.pumps = [
      new Pump(this.client, target, this.clientReader, {
        count: (n) => {
          stats.bytesIn += n;
          this.bytesIn += n;
        },
        buckets: buckets.in,
      }),
      new Pump(target, this.client, targetReader, {
        count: (n) => {
          stats.bytesOut += n;
          this.bytesOut += n;
        },
        buckets: buckets.out,
      }),
    ];
    for (const p of this.pumps) p.start();
    if (owner.rule.log.wants(4))
      owner.rule.line(4, 'opened', { id: owner.id, client: this.who, target: this.targetName });
  }

  /** One side failed: a reset travels on as a reset, anything else closes the other side. */
  private sideFailed(other: net.Socket | undefined, err: Error, side: 'client' | 'target'): void {
    const rule = this.owner.rule;
    if (rule.log.wants(5))
      rule.line(5, side === 'client' ? 'clientError' : 'targetError', {
        id: this.owner.id,
        client: this.who,
        detail: errText(err),
      });
    if (!other || other.destroyed) return;
    // A TLS socket cannot be reset (its handle is not a TCP one: Node throws); it is closed.
    if ((err as NodeJS.ErrnoException).code === 'ECONNRESET' && !(other instanceof tls.TLSSocket)) {
      try {
        other.resetAndDestroy();
        return;
      } catch {
        // fall through to a plain close
      }
    }
    other.destroy();
  }

  private sideClosed(): void {
    this.closedSides++;
    // Done when the client closed before a target was reached, or when both sides closed.
    if (this.finished || (this.target && this.closedSides < 2)) return;
    if (this.target && !this.target.destroyed) return;
    this.finished = true;
    for (const p of this.pumps) p.stop();
    this.release();
    this.owner.connectionClosed(this);
    const rule = this.owner.rule;
    if (this.target && rule.log.wants(4)) {
      rule.line(4, 'closed', {
        id: this.owner.id,
        client: this.who,
        seconds: ((Date.now() - this.started) / 1000).toFixed(1),
        in: kb(this.bytesIn),
        out: kb(this.bytesOut),
      });
    }
  }
}
