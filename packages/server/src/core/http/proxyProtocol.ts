// The PROXY protocol (HAProxy's proxy-protocol.txt, versions 1 and 2): a proxy in front of a
// listener (frp, HAProxy, a cloud load balancer) starts each connection with a header that names
// the client it accepted. Only peers the operator lists may send it (the header is as easy to
// forge as X-Forwarded-For); from them it is required. The client address is remembered per
// socket here, and `peerAddress` gives it to whoever asks for the connection's peer, through
// a TLS layer too.
import net from 'node:net';

/** v1 is one text line of at most 107 bytes (with CR LF). */
const V1_MAX = 107;
/** v2 starts with these 12 bytes, then version/command, family, and the length of the rest. */
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
const V2_FIXED = 16;

export interface ProxyHeader {
  /** Bytes the header takes at the start of the stream. */
  length: number;
  /** The client, or undefined when the header names none (LOCAL, UNKNOWN, UNSPEC, unix sockets). */
  source?: { address: string; port: number };
}

/** Parse a header at the start of `buf`: the header, 'more' when incomplete, or an Error saying what is wrong. */
export function parseProxyHeader(buf: Buffer): ProxyHeader | 'more' | Error {
  if (buf.length === 0) return 'more';
  if (buf[0] === 0x50 /* P */) return parseV1(buf);
  if (buf[0] === 0x0d) return parseV2(buf);
  return new Error('the connection does not start with a PROXY protocol header');
}

function parseV1(buf: Buffer): ProxyHeader | 'more' | Error {
  const end = buf.indexOf('\r\n', 0, 'latin1');
  if (end < 0) return buf.length >= V1_MAX ? new Error('PROXY v1 header longer than 107 bytes') : 'more';
  if (end + 2 > V1_MAX) return new Error('PROXY v1 header longer than 107 bytes');
  const parts = buf.toString('latin1', 0, end).split(' ');
  if (parts[0] !== 'PROXY') return new Error('PROXY v1 header does not start with "PROXY "');
  const length = end + 2;
  if (parts[1] === 'UNKNOWN') return { length };
  if (parts.length !== 6 || (parts[1] !== 'TCP4' && parts[1] !== 'TCP6'))
    return new Error('PROXY v1 header is not "PROXY TCP4|TCP6 source destination sport dport"');
  const family = parts[1] === 'TCP4' ? 4 : 6;
  const [, , src, dst, sport, dport] = parts;
  if (net.isIP(src) !== family || net.isIP(dst) !== family) return new Error('PROXY v1 header has a bad address');
  if (!isPort(sport) || !isPort(dport)) return new Error('PROXY v1 header has a bad port');
  return { length, source: { address: src, port: Number(sport) } };
}

const isPort = (s: string) => /^(0|[1-9]\d{0,4})$/.test(s) && Number(s) <= 65535;

function parseV2(buf: Buffer): ProxyHeader | 'more' | Error {
  const n = Math.min(buf.length, V2_SIGNATURE.length);
  if (!buf.subarray(0, n).equals(V2_SIGNATURE.subarray(0, n)))
    return new Error('the connection does not start with a PROXY protocol header');
  if (buf.length < V2_FIXED) return 'more';
  const version = buf[12] >> 4;
  const command = buf[12] & 0x0f;
  if (version !== 2) return new Error(`PROXY v2 header with version ${version}`);
  if (command > 1) return new Error(`PROXY v2 header with command ${command}`);
  const length = V2_FIXED + buf.readUInt16BE(14);
  if (buf.length < length) return 'more';
  // LOCAL: the proxy's own connection (a health check); it names no client.
  if (command === 0) return { length };
  const family = buf[13] >> 4;
  const body = buf.subarray(V2_FIXED, length);
  if (family === 1) {
    if (body.length < 12) return new Error('PROXY v2 IPv4 addresses cut short');
    const address = `${body[0]}.${body[1]}.${body[2]}.${body[3]}`;
    return { length, source: { address, port: body.readUInt16BE(8) } };
  }
  if (family === 2) {
    if (body.length < 36) return new Error('PROXY v2 IPv6 addresses cut short');
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push(body.readUInt16BE(i).toString(16));
    // Through the URL parser for the canonical (compressed) spelling.
    const address = new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
    return { length, source: { address, port: body.readUInt16BE(32) } };
  }
  if (family === 0 || family === 3) return { length }; // UNSPEC, unix socket: no address to use
  return new Error(`PROXY v2 header with address family ${family}`);
}

/**
 * Read the header off `socket` (the connection's first bytes); the bytes after it are put back
 * for whoever reads next. `done` gets the header, or an Error (bad header, or none in `timeoutMs`).
 */
export function readProxyHeader(
  socket: net.Socket,
  timeoutMs: number,
  done: (err: Error | null, header?: ProxyHeader) => void,
): void {
  let buf: Buffer = Buffer.alloc(0);
  let finished = false;
  const finish = (err: Error | null, header?: ProxyHeader) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    socket.off('data', onData);
    socket.off('close', onClose);
    done(err, header);
  };
  const onData = (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    const r = parseProxyHeader(buf);
    if (r === 'more') return;
    if (r instanceof Error) return finish(r);
    socket.pause();
    if (buf.length > r.length) socket.unshift(buf.subarray(r.length));
    if (r.source) rememberPeer(socket, r.source.address);
    finish(null, r);
  };
  const onClose = () => finish(new Error('closed before a PROXY protocol header'));
  const timer = setTimeout(() => finish(new Error(`no PROXY protocol header within ${timeoutMs / 1000} s`)), timeoutMs);
  socket.on('data', onData);
  socket.on('close', onClose);
}

/** Client addresses from PROXY headers, per socket. */
const peers = new WeakMap<object, string>();
let anyRemembered = false;

function rememberPeer(socket: net.Socket, address: string): void {
  peers.set(socket, address);
  anyRemembered = true;
}

/**
 * The connection's peer as the handlers should see it: the client a PROXY header named, else
 * the socket's own peer. A TLS socket asks the socket under it (node keeps it as `_parent`).
 */
export function peerAddress(socket: net.Socket | undefined): string | undefined {
  if (!socket) return undefined;
  if (anyRemembered) {
    const named = peers.get(socket) ?? peers.get((socket as { _parent?: object })._parent ?? socket);
    if (named) return named;
  }
  return socket.remoteAddress;
}
