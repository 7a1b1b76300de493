import type net from 'node:net';
import { connectShared, type SharedPortBind } from '../../core/net/sharedPort.js';

/** How much of an answer is read before the rest is ignored (we only need to see that one came). */
const MAX_ANSWER = 64 * 1024;

/**
 * The connection that keeps a TCP mapping's NAT entry alive, as Natter and natmap do: an HTTP/1.1
 * keep-alive connection from the mapping's local port to a web server, one HEAD request per
 * heartbeat. A server that closes it is reconnected at the next heartbeat; a reconnect that fails
 * is the mapping's failure.
 */
export class KeepAlive {
  private socket: net.Socket | undefined;
  private answered: (() => void) | undefined;
  private readonly host: string;
  private readonly port: number;
  private readonly path: string;

  constructor(url: string) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port || 80);
    this.path = `${u.pathname || '/'}${u.search}`;
  }

  get url(): string {
    return `http://${this.host}:${this.port}${this.path}`;
  }

  /** Sends one request (connecting first when needed) and waits for the start of an answer. */
  async ping(bind: SharedPortBind, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (!this.socket || this.socket.destroyed) await this.connect(bind, timeoutMs, signal);
    const socket = this.socket as net.Socket;
    await new Promise<void>((resolve, reject) => {
      const onClose = () => {
        clearTimeout(timer);
        this.answered = undefined;
        reject(new Error('the server closed the connection'));
      };
      const timer = setTimeout(() => {
        socket.off('close', onClose);
        this.answered = undefined;
        this.drop();
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.answered = () => {
        clearTimeout(timer);
        socket.off('close', onClose);
        resolve();
      };
      socket.once('close', onClose);
      socket.write(
        `HEAD ${this.path} HTTP/1.1\r\nHost: ${this.host}\r\nUser-Agent: lucky-console\r\nConnection: keep-alive\r\n\r\n`,
      );
    });
  }

  private async connect(bind: SharedPortBind, timeoutMs: number, signal: AbortSignal): Promise<void> {
    const socket = await connectShared(bind, this.host, this.port, { timeoutMs, signal });
    socket.setKeepAlive(true, 10_000);
    let seen = 0;
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      const done = this.answered;
      this.answered = undefined;
      done?.();
      // Only the arrival matters; a server that streams without end is cut off.
      if (seen > MAX_ANSWER * 16) this.drop();
    });
    socket.on('error', () => undefined);
    this.socket = socket;
  }

  /** Closes with a reset, so the local port leaves no TIME_WAIT entry behind for this peer. */
  drop(): void {
    const s = this.socket;
    this.socket = undefined;
    if (s && !s.destroyed) s.resetAndDestroy();
  }
}
