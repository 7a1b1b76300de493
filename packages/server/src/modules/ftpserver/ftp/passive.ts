// Passive data connections (RFC 959 PASV, RFC 2428 EPSV): a listener per transfer on a port of
// the configured range, bound on the control connection's local address. It takes exactly one
// connection, and only from the control connection's peer (a connection from another address is
// reset: "port theft", where a third party races the client to the announced port); it closes as
// soon as it has that connection, or after a deadline, so the port goes back to the range.
import net from 'node:net';
import { reset } from '../../../core/net/connGuard.js';

export interface PortRange {
  min: number;
  max: number;
}

/** Ports of the range handed to listeners of this server now (other programs' ports fail at bind). */
export class PassivePorts {
  private readonly held = new Set<number>();

  constructor(
    readonly range: () => PortRange,
    /**
     * The global security lists (ctx.safe.admits). Only the control connection's peer is taken,
     * and it passed them at accept; asked again in case it was banned since.
     */
    private readonly admits: (ip: string) => boolean = () => true,
  ) {}

  get inUse(): number {
    return this.held.size;
  }

  /**
   * A listener on a free port of the range at `host`, or undefined when every port is held
   * (by this server or another program). Ports are tried from a random one on, so two sessions
   * do not race for the same port and a client cannot predict the next one.
   */
  async open(host: string, opts: PassiveOptions): Promise<PassiveListener | undefined> {
    const { min, max } = this.range();
    const count = max - min + 1;
    const first = Math.floor(Math.random() * count);
    for (let i = 0; i < count; i++) {
      const port = min + ((first + i) % count);
      if (this.held.has(port)) continue;
      this.held.add(port);
      const server = net.createServer({ pauseOnConnect: true, noDelay: true });
      try {
        await listen(server, host, port);
      } catch (err) {
        this.held.delete(port);
        server.close();
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' || code === 'EACCES') continue;
        throw err;
      }
      return new PassiveListener(server, port, opts, () => this.held.delete(port), this.admits);
    }
    return undefined;
  }
}

export interface PassiveOptions {
  /** The control connection's peer: the only address whose connection is taken. */
  peer: string;
  /** The client must connect within this long. */
  timeoutMs: number;
  /** A connection from another address was refused. */
  onForeign(peer: string): void;
}

const bare = (ip: string) => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);

export class PassiveListener {
  private socket: net.Socket | undefined;
  private waiters: Array<(s: net.Socket | undefined) => void> = [];
  private closed = false;
  private listening = true;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly server: net.Server,
    readonly port: number,
    private readonly opts: PassiveOptions,
    private readonly release: () => void,
    private readonly admits: (ip: string) => boolean = () => true,
  ) {
    server.on('connection', (s) => this.accept(s));
    server.on('error', () => this.close());
    this.timer = setTimeout(() => this.close(), opts.timeoutMs);
    this.timer.unref();
  }

  private accept(s: net.Socket): void {
    s.on('error', () => {});
    if (this.socket || this.closed) {
      reset(s);
      return;
    }
    const peer = bare(s.remoteAddress ?? '');
    if (peer !== bare(this.opts.peer)) {
      this.opts.onForeign(peer);
      reset(s);
      return;
    }
    // Refused by the lists (they log it): the transfer fails now, as if the client never came.
    if (!this.admits(peer)) {
      reset(s);
      this.close();
      return;
    }
    this.socket = s;
    this.stopListening();
    for (const w of this.waiters.splice(0)) w(s);
  }

  /** The client's connection (paused, nothing read yet); undefined when it did not come in time. */
  take(): Promise<net.Socket | undefined> {
    if (this.socket) return Promise.resolve(this.socket);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private stopListening(): void {
    if (!this.listening) return;
    this.listening = false;
    clearTimeout(this.timer);
    if (this.server.listening) this.server.close();
    this.release();
  }

  /** Stops listening and, unless the connection was taken for a transfer, drops it. */
  close(keepSocket = false): void {
    if (this.closed) return;
    this.closed = true;
    this.stopListening();
    if (this.socket && !keepSocket) this.socket.destroy();
    for (const w of this.waiters.splice(0)) w(undefined);
  }
}

function listen(server: net.Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
