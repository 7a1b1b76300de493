import net from 'node:net';
import type { PortforwardRunState, ProxySpec } from '@lucky/shared';
import { admit, ProxyStats } from './limits.js';
import { bindFailure, listenWithFallback, RETRY_BIND_MS, retryable } from './listen.js';
import { hostPort, type RuleRuntime, unmapped } from './ruleRuntime.js';
import { type ConnectionOwner, TcpConnection } from './tcpConnection.js';

const CLOSE_WAIT_MS = 2000;
/** The idle sweep runs a quarter of the idle time-out apart, within these bounds. */
const IDLE_SWEEP_MIN_MS = 250;
const IDLE_SWEEP_MAX_MS = 10_000;

/**
 * One TCP listening port of a rule. A bind failure is this port's error (shown in the list);
 * an address in use or not (yet) present is retried every few seconds. Edits swap `spec` and
 * `rule` in place, so the listener and its open connections stay.
 */
export class TcpProxy implements ConnectionOwner {
  state: PortforwardRunState = 'starting';
  error: string | undefined;
  readonly stats = new ProxyStats();
  private server: net.Server | undefined;
  private readonly conns = new Set<TcpConnection>();
  private retryTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    public spec: ProxySpec,
    public rule: RuleRuntime,
  ) {}

  get id(): string {
    return this.spec.id;
  }

  get targetPort(): number {
    return this.spec.targetPort;
  }

  async start(): Promise<void> {
    clearTimeout(this.retryTimer);
    const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true, noDelay: true });
    server.on('connection', (raw) => this.accept(raw));
    try {
      await listenWithFallback(this.spec, (opts) => listenTcp(server, opts));
    } catch (err) {
      server.close();
      if (this.closed) return;
      this.state = 'error';
      this.error = bindFailure(err as NodeJS.ErrnoException, this.spec);
      this.rule.log.error(`${this.id}: ${this.error}`);
      if (retryable(err)) this.retryTimer = setTimeout(() => this.start(), RETRY_BIND_MS);
      return;
    }
    if (this.closed) {
      server.close();
      return;
    }
    if (this.state === 'error') this.rule.log.info(`${this.id}: listening now`);
    this.server = server;
    this.state = 'running';
    this.error = undefined;
    // After listening, errors come from accept (e.g. out of file descriptors): log, keep going.
    server.on('error', (err) => this.rule.log.error(`${this.id}: ${(err as Error).message}`));
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
        this.rule.log.warn(`${this.id}: closing a connection from ${c.ip}: no longer allowed by the access list`);
        c.destroy();
      }
    }
  }

  get connections(): number {
    return this.conns.size;
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
    clearTimeout(this.retryTimer);
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
    if (!rule.allows(ip)) {
      this.refuse(raw, who, `the ${rule.rule.accessMode} does not allow it`);
      return;
    }
    const lease = admit('tcp', ip, rule.scopes());
    if (!lease.ok) {
      this.refuse(raw, who, lease.reason);
      return;
    }
    this.stats.accepted++;
    const conn = new TcpConnection(this, raw, ip, who, lease.release);
    this.conns.add(conn);
    this.stats.connections = this.conns.size;
    conn.start();
    this.startIdleSweep();
  }

  private refuse(raw: net.Socket, who: string, reason: string): void {
    this.stats.refused++;
    if (this.rule.log.wants(3)) this.rule.log.warn(`${this.id} refused ${who}: ${reason}`);
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
