import http from 'node:http';
import net from 'node:net';
import type stream from 'node:stream';
import tls from 'node:tls';
import type { CertResolver } from '../certs/resolver.js';
import { normalizeIp } from '../http/clientIp.js';
import { armHandshakeDeadline, checkHeadTimeouts, handshakeDone, setHeaderTimeout } from '../http/deadlines.js';
import { splitByFirstByte } from '../http/firstByte.js';
import { readProxyHeader } from '../http/proxyProtocol.js';
import { type ConnectionGuard, reset } from '../net/connGuard.js';
import { createIpMatcher } from '../net/lan.js';
import { DirectPath, REQUEST_MS } from './directHttp1.js';
import { H2Session } from './h2/session.js';
import { llhttpProblem } from './llhttp.js';
import type { ServeHandler } from './request.js';

/** An HTTP/1.1 upgrade (WebSocket), from node:http: the socket is the handler's from then on. */
export type UpgradeHandler = (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => void;

/**
 * What a server built on the listener offers it (the web service: modules/reverseproxy/handler.ts).
 * Requests reach `onRequest` as node:http's, the direct path's (directHttp1.ts) or the HTTP/2
 * engine's (h2/stream.ts) objects, all of them a ServeRequest / ServeResponse (request.ts).
 */
export interface ListenerHandlers {
  onRequest: ServeHandler;
  onUpgrade: UpgradeHandler;
  /**
   * The global security lists (the module's `ctx.safe.admits`), asked at accept before anything
   * else; a refused peer is reset with no byte read. A socket handed in through `accept` (a helper
   * process's) was asked in the process that accepted it, so it is not asked again.
   */
  admits?(ip: string): boolean;
}

/** What the listener's protocol servers are built from (`configure` swaps them when it changes). */
export interface ListenerOptions {
  /** Plain HTTP, TLS, or both on the one port (told apart by the first byte). */
  listenTypes: 'http' | 'https' | 'both';
  minTlsVersion: tls.SecureVersion;
  /** Offer h2 by ALPN over TLS. */
  http2: boolean;
  /** HTTP/2 without TLS, by prior knowledge (a plain connection that opens with the h2 preface). */
  h2c: boolean;
  /** Peers whose connections start with a PROXY protocol header (addresses / CIDRs; empty: none). */
  proxyProtocolFrom: readonly string[];
  /**
   * The name whose certificate answers a client that sends no server name (an IP address typed
   * in); unset: the store's default certificate (the WebDAV server lets its owner pick one).
   */
  defaultServerName?: string;
  /**
   * A request (head and body) must be whole within this long, on every engine; default 300 s (node's
   * own). The WebDAV server raises it for big uploads and cuts a body that stops arriving itself.
   */
  requestMs?: number;
}

/** Start of the HTTP/2 connection preface (RFC 9113 §3.4): a client speaking h2c by prior knowledge. */
const H2_PREFACE = Buffer.from('PRI * HTTP/2.0');

const CLOSE_WAIT_MS = 3000;

/**
 * One listening socket: HTTP, HTTPS or both on one port (first-byte split, see
 * core/http/firstByte.ts). HTTPS asks the core's certificate store per
 * handshake (SNI), and offers h2 by ALPN when HTTP/2 is on. Connection caps and
 * deadlines hold from accept (ConnectionGuard, core/http/deadlines.ts). `configure`
 * swaps the protocol servers without closing the socket; connections that are
 * open keep the servers they started with.
 */
export class HttpListener {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** Bytes of the connections that have closed (the open ones are summed when asked). */
  private closedIn = 0;
  private closedOut = 0;
  private plain!: http.Server;
  private tlsHttp!: http.Server;
  private secure!: tls.Server;
  private opts!: ListenerOptions;
  /** Peers that must start with a PROXY protocol header (none: the list is empty). */
  private sendsProxyHeader: (ip: string) => boolean = () => false;
  /** Every request, whichever engine carries it; HTTP/2 streams too (h2/session.ts), over TLS by ALPN or as h2c. */
  private readonly onRequest: ServeHandler;
  private readonly onUpgrade: UpgradeHandler;
  /** Plain HTTP/1.1 connections start here; node:http takes over what it does not serve. */
  private readonly direct: DirectPath;

  /**
   * `handOff` may give a new connection to another process (the web service's helpers,
   * modules/reverseproxy/helperPool.ts) before a byte of it is read; it returns false to keep
   * the connection here.
   */
  constructor(
    handlers: ListenerHandlers,
    private readonly certs: CertResolver | undefined,
    opts: ListenerOptions,
    private readonly handOff: ((socket: net.Socket) => boolean) | undefined,
    /** Connection caps and time-outs (shared by the listeners of a process), checked at accept. */
    private readonly guard: ConnectionGuard,
  ) {
    this.onRequest = handlers.onRequest;
    this.onUpgrade = handlers.onUpgrade;
    this.direct = new DirectPath(
      { onRequest: handlers.onRequest },
      () => guard.limits().headerMs,
      () => this.requestMs,
    );
    this.configure(opts);
    // noDelay as http.Server would set it: the sockets are accepted here, not by the protocol
    // servers, and Nagle + delayed ACK otherwise stall every keep-alive answer.
    // Paused until it is clear which process serves the connection: a socket handed to a
    // helper must arrive there with none of its bytes read here.
    this.server = net.createServer({ noDelay: true, pauseOnConnect: true }, (socket) => {
      // Caps first, before a byte is read or the socket travels to a helper process. A PROXY
      // protocol sender speaks for many clients: only the total cap applies to it.
      const ip = socket.remoteAddress ?? '';
      // The security lists log their own refusals; an address without a name (a Unix socket) is let in.
      if (ip && handlers.admits && !handlers.admits(normalizeIp(ip))) {
        reset(socket);
        return;
      }
      if (!guard.admit(socket, ip, this.sendsProxyHeader(ip))) return;
      if (this.handOff?.(socket)) return;
      socket.resume();
      this.dispatch(socket);
    });
    this.server.on('error', () => undefined);
  }

  configure(opts: ListenerOptions): void {
    if (this.opts && sameOptions(this.opts, opts)) return;
    this.opts = { ...opts, proxyProtocolFrom: [...opts.proxyProtocolFrom] };
    this.sendsProxyHeader = createIpMatcher(opts.proxyProtocolFrom);
    const handler = this.onRequest;
    const { headerMs } = this.guard.limits();
    // The servers these replace keep serving their open connections; closing them only stops
    // their time-out checks' timers and closes their idle keep-alive connections.
    this.plain?.close();
    this.tlsHttp?.close();
    this.plain = http.createServer({ keepAliveTimeout: 65_000 }, handler);
    checkHeadTimeouts(this.plain, headerMs, this.requestMs);
    this.plain.on('upgrade', this.onUpgrade);
    this.plain.on('clientError', refuseClient);
    // HTTP/1.1 over TLS: node:http on the decrypted socket.
    const tlsHttp = http.createServer({ keepAliveTimeout: 65_000 }, handler);
    checkHeadTimeouts(tlsHttp, headerMs, this.requestMs);
    this.tlsHttp = tlsHttp;
    tlsHttp.on('upgrade', this.onUpgrade);
    tlsHttp.on('clientError', refuseClient);
    this.secure = tls.createServer(
      {
        minVersion: opts.minTlsVersion,
        // node's own handshake limit (default 120 s) as a backstop; the listener's handshake time-out
        // (armHandshakeDeadline, from the first byte) is the one that normally ends a slow peer.
        handshakeTimeout: this.guard.limits().handshakeMs,
        ALPNProtocols: opts.http2 ? ['h2', 'http/1.1'] : ['http/1.1'],
        SNICallback: (name: string, cb: (err: Error | null, ctx?: tls.SecureContext) => void) => {
          if (!this.certs) return cb(new Error('no certificate store'));
          this.certs.sniCallback({ minVersion: opts.minTlsVersion })(name, cb);
        },
      },
      (socket) => {
        handshakeDone(socket);
        if (socket.alpnProtocol === 'h2') new H2Session(socket, handler, { requestMs: this.requestMs });
        else tlsHttp.emit('connection', socket);
      },
    );
    this.defaultCertId = undefined;
    this.secure.on('tlsClientError', (_err: Error, socket: net.Socket) => socket.destroy());
  }

  private defaultCertId: string | undefined;

  /** The whole-request deadline of the current options. */
  private get requestMs(): number {
    return this.opts.requestMs ?? REQUEST_MS;
  }

  /**
   * Node calls SNICallback only when the client sends a server name; a client
   * that connects by IP address gets the server's own context. Keep that one
   * set to the store's default certificate, following additions and renewals.
   */
  private refreshDefaultCertificate(): void {
    const fallback = this.certs?.pick(this.opts.defaultServerName || undefined);
    const id = fallback ? `${fallback.parsed.fingerprint}:${this.opts.minTlsVersion ?? ''}` : undefined;
    if (!fallback || id === this.defaultCertId) return;
    this.secure.setSecureContext({
      cert: fallback.record.certPem,
      key: fallback.record.keyPem,
      minVersion: this.opts.minTlsVersion,
    });
    this.defaultCertId = id;
  }

  /** Serve a connection accepted elsewhere (a helper process gets its sockets from the main one). */
  accept(socket: net.Socket): void {
    const ip = socket.remoteAddress ?? '';
    if (!this.guard.admit(socket, ip, this.sendsProxyHeader(ip))) return;
    socket.setNoDelay(true);
    this.dispatch(socket);
  }

  private dispatch(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.closedIn += socket.bytesRead;
      this.closedOut += socket.bytesWritten;
    });
    if (!this.sendsProxyHeader(socket.remoteAddress ?? '')) {
      this.route(socket);
      return;
    }
    // A listed proxy: its connection starts with a PROXY header naming the client (required).
    socket.on('error', () => socket.destroy());
    readProxyHeader(socket, this.guard.limits().headerMs, (err) => {
      if (err) {
        socket.destroy();
        return;
      }
      this.route(socket);
      socket.resume();
    });
  }

  /** HTTP or TLS by the first byte, then h2c, the direct HTTP/1.1 path, or TLS (h2 / HTTP/1.1 by ALPN). */
  private route(socket: net.Socket): void {
    const { plain, secure, opts, onRequest } = this;
    const { handshakeMs, headerMs } = this.guard.limits();
    setHeaderTimeout(plain, headerMs, this.requestMs);
    setHeaderTimeout(this.tlsHttp, headerMs, this.requestMs);
    splitByFirstByte(socket, headerMs, (s, isTls, first) => {
      if (isTls && opts.listenTypes !== 'http') {
        armHandshakeDeadline(s, handshakeMs);
        this.refreshDefaultCertificate();
        secure.emit('connection', s);
      } else if (!isTls && opts.listenTypes !== 'https') {
        const h2 = opts.h2c && first.subarray(0, H2_PREFACE.length).equals(H2_PREFACE);
        if (h2) new H2Session(s, onRequest, { requestMs: this.requestMs });
        // node:http serves it all when node's parser failed its self-test (llhttp.ts).
        else if (llhttpProblem) plain.emit('connection', s);
        else this.direct.take(s, (rest) => plain.emit('connection', rest));
      } else s.destroy();
    });
  }

  /** `ipv6Only`: a `::` socket that takes IPv6 clients only (else `::` is dual-stack). */
  listen(port: number, host: string, ipv6Only = false): Promise<number> {
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
      this.server.listen({ port, host: host || '::', ipv6Only });
    });
  }

  get connectionCount(): number {
    return this.sockets.size;
  }

  /** Connections open here now, and the bytes clients sent and got since this listener started (as on the wire). */
  traffic(): { connections: number; bytesIn: number; bytesOut: number } {
    let bytesIn = this.closedIn;
    let bytesOut = this.closedOut;
    for (const s of this.sockets) {
      bytesIn += s.bytesRead;
      bytesOut += s.bytesWritten;
    }
    return { connections: this.sockets.size, bytesIn, bytesOut };
  }

  /**
   * Stop listening (the port is free at once) and close the connections. The promise waits for
   * the connections handed to helper processes as well, which close them on `drop`; a helper
   * that does not answer holds it up for CLOSE_WAIT_MS at most.
   */
  close(): Promise<void> {
    this.direct.close();
    this.plain.close();
    this.tlsHttp.close();
    return new Promise((resolve) => {
      const done = setTimeout(resolve, CLOSE_WAIT_MS);
      this.server.close(() => {
        clearTimeout(done);
        resolve();
      });
      for (const s of this.sockets) s.destroy();
    });
  }
}

/**
 * A request node:http could not parse (bad framing, obs-fold, bare LF, …): 400 (431 for a head
 * too large) and close, as the direct path answers, unless an answer has started on the socket.
 */
function refuseClient(err: NodeJS.ErrnoException, socket: stream.Duplex): void {
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent && err.code !== 'ECONNRESET') {
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    socket.once('finish', () => socket.destroy());
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  } else socket.destroy();
}

function sameOptions(a: ListenerOptions, b: ListenerOptions): boolean {
  return (
    a.listenTypes === b.listenTypes &&
    a.minTlsVersion === b.minTlsVersion &&
    a.http2 === b.http2 &&
    a.h2c === b.h2c &&
    (a.defaultServerName ?? '') === (b.defaultServerName ?? '') &&
    a.requestMs === b.requestMs &&
    a.proxyProtocolFrom.join(',') === b.proxyProtocolFrom.join(',')
  );
}
