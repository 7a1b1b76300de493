import net from 'node:net';
import type { CodedText, PortforwardRunState, ProxySpec } from '@lucky/shared';
import { type BindState, type BindTarget, PortBinder } from '../../core/net/bindPort.js';
import { admit, ProxyStats } from '../../core/relay/limits.js';
import { hostPort, type LogCode, type RuleRuntime, unmapped } from './ruleRuntime.js';
import { type ConnectionOwner, TcpConnection } from './tcpConnection.js';

const CLOSE_WAIT_MS = 2000;
/** The idle sweep runs a quarter of the idle time-out apart, within these bounds. */
const IDLE_SWEEP_MIN_MS = 250;
const IDLE_SWEEP_MAX_MS = 10_000;

/**
 * One TCP listening port of a rule. A bind failure is this port's error (shown in the list with
 * its coded reason); an address in use or not (yet) present is retried by the core's PortBinder.
 * Edits swap `spec` and `rule` in place, so the listener and its open connections stay.
 */
export class TcpProxy implements ConnectionOwner {
  state: PortforwardRunState = 'starting';
  /** Why the port is not running. */
  reason: CodedText | undefined;
  readonly stats = new ProxyStats();
  private server: net.Server | undefined;
  private readonly conns = new Set<TcpConnection>();
  private readonly binder: PortBinder;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    public spec: ProxySpec,
    public rule: RuleRuntime,
  ) {
    // Type, address and port are the proxy's identity: an edit that changes them makes a new proxy.
    const target = { host: spec.host, port: spec.port, ipv6Only: spec.ipv6Only };
    this.binder = new PortBinder(
      target,
      (t) => this.bind(t),
      (s) => this.bound(s),
    );
  }

  get id(): string {
    return this.spec.id;
  }

  get targetPort(): number {
    return this.spec.targetPort;
  }

  /** Binds (or tries again now, after a failure); later retries run on their own. */
  async start(): Promise<void> {
    await this.binder.start();
  }

  private async bind(t: Required<BindTarget>): Promise<void> {
    const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true, noDelay: true });
    server.on('connection', (raw) => this.accept(raw));
    try {
      await listenTcp(server, t);
    } catch (err) {
      server.close();
      throw err;
    }
    if (this.closed) {
      server.close();
      return;
    }
    // After listening, errors come from accept (e.g. out of file descriptors): log, keep going.
    server.on('error', (err) => this.rule.line(2, 'acceptError', { id: this.id, detail: (err as Error).message }));
    this.server = server;
  }

  private bound(s: BindState): void {
    if (this.closed) return;
    if (s.state === 'bound') {
      if (this.state === 'error') this.rule.line(4, 'listening', { id: this.id });
      this.state = 'running';
      this.reason = undefined;
      return;
    }
    this.state = 'error';
    this.reason = s.reason;
    this.rule.log.coded(2, s.reason.code, { ...s.reason.params, id: this.id }, `${this.id}: ${s.reason.text}`);
  }

  /** Swap in the edited settings; the listener and open connections stay. */
  update(spec: ProxySpec, rule: RuleRuntime): void {
    this.spec = spec;
    this.rule = rule;
  }

  /** Close connections whose client the (edited) black/white list no longer allows. */
  recheckAccess(): void {
    for (const c of this.conns) {
      if (!this.rule.allows(c.ip)) {
        this.rule.line(3, 'accessRevoked', { id: this.id, ip: c.ip });
        c.destroy();
      }
    }
  }

  get connections(): number {
    return this.conns.size;
  }

  /** The open connections (the security lists ask them again when they change). */
  held(): Iterable<TcpConnection> {
    return this.conns;
  }

  connectionClosed(conn: TcpConnection): void {
    if (this.conns.delete(conn)) this.stats.connections = this.conns.size;
    if (this.conns.size === 0) this.stopIdleSweep();
  }

  /** Runs while the port has connections and the rule an idle time-out (read each round, so edits hold). */
  private startIdleSweep(): void {
    const idleMs = this.rule.rule.tcpIdleTimeoutMs;
    if (this.idleTimer || idleMs <= 0) return;
    const every = Math.min(IDLE_SWEEP_MAX_MS, Math.max(IDLE_SWEEP_MIN_MS, Math.floor(idleMs / 4)));
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      const limit = this.rule.rule.tcpIdleTimeoutMs;
      if (limit <= 0) return;
      const now = Date.now();
      for (const c of this.conns) c.closeIfIdle(now, limit);
      if (this.conns.size > 0) this.startIdleSweep();
    }, every);
    this.idleTimer.unref();
  }

  private stopIdleSweep(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.state = 'stopped';
    this.binder.stop();
    this.stopIdleSweep();
    const server = this.server;
    this.server = undefined;
    for (const c of this.conns) c.destroy();
    if (!server) return;
    // The listener closes at once; the callback waits for accepted sockets, which were just
    // destroyed. The time limit only guards a reload against a socket that never reports back.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => server.close(() => resolve())),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  private accept(raw: net.Socket): void {
    const ip = unmapped(raw.remoteAddress ?? '');
    const who = hostPort(ip, raw.remotePort ?? 0);
    const rule = this.rule;
    raw.on('error', () => {});
    // The security lists first; they log their refusals (once a minute per address), so no rule line.
    if (ip && !rule.shared.admits(ip)) {
      this.stats.refused++;
      raw.resetAndDestroy();
      return;
    }
    if (!rule.allows(ip)) {
      this.refuse(raw, who, rule.rule.accessMode === 'whitelist' ? 'notWhitelisted' : 'blacklisted');
      return;
    }
    const lease = admit('tcp', ip, rule.scopes());
    if (!lease.ok) {
      this.refuse(raw, who, lease.code, lease.cap);
      return;
    }
    this.stats.accepted++;
    const conn = new TcpConnection(this, raw, ip, who, lease.release);
    this.conns.add(conn);
    this.stats.connections = this.conns.size;
    conn.start();
    this.startIdleSweep();
  }

  private refuse(raw: net.Socket, client: string, code: LogCode, cap?: number): void {
    this.stats.refused++;
    if (this.rule.log.wants(3)) this.rule.line(3, code, { id: this.id, client, cap });
    raw.resetAndDestroy();
  }
}

function listenTcp(server: net.Server, opts: net.ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen({ ...opts, backlog: 1024 }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
