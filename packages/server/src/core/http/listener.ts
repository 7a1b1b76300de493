import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { SecureContext, TLSSocket } from 'node:tls';
import { ConnectionGuard, type ListenerLimits, RefusalLog, reset } from '../net/connGuard.js';
import { type ListsSubscribe, type ListsWatch, watchLists } from '../safe/recheck.js';
import type { KeyPair } from '../tls/adminCert.js';
import { armHandshakeDeadline, checkHeadTimeouts, handshakeDone, setHeaderTimeout } from './deadlines.js';
import { splitByFirstByte } from './firstByte.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
type SniCallback = (servername: string, cb: (err: Error | null, ctx?: SecureContext) => void) => void;

/** What the admin listener checks at accept, before a byte is read. */
export interface AdmissionRules {
  /** False: the peer may not reach the console at all (outside the LAN while internet access is off). */
  reachable(ip: string): boolean;
  /** False: the security lists refuse the peer (core/safe); the gate logs it. Absent: no lists here. */
  listed?(ip: string): boolean;
  /** The lists' change notice (core/safe): open connections are asked `listed` again and refused ones reset. */
  watch?: ListsSubscribe;
  isLan(ip: string): boolean;
  /** A trusted proxy: it speaks for many clients, so no per-address cap applies to it. */
  isProxy(ip: string): boolean;
  limits(): ListenerLimits;
  log(line: string): void;
}

/**
 * HTTP and HTTPS on one port: peek at the first byte of each connection (a
 * TLS handshake starts with 0x16) and hand the socket to the plain or the
 * TLS server. Neither server listens itself. Peers the console does not
 * answer are reset at accept, and the connection caps and time-outs of the
 * settings hold before TLS or HTTP parsing starts.
 */
export class DualListener {
  readonly http: http.Server;
  readonly https: https.Server;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  readonly guard: ConnectionGuard;
  private readonly outsideLog: RefusalLog;
  /** Re-asks the security lists for the open connections when they change (while listening). */
  lists: ListsWatch | undefined;

  /** `sni` may answer a stored certificate for the requested name; without one, `tls` is used. */
  constructor(
    handler: Handler,
    tls: KeyPair,
    sni: SniCallback | undefined,
    private readonly rules: AdmissionRules,
  ) {
    const { headerMs } = rules.limits();
    this.http = http.createServer({ keepAliveTimeout: 65_000 }, handler);
    this.https = https.createServer(
      { key: tls.key, cert: tls.cert, minVersion: 'TLSv1.2', ...(sni ? { SNICallback: sni } : {}) },
      handler,
    );
    checkHeadTimeouts(this.http, headerMs);
    checkHeadTimeouts(this.https, headerMs);
    this.https.on('secureConnection', (s: TLSSocket) => handshakeDone(s));
    this.guard = new ConnectionGuard('admin', rules.limits, rules.isLan, rules.log);
    this.outsideLog = new RefusalLog(rules.log);
    this.server = net.createServer({ pauseOnConnect: false, noDelay: true }, (socket) => this.dispatch(socket));
    this.server.on('error', () => undefined);
  }

  setCertificate(tls: KeyPair): void {
    this.https.setSecureContext({ key: tls.key, cert: tls.cert });
  }

  private dispatch(socket: net.Socket): void {
    const ip = socket.remoteAddress ?? '';
    if (!this.rules.reachable(ip)) {
      this.outsideLog.note(ip, `refused admin access from outside the LAN: ${ip}`);
      reset(socket);
      return;
    }
    if (this.rules.listed && !this.rules.listed(ip)) {
      reset(socket);
      return;
    }
    if (!this.guard.admit(socket, ip, this.rules.isProxy(ip))) return;
    const { handshakeMs, headerMs } = this.rules.limits();
    setHeaderTimeout(this.http, headerMs);
    setHeaderTimeout(this.https, headerMs);
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    splitByFirstByte(socket, headerMs, (s, isTls) => {
      if (isTls) armHandshakeDeadline(s, handshakeMs);
      (isTls ? this.https : this.http).emit('connection', s);
    });
  }

  listen(port: number, host?: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const onError = (err: Error) => {
        this.server.off('listening', onListening);
        reject(err);
      };
      const onListening = () => {
        this.server.off('error', onError);
        resolve((this.server.address() as net.AddressInfo).port);
      };
      this.server.once('error', onError);
      this.server.once('listening', onListening);
      this.server.listen({ port, host, ipv6Only: false });
    }).then((bound) => {
      this.watchLists();
      return bound;
    });
  }

  private watchLists(): void {
    const { listed, watch } = this.rules;
    if (!listed || !watch || this.lists) return;
    this.lists = watchLists(watch, {
      open: () => this.guard.sockets(),
      ipOf: (s) => (s.destroyed ? undefined : s.remoteAddress),
      admits: (ip) => listed(ip),
      close: (s) => reset(s),
    });
  }

  /** Open connections to the admin port (for the overview). */
  get connectionCount(): number {
    return this.sockets.size;
  }

  close(): Promise<void> {
    this.lists?.stop();
    this.lists = undefined;
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      // Also stops the head time-out checks (they hold a timer each).
      this.http.close();
      this.https.close();
      for (const s of this.sockets) s.destroy();
    });
  }
}
