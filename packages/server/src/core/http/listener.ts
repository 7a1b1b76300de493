import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { SecureContext } from 'node:tls';
import type { KeyPair } from '../tls/adminCert.js';
import { splitByFirstByte } from './firstByte.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
type SniCallback = (servername: string, cb: (err: Error | null, ctx?: SecureContext) => void) => void;

const FIRST_BYTE_TIMEOUT_MS = 15_000;

/**
 * HTTP and HTTPS on one port: peek at the first byte of each connection (a
 * TLS handshake starts with 0x16) and hand the socket to the plain or the
 * TLS server. Neither server listens itself.
 */
export class DualListener {
  readonly http: http.Server;
  readonly https: https.Server;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  /** `sni` may answer a stored certificate for the requested name; without one, `tls` is used. */
  constructor(handler: Handler, tls: KeyPair, sni?: SniCallback) {
    this.http = http.createServer({ keepAliveTimeout: 65_000 }, handler);
    this.https = https.createServer(
      { key: tls.key, cert: tls.cert, minVersion: 'TLSv1.2', ...(sni ? { SNICallback: sni } : {}) },
      handler,
    );
    this.server = net.createServer({ pauseOnConnect: false, noDelay: true }, (socket) => this.dispatch(socket));
    this.server.on('error', () => undefined);
  }

  setCertificate(tls: KeyPair): void {
    this.https.setSecureContext({ key: tls.key, cert: tls.cert });
  }

  private dispatch(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    splitByFirstByte(socket, FIRST_BYTE_TIMEOUT_MS, (s, isTls) =>
      (isTls ? this.https : this.http).emit('connection', s),
    );
  }

  listen(port: number, host?: string): Promise<number> {
    return new Promise((resolve, reject) => {
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
    });
  }

  /** Open connections to the admin port (for the overview). */
  get connectionCount(): number {
    return this.sockets.size;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.http.closeIdleConnections();
      for (const s of this.sockets) s.destroy();
    });
  }
}
