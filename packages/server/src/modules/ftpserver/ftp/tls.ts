// TLS for the control connection (AUTH TLS, RFC 4217) and for protected data connections
// (PROT P). Certificates come from the certificate store per handshake; TLS 1.2 at least. A data
// connection uses the control connection's secure context: OpenSSL keeps the session-ticket keys
// per context, so the client's data handshake resumes the control session (what lftp and curl
// offer, and what ties the data connection to the authenticated control session).
import type net from 'node:net';
import tls from 'node:tls';
import type { CertResolver } from '../../../core/certs/resolver.js';

export const TLS_MIN = 'TLSv1.2' as const;

export interface TlsSource {
  certs: Pick<CertResolver, 'contextFor'>;
  /** The configured certificate name ('' = the client's SNI, else the store's default). */
  certificate(): string;
}

/** The context for a handshake: the configured name, else the client's SNI, else the default certificate. */
export function contextFor(src: TlsSource, servername: string | undefined): tls.SecureContext | undefined {
  const name = src.certificate() || servername || undefined;
  return (
    src.certs.contextFor(name, { minVersion: TLS_MIN }) ?? src.certs.contextFor(undefined, { minVersion: TLS_MIN })
  );
}

export interface Upgraded {
  socket: tls.TLSSocket;
  context: tls.SecureContext;
}

/**
 * Runs the server side of a handshake on `raw` (paused, nothing of the handshake read yet);
 * rejects on failure or after `timeoutMs`. `context`: the one to use (a data connection), else
 * the control connection's choice by SNI.
 */
export function serverHandshake(
  raw: net.Socket,
  src: TlsSource,
  timeoutMs: number,
  context?: tls.SecureContext,
): Promise<Upgraded> {
  const first = context ?? contextFor(src, undefined);
  if (!first) return Promise.reject(new Error('no certificate'));
  let chosen = first;
  const socket = new tls.TLSSocket(raw, {
    isServer: true,
    secureContext: first,
    minVersion: TLS_MIN,
    SNICallback: context
      ? undefined
      : (servername, cb) => {
          const c = contextFor(src, servername);
          if (c) chosen = c;
          cb(null, c);
        },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no TLS handshake within ${timeoutMs} ms`)), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      raw.destroy();
      reject(err);
    };
    socket.once('error', fail);
    socket.once('secure', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve({ socket, context: chosen });
    });
  });
}
