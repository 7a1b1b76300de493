// The manager's outbound client: HTTPS to another console with its API token, where the TLS
// trust is this console's own choice — the pinned certificate (its SHA-256) or CA verification.
// The pin is checked on 'secureConnect', before an HTTP byte is written: a socket whose peer shows
// another certificate is destroyed there and the token never leaves this process.
import http from 'node:http';
import net from 'node:net';
import type { Readable } from 'node:stream';
import tls from 'node:tls';
import { type CodedText, WANJI_ADMIN_LIMITS, type WanjiAdminReasonCode, wanjiAdminReason } from '@lucky/shared';

/** How to reach one console. */
export interface Peer {
  /** `https://host:port[/entrance]` (normal form). */
  url: string;
  token: string;
  tls: { mode: 'pin' | 'ca'; fingerprint: string; ca: string };
}

/** A call that failed, with its coded reason (never thrown further than the route or poller). */
export class PeerError extends Error {
  constructor(readonly reason: CodedText) {
    super(reason.text);
  }
}
const fail = (code: WanjiAdminReasonCode, params: Record<string, unknown> = {}) =>
  new PeerError(wanjiAdminReason(code, params));

export interface PeerRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Below the console's url (`/api/summary`). */
  path: string;
  /** JSON body. */
  json?: unknown;
  /** A raw body instead (multipart upload): its stream, type and length. */
  raw?: { stream: Readable; type: string; length: number };
  timeoutMs: number;
  /** Bytes of the answer read at most (default 1 MiB). */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface PeerAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function hostPort(url: string): { host: string; port: number; base: string } {
  const u = new URL(url);
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  return { host, port: u.port ? Number(u.port) : 443, base: u.pathname.replace(/\/+$/, '') };
}

/** The system error behind a failed connect / handshake → a coded reason. */
export function reasonOfError(err: unknown, host: string, port: number): PeerError {
  if (err instanceof PeerError) return err;
  const e = err as NodeJS.ErrnoException;
  const code = e?.code ?? '';
  if (code === 'ECONNREFUSED') return fail('connectRefused', { host, port });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return fail('dnsFailed', { host });
  if (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.includes('CERT') ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
    code === 'ERR_TLS_CERT_ALTNAME_INVALID'
  )
    return fail('tlsFailed', { detail: e.message });
  return fail('networkFailed', { detail: e?.message ?? String(err) });
}

/**
 * A TLS connection to the peer that is trusted by its rule (pin or CA), or a PeerError. Nothing is
 * written on it before this resolves. `signal` aborts (time-out).
 */
export function connectTrusted(peer: Peer, signal: AbortSignal): Promise<tls.TLSSocket> {
  const { host, port } = hostPort(peer.url);
  const pin = peer.tls.mode === 'pin';
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host,
      port,
      ...(net.isIP(host) ? {} : { servername: host }),
      ALPNProtocols: ['http/1.1'],
      // Pinning decides below by the fingerprint; CA mode lets node verify chain and host name.
      rejectUnauthorized: !pin,
      ...(!pin && peer.tls.ca.trim() !== '' ? { ca: peer.tls.ca } : {}),
    });
    const onAbort = () => {
      socket.destroy();
      reject(signal.reason instanceof PeerError ? signal.reason : fail('networkFailed', { detail: 'aborted' }));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(reasonOfError(err, host, port));
    });
    socket.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort);
      if (pin) {
        const seen = socket.getPeerCertificate().fingerprint256 ?? '';
        if (seen !== peer.tls.fingerprint) {
          socket.destroy();
          return reject(fail('fingerprintMismatch', { seen, expected: peer.tls.fingerprint }));
        }
      }
      resolve(socket);
    });
  });
}

/** One HTTP/1.1 call over a trusted connection; the answer read up to maxBytes. */
export async function callPeer(peer: Peer, req: PeerRequest): Promise<PeerAnswer> {
  const { host, port, base } = hostPort(peer.url);
  const ms = req.timeoutMs;
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(fail('timeout', { ms })), ms);
  const outer = req.signal;
  const onOuter = () => ctl.abort(fail('networkFailed', { detail: 'cancelled' }));
  outer?.addEventListener('abort', onOuter, { once: true });
  try {
    const socket = await connectTrusted(peer, ctl.signal);
    return await new Promise<PeerAnswer>((resolve, reject) => {
      const body = req.json === undefined ? undefined : Buffer.from(JSON.stringify(req.json));
      const headers: http.OutgoingHttpHeaders = {
        host: port === 443 ? host : `${net.isIPv6(host) ? `[${host}]` : host}:${port}`,
        authorization: peer.token,
        accept: 'application/json',
        connection: 'close',
      };
      if (body) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = body.length;
      } else if (req.raw) {
        headers['content-type'] = req.raw.type;
        headers['content-length'] = req.raw.length;
      }
      const r = http.request({
        method: req.method,
        path: base + req.path,
        headers,
        // No agent: the request goes over this socket, already trusted (an agent would dial anew).
        createConnection: () => socket,
      });
      const onAbort = () => {
        r.destroy();
        socket.destroy();
        reject(ctl.signal.reason);
      };
      if (ctl.signal.aborted) return onAbort();
      ctl.signal.addEventListener('abort', onAbort, { once: true });
      r.once('error', (err) => reject(reasonOfError(err, host, port)));
      r.once('response', (res) => {
        const max = req.maxBytes ?? WANJI_ADMIN_LIMITS.answerBytes;
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > max) {
          res.destroy();
          socket.destroy();
          return reject(fail('tooLarge', { bytes: max }));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > max) {
            res.destroy();
            socket.destroy();
            reject(fail('tooLarge', { bytes: max }));
            return;
          }
          chunks.push(c);
        });
        res.once('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.once('error', (err) => reject(reasonOfError(err, host, port)));
      });
      if (body) r.end(body);
      else if (req.raw) {
        req.raw.stream.once('error', (err) => r.destroy(err));
        req.raw.stream.pipe(r);
      } else r.end();
    });
  } catch (err) {
    throw reasonOfError(err, host, port);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}

/** The answer's JSON with `ret: 0`, or the coded reason: 401/403 tokenRejected, a refusal with its code. */
export function jsonAnswer<T>(a: PeerAnswer): T {
  let j: { ret?: unknown; code?: unknown; msg?: unknown } | undefined;
  try {
    j = JSON.parse(a.body.toString('utf8'));
  } catch {
    j = undefined;
  }
  if (a.status === 401 || a.status === 403) throw fail('tokenRejected', { status: a.status });
  if (a.status >= 200 && a.status < 300 && j && typeof j === 'object' && j.ret === 0) return j as T;
  if (j && typeof j === 'object' && typeof j.code === 'string')
    throw fail('remoteRefused', {
      status: a.status,
      remoteCode: j.code.slice(0, 64),
      ...(typeof j.msg === 'string' ? { detail: j.msg.slice(0, 300) } : {}),
    });
  if (a.status < 200 || a.status >= 300) throw fail('httpStatus', { status: a.status });
  throw fail('notLucky');
}

// ---- probe ------------------------------------------------------------------------------------

export interface ProbeResult {
  fingerprint: string;
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  altNames: string[];
  selfSigned: boolean;
  caValid: boolean;
  caError?: string;
}

const dn = (o: Record<string, unknown> | undefined) =>
  Object.entries(o ?? {})
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
    .join(', ');

/** TLS handshake only (nothing written): the peer certificate and whether CAs vouch for it for this host. */
export function probePeer(url: string, ca: string, timeoutMs: number): Promise<ProbeResult> {
  const { host, port } = hostPort(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host,
      port,
      ...(net.isIP(host) ? {} : { servername: host }),
      rejectUnauthorized: false,
      ...(ca.trim() !== '' ? { ca } : {}),
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(fail('timeout', { ms: timeoutMs }));
    }, timeoutMs);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(reasonOfError(err, host, port));
    });
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const c = socket.getPeerCertificate();
      const identity = tls.checkServerIdentity(host, c);
      const chainError = socket.authorized ? undefined : String(socket.authorizationError ?? 'not trusted');
      const altNames = (c.subjectaltname ?? '')
        .split(/,\s*/)
        .map((s) => s.replace(/^(DNS|IP Address):/, ''))
        .filter(Boolean);
      socket.destroy();
      resolve({
        fingerprint: c.fingerprint256 ?? '',
        subject: dn(c.subject as unknown as Record<string, unknown>),
        issuer: dn(c.issuer as unknown as Record<string, unknown>),
        validFrom: new Date(c.valid_from).toISOString(),
        validTo: new Date(c.valid_to).toISOString(),
        altNames,
        selfSigned:
          dn(c.subject as unknown as Record<string, unknown>) === dn(c.issuer as unknown as Record<string, unknown>),
        caValid: chainError === undefined && identity === undefined,
        ...(chainError !== undefined || identity ? { caError: chainError ?? identity?.message } : {}),
      });
    });
  });
}
