// SOCKS5 (RFC 1928) with user/password auth (RFC 1929) as an undici `connect` function.
// Hand-written instead of undici's own Socks5ProxyAgent: that one is marked experimental in
// 7.x (it prints a process warning and its API may change), and ~100 lines over node:net keep
// TLS verification, time-outs and the target-name handling (remote DNS) in our hands.
import net from 'node:net';
import tls from 'node:tls';
import type { buildConnector } from 'undici';

export interface Socks5Options {
  host: string;
  port: number;
  user?: string;
  password?: string;
  /** TLS settings for https targets tunnelled through the proxy. */
  tls: tls.ConnectionOptions;
  timeoutMs: number;
}

const REPLIES: Record<number, string> = {
  1: 'general failure',
  2: 'connection not allowed by ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
};

/** Reads exact byte counts from a socket that is still in the handshake. */
class Reader {
  private buf = Buffer.alloc(0);
  private want = 0;
  private resolve?: (b: Buffer) => void;
  private reject?: (e: Error) => void;

  constructor(private readonly socket: net.Socket) {
    socket.on('data', this.onData);
    socket.once('error', (e) => this.fail(e));
    socket.once('close', () => this.fail(new Error('SOCKS5 proxy closed the connection')));
  }

  private onData = (chunk: Buffer) => {
    this.buf = Buffer.concat([this.buf, chunk]);
    this.flush();
  };

  private flush() {
    if (this.resolve && this.buf.length >= this.want) {
      const out = this.buf.subarray(0, this.want);
      this.buf = this.buf.subarray(this.want);
      const r = this.resolve;
      this.resolve = undefined;
      this.reject = undefined;
      r(out);
    }
  }

  private fail(e: Error) {
    const r = this.reject;
    this.resolve = undefined;
    this.reject = undefined;
    r?.(e);
  }

  read(n: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.want = n;
      this.resolve = resolve;
      this.reject = reject;
      this.flush();
    });
  }

  /** Stop listening; bytes already read past the handshake would belong to the tunnel. */
  detach(): Buffer {
    this.socket.off('data', this.onData);
    this.socket.removeAllListeners('error');
    this.socket.removeAllListeners('close');
    return this.buf;
  }
}

function targetAddress(host: string): Buffer {
  const h = host.startsWith('[') ? host.slice(1, -1) : host;
  if (net.isIPv4(h)) return Buffer.from([1, ...h.split('.').map(Number)]);
  if (net.isIPv6(h)) {
    const out = Buffer.alloc(17);
    out[0] = 4;
    // Expand "::" and write the eight groups.
    const [left, right = ''] = h.includes('::') ? h.split('::') : [h, undefined];
    const l = left ? left.split(':') : [];
    const r = right ? right.split(':') : [];
    const groups = h.includes('::') ? [...l, ...Array(8 - l.length - r.length).fill('0'), ...r] : l;
    for (let i = 0; i < 8; i++) out.writeUInt16BE(Number.parseInt(groups[i] ?? '0', 16), 1 + i * 2);
    return out;
  }
  // A name: the proxy resolves it (no DNS leak on our side).
  const name = Buffer.from(h);
  if (name.length > 255) throw new Error('host name too long for SOCKS5');
  return Buffer.concat([Buffer.from([3, name.length]), name]);
}

/** Opens a TCP connection to `host:port` through the proxy; resolves with the tunnel socket. */
export async function socks5Connect(o: Socks5Options, host: string, port: number): Promise<net.Socket> {
  const socket = net.connect({ host: o.host, port: o.port });
  socket.setTimeout(o.timeoutMs, () => socket.destroy(new Error('SOCKS5 proxy timed out')));
  const reader = new Reader(socket);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const withAuth = Boolean(o.user);
    socket.write(Buffer.from(withAuth ? [5, 2, 0, 2] : [5, 1, 0]));
    const [ver, method] = await reader.read(2);
    if (ver !== 5) throw new Error('not a SOCKS5 proxy');
    if (method === 2) {
      const u = Buffer.from(o.user ?? '');
      const p = Buffer.from(o.password ?? '');
      socket.write(Buffer.concat([Buffer.from([1, u.length]), u, Buffer.from([p.length]), p]));
      const [, status] = await reader.read(2);
      if (status !== 0) throw new Error('SOCKS5 proxy refused the user name or password');
    } else if (method !== 0) {
      throw new Error(withAuth ? 'SOCKS5 proxy accepts no offered authentication' : 'SOCKS5 proxy wants a password');
    }
    const portBuf = Buffer.alloc(2);
    portBuf.writeUInt16BE(port);
    socket.write(Buffer.concat([Buffer.from([5, 1, 0]), targetAddress(host), portBuf]));
    const [, rep, , atyp] = await reader.read(4);
    if (rep !== 0) throw new Error(`SOCKS5 proxy: ${REPLIES[rep] ?? `reply ${rep}`}`);
    const addrLen = atyp === 1 ? 4 : atyp === 4 ? 16 : (await reader.read(1))[0];
    await reader.read(addrLen + 2);
    const rest = reader.detach();
    socket.setTimeout(0);
    if (rest.length > 0) socket.unshift(rest);
    return socket;
  } catch (err) {
    reader.detach();
    socket.destroy();
    throw err;
  }
}

/** An undici `connect` function that tunnels every connection through the proxy. */
export function socks5Connector(o: Socks5Options): buildConnector.connector {
  return (opts, callback) => {
    const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
    socks5Connect(o, opts.hostname, port).then(
      (raw) => {
        if (opts.protocol !== 'https:') {
          callback(null, raw);
          return;
        }
        const name = opts.servername ?? opts.hostname;
        const secure = tls.connect({
          ...o.tls,
          socket: raw,
          // `host` is what the certificate is checked against (SNI only for names).
          host: name,
          servername: net.isIP(name) ? undefined : name,
          ALPNProtocols: ['http/1.1'],
        });
        // Answer once: a later error belongs to undici, which has its own listener by then.
        const onError = (e: Error) => callback(e, null);
        secure.once('error', onError);
        secure.once('secureConnect', () => {
          secure.off('error', onError);
          callback(null, secure);
        });
      },
      (err: Error) => callback(err, null),
    );
  };
}
