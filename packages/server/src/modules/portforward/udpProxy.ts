import dgram from 'node:dgram';
import type { CodedText, PortforwardRunState, ProxySpec } from '@lucky/shared';
import { type BindState, type BindTarget, PortBinder } from '../../core/net/bindPort.js';
import { admit, ProxyStats } from '../../core/relay/limits.js';
import { hostPort, type LogCode, type RuleRuntime, unmapped } from './ruleRuntime.js';
import { UdpSession } from './udpSession.js';

/** A refused client address is logged at most this often, so a flood does not fill the log. */
const REFUSAL_LOG_MS = 10_000;
const SOCKET_BUFFER = 4 * 1024 * 1024;

/**
 * One UDP listening port of a rule: a session per client address and port, each with its own
 * socket connected to the target, replies sent back through the listening socket. Sessions end
 * after `udpTimeoutMs` without a datagram either way.
 */
export class UdpProxy {
  state: PortforwardRunState = 'starting';
  /** Why the port is not running. */
  reason: CodedText | undefined;
  readonly stats = new ProxyStats();
  socket: dgram.Socket | undefined;
  private readonly sessions = new Map<string, UdpSession>();
  private readonly refusalLogged = new Map<string, number>();
  private lastSession: UdpSession | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweepEvery = 0;
  private readonly binder: PortBinder;
  private closed = false;

  constructor(
    public spec: ProxySpec,
    public rule: RuleRuntime,
  ) {
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

  /** Binds (or tries again now, after a failure); later retries run on their own. */
  async start(): Promise<void> {
    await this.binder.start();
  }

  private async bind(t: Required<BindTarget>): Promise<void> {
    const s = await bindUdp(t);
    if (this.closed) {
      s.close();
      return;
    }
    try {
      s.setRecvBufferSize(SOCKET_BUFFER);
      s.setSendBufferSize(SOCKET_BUFFER);
    } catch {
      // The kernel caps these (net.core.rmem_max); the defaults work, only bursts suffer.
    }
    s.on('message', (msg, rinfo) => this.fromClient(msg, rinfo));
    s.on('error', (err) => this.rule.line(2, 'acceptError', { id: this.id, detail: err.message }));
    this.socket = s;
  }

  private bound(s: BindState): void {
    if (this.closed) return;
    if (s.state === 'bound') {
      if (this.state === 'error') this.rule.line(4, 'listening', { id: this.id });
      this.state = 'running';
      this.reason = undefined;
      this.scheduleSweep();
      return;
    }
    this.state = 'error';
    this.reason = s.reason;
    this.rule.log.coded(2, s.reason.code, { ...s.reason.params, id: this.id }, `${this.id}: ${s.reason.text}`);
  }

  update(spec: ProxySpec, rule: RuleRuntime): void {
    this.spec = spec;
    this.rule = rule;
    this.scheduleSweep();
  }

  recheckAccess(): void {
    for (const s of this.sessions.values()) {
      if (!this.rule.allows(s.ip)) s.close('sessionRevoked');
    }
  }

  /** The open sessions (the security lists ask them again when they change). */
  held(): Iterable<UdpSession> {
    return this.sessions.values();
  }

  sessionClosed(session: UdpSession): void {
    if (this.sessions.get(session.key) === session) this.sessions.delete(session.key);
    this.stats.sessions = this.sessions.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.state = 'stopped';
    this.binder.stop();
    clearInterval(this.sweepTimer);
    for (const s of [...this.sessions.values()]) s.close('sessionPortClosed');
    const socket = this.socket;
    this.socket = undefined;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  /** Send a reply to a client through the listening socket. */
  reply(msg: Buffer, port: number, address: string): void {
    this.socket?.send(msg, port, address, ignore);
  }

  private fromClient(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    // Datagrams come in bursts from one client: skip building the map key for a repeat.
    const last = this.lastSession;
    if (last && !last.closed && last.port === rinfo.port && last.address === rinfo.address) {
      last.fromClient(msg);
      return;
    }
    const key = `${rinfo.address}|${rinfo.port}`;
    let session = this.sessions.get(key);
    if (!session) {
      const ip = unmapped(rinfo.address);
      const who = hostPort(ip, rinfo.port);
      // The security lists first: no session for a refused address (they log it, not us).
      if (!this.rule.shared.admits(ip)) {
        this.stats.refused++;
        return;
      }
      if (!this.rule.allows(ip)) {
        this.refuse(ip, who, this.rule.rule.accessMode === 'whitelist' ? 'notWhitelisted' : 'blacklisted');
        return;
      }
      const lease = admit('udp', ip, this.rule.scopes());
      if (!lease.ok) {
        this.refuse(ip, who, lease.code, lease.cap);
        return;
      }
      this.stats.accepted++;
      session = new UdpSession(this, key, rinfo, ip, who, lease.release);
      this.sessions.set(key, session);
      this.stats.sessions = this.sessions.size;
      session.open();
    }
    this.lastSession = session;
    session.fromClient(msg);
  }

  private refuse(ip: string, client: string, code: LogCode, cap?: number): void {
    this.stats.refused++;
    const now = Date.now();
    if (now - (this.refusalLogged.get(ip) ?? 0) < REFUSAL_LOG_MS) return;
    this.refusalLogged.set(ip, now);
    this.rule.line(3, code, { id: this.id, client, cap });
  }

  /** Expired sessions are found by a sweep a few times per time-out (at most every second). */
  private scheduleSweep(): void {
    if (!this.socket) return;
    const every = Math.min(1000, Math.max(25, Math.floor(this.rule.rule.udpTimeoutMs / 4)));
    if (every === this.sweepEvery && this.sweepTimer) return;
    clearInterval(this.sweepTimer);
    this.sweepEvery = every;
    this.sweepTimer = setInterval(() => this.sweep(), every);
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const now = Date.now();
    const timeout = this.rule.rule.udpTimeoutMs;
    for (const s of [...this.sessions.values()]) {
      if (now - s.lastActive >= timeout) s.close('sessionIdle', { ms: timeout });
    }
    for (const [ip, at] of this.refusalLogged) if (now - at > REFUSAL_LOG_MS) this.refusalLogged.delete(ip);
  }
}

/** Send errors of single datagrams (ENOBUFS …) are not worth more than the drop itself. */
const ignore = () => {};

function bindUdp(opts: Required<BindTarget>): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket({ type: opts.host.includes(':') ? 'udp6' : 'udp4', ipv6Only: opts.ipv6Only });
    const onError = (err: Error) => {
      try {
        socket.close();
      } catch {
        // never bound: nothing to close
      }
      reject(err);
    };
    socket.once('error', onError);
    socket.bind({ address: opts.host, port: opts.port, exclusive: true }, () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}
