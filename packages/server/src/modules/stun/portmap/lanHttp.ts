// A bounded HTTP/1.1 exchange with a device on the LAN (the UPnP description and SOAP calls):
// plain http only, from a chosen source address, no redirects followed, a deadline for the
// whole exchange and a cap on the answer's size. The device is untrusted.
import http from 'node:http';
import { asPortMapError, clip, PortMapError } from './errors.js';

export interface LanHttpOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  localAddress?: string;
  /** Deadline for the whole exchange, connect to last byte. */
  timeoutMs?: number;
  /** Answers larger than this fail (the description of a real IGD is a few KiB). */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface LanHttpAnswer {
  status: number;
  contentType: string;
  body: string;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_BYTES = 128 * 1024;

/** `url` must be http:; the gateway named in errors is its host. */
export function lanHttp(url: URL, opts: LanHttpOptions = {}): Promise<LanHttpAnswer> {
  const gateway = url.host;
  const meta = { method: 'upnp', gateway };
  if (url.protocol !== 'http:') return Promise.reject(new PortMapError('badGateway', { gateway: clip(url.href) }));
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  return new Promise<LanHttpAnswer>((resolve, reject) => {
    let done = false;
    const finish = (err: Error | undefined, answer?: LanHttpAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      opts.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      if (err) reject(err);
      else resolve(answer as LanHttpAnswer);
    };
    const body = opts.body === undefined ? undefined : Buffer.from(opts.body, 'utf8');
    const req = http.request(url, {
      method: opts.method ?? 'GET',
      localAddress: opts.localAddress,
      agent: false,
      headers: {
        ...opts.headers,
        connection: 'close',
        ...(body ? { 'content-length': String(body.length) } : {}),
      },
    });
    const deadline = setTimeout(
      () => finish(new PortMapError('timeout', meta)),
      opts.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS,
    );
    const onAbort = () => finish(new PortMapError('aborted', meta));
    if (opts.signal?.aborted) {
      onAbort();
      return;
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => finish(asPortMapError(err, 'upnp', gateway)));
    req.on('response', (res) => {
      const declared = Number(res.headers['content-length']);
      if (declared > maxBytes) {
        finish(new PortMapError('badAnswer', { ...meta, detail: `answer of ${declared} bytes` }));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes)
          finish(new PortMapError('badAnswer', { ...meta, detail: `answer over ${maxBytes} bytes` }));
        else chunks.push(chunk);
      });
      res.on('end', () =>
        finish(undefined, {
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', (err) => finish(asPortMapError(err, 'upnp', gateway)));
    });
    req.end(body);
  });
}
