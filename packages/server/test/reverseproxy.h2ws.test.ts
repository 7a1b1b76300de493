// WebSocket over HTTP/2 (RFC 8441) through the web service: the engine announces
// SETTINGS_ENABLE_CONNECT_PROTOCOL, an extended CONNECT stream (:protocol websocket) becomes an
// HTTP/1.1 upgrade to a real `ws` back end, and WebSocket frames flow both ways on the stream.
// The client is node:http2 (h2c and TLS) with WebSocket frames made by hand (RFC 6455 §5), so
// the bytes on the stream are checked as they are. Refusals answer on the stream like an HTTP/1.1
// upgrade would (401, 404, 501, 502), and a plain CONNECT is still 405.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { freePort, type Rp, startRp } from './reverseproxy-helpers.js';

let rp: Rp;
let port: number;
let wss: WebSocketServer;
/** What the back end saw of the last upgrade request. */
let lastUpgrade: http.IncomingMessage | undefined;
/** Fires with each back-end WebSocket when it closes. */
const backendCloses: Array<() => void> = [];
let badAccept: net.Server;
let deadPort: number;
let ruleKey: string;
/** Sub rule keys by their first domain. */
const siteKeys = new Map<string, string>();

// ---- WebSocket frames (RFC 6455 §5.2): the client masks, the server does not ----

function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, 0x80 | len])
      : len < 65536
        ? Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), bigLength(len)]);
  const masked = Buffer.alloc(len);
  for (let i = 0; i < len; i++) masked[i] = payload[i] ^ mask[i & 3];
  return Buffer.concat([head, mask, masked]);
}

function bigLength(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

interface WsFrame {
  opcode: number;
  payload: Buffer;
}

/** Reads server frames off a byte stream as they complete. */
class FrameReader {
  private buf = Buffer.alloc(0);
  private readonly frames: WsFrame[] = [];
  private waiter?: () => void;

  constructor(stream: NodeJS.ReadableStream) {
    stream.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.parse();
    });
  }

  private parse(): void {
    for (;;) {
      if (this.buf.length < 2) return;
      const masked = (this.buf[1] & 0x80) !== 0;
      expect(masked, 'a server frame is never masked').toBe(false);
      let len = this.buf[1] & 0x7f;
      let at = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        len = Number(this.buf.readBigUInt64BE(2));
        at = 10;
      }
      if (this.buf.length < at + len) return;
      this.frames.push({ opcode: this.buf[0] & 0x0f, payload: Buffer.from(this.buf.subarray(at, at + len)) });
      this.buf = this.buf.subarray(at + len);
      this.waiter?.();
    }
  }

  /** The next frame, once it is in (at most 10 s). */
  async next(): Promise<WsFrame> {
    if (this.frames.length === 0) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.waiter = undefined;
          reject(new Error('no WebSocket frame within 10 s'));
        }, 10_000);
        this.waiter = () => {
          clearTimeout(timer);
          this.waiter = undefined;
          resolve();
        };
      });
    }
    return this.frames.shift() as WsFrame;
  }
}

/** Sessions the running test opened; closed after it. */
const sessions = new Set<http2.ClientHttp2Session>();
afterEach(() => {
  for (const s of sessions) s.close();
  sessions.clear();
});

/** Opens an h2 session and waits for the server's SETTINGS. */
async function connect(url: string, options: http2.SecureClientSessionOptions = {}) {
  const session = http2.connect(url, options);
  sessions.add(session);
  session.on('error', () => undefined);
  await once(session, 'remoteSettings');
  return session;
}

/** An extended CONNECT; resolves with the answer head and the stream. */
async function openTunnel(
  session: http2.ClientHttp2Session,
  authority: string,
  headers: http2.OutgoingHttpHeaders = {},
) {
  const stream = session.request({
    ':method': 'CONNECT',
    ':protocol': 'websocket',
    ':scheme': 'http',
    ':path': '/chat?room=1',
    ':authority': authority,
    'sec-websocket-version': '13',
    origin: 'http://example.test',
    ...headers,
  });
  stream.on('error', () => undefined);
  const [head] = (await once(stream, 'response')) as [http2.IncomingHttpHeaders];
  return { stream, head, status: Number(head[':status']) };
}

async function bodyOf(stream: http2.ClientHttp2Stream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(p as Buffer);
  return Buffer.concat(parts).toString();
}

beforeAll(async () => {
  rp = await startRp();
  wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    // The back end picks the first subprotocol it knows, as a chat server would.
    handleProtocols: (protocols) => (protocols.has('chat') ? 'chat' : false),
  });
  await once(wss, 'listening');
  wss.on('connection', (ws, req) => {
    lastUpgrade = req;
    ws.on('message', (m, binary) => {
      if (!binary && String(m) === 'bye') ws.close(1001, 'going away');
      else ws.send(binary ? m : `echo ${m}`, { binary });
    });
    ws.on('close', () => backendCloses.shift()?.());
  });
  // A server that answers 101 with a made-up accept: not a WebSocket server we can trust.
  badAccept = net.createServer((s) => {
    s.once('data', () =>
      s.write(
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: bm90IHRoZSByaWdodCBvbmU=\r\n\r\n',
      ),
    );
    s.on('error', () => undefined);
  });
  badAccept.listen(0, '127.0.0.1');
  await once(badAccept, 'listening');
  deadPort = await freePort();
  const wsUrl = `http://127.0.0.1:${(wss.address() as net.AddressInfo).port}`;
  await rp.addCert(['ws.test']);
  port = await freePort();
  const made = await rp.addRule({
    port,
    listenTypes: 'both',
    http2: true,
    h2c: true,
    subRules: [
      { domains: ['ws.test'], targets: [wsUrl] },
      { domains: ['nows.test'], targets: [wsUrl], websocket: false },
      { domains: ['text.test'], serviceType: 'text', text: 'just text' },
      {
        domains: ['auth.test'],
        targets: [wsUrl],
        basicAuth: { enabled: true, user: 'u', password: 'p', paths: [] },
      },
      { domains: ['dead.test'], targets: [`http://127.0.0.1:${deadPort}`] },
      { domains: ['fake.test'], targets: [`http://127.0.0.1:${(badAccept.address() as net.AddressInfo).port}`] },
    ],
  });
  ruleKey = made.key;
  for (const sub of made.rule.subRules) siteKeys.set(sub.domains[0], sub.key);
});

/** The texts of a sub rule's log, newest first. */
async function siteLog(domain: string): Promise<string[]> {
  const r = await rp.call('GET', `/api/reverseproxy/rules/${ruleKey}/logs?site=${siteKeys.get(domain)}&pageSize=100`);
  expect(r.body.ret).toBe(0);
  return r.body.logs.map((l: { text: string }) => l.text);
}

afterAll(async () => {
  await rp?.close();
  for (const c of wss?.clients ?? []) c.terminate();
  wss?.close();
  badAccept?.close();
});

describe('WebSocket over HTTP/2 (RFC 8441)', () => {
  it('announces extended CONNECT and echoes messages on the stream (h2c), small and 200 KiB', async () => {
    const session = await connect(`http://127.0.0.1:${port}`);
    expect(session.remoteSettings.enableConnectProtocol).toBe(true);
    const { stream, head, status } = await openTunnel(session, 'ws.test', {
      'sec-websocket-protocol': 'chat, superchat',
    });
    expect(status).toBe(200);
    expect(head['sec-websocket-protocol']).toBe('chat');
    // The accept belongs to the proxy's own handshake with the back end, not to this stream.
    expect(head['sec-websocket-accept']).toBeUndefined();
    // The back end got an HTTP/1.1 upgrade with the client's path, origin and the forwarded headers.
    expect(lastUpgrade?.url).toBe('/chat?room=1');
    expect(lastUpgrade?.headers.origin).toBe('http://example.test');
    expect(lastUpgrade?.headers['x-forwarded-proto']).toBe('http');
    expect(lastUpgrade?.headers['sec-websocket-key']).toMatch(/^[A-Za-z0-9+/]{22}==$/);

    const reader = new FrameReader(stream);
    stream.write(clientFrame(0x1, Buffer.from('hello')));
    expect(await reader.next()).toEqual({ opcode: 0x1, payload: Buffer.from('echo hello') });
    // Larger than the stream's windows both ways: flow control must open them as it goes.
    const big = randomBytes(200 * 1024);
    stream.write(clientFrame(0x2, big));
    const back = await reader.next();
    expect(back.opcode).toBe(0x2);
    expect(createHash('sha256').update(back.payload).digest('hex')).toBe(
      createHash('sha256').update(big).digest('hex'),
    );

    // Closing handshake: our Close, the back end's Close, then the stream ends cleanly.
    const closed = new Promise<void>((r) => backendCloses.push(r));
    const streamClosed = once(stream, 'close');
    stream.write(clientFrame(0x8, Buffer.from([0x03, 0xe8])));
    const close = await reader.next();
    expect(close.opcode).toBe(0x8);
    expect(close.payload.readUInt16BE(0)).toBe(1000);
    stream.end();
    await closed;
    await streamClosed;
    expect(stream.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);

    // The connection carries on with ordinary requests.
    const get = session.request({ ':path': '/', ':authority': 'text.test' });
    expect(await bodyOf(get)).toBe('just text');
  });

  it('passes a close the back end starts: its Close frame, then END_STREAM, while our side may still answer', async () => {
    const session = await connect(`http://127.0.0.1:${port}`);
    const { stream, status } = await openTunnel(session, 'ws.test');
    expect(status).toBe(200);
    const reader = new FrameReader(stream);
    const ended = once(stream, 'end');
    const closed = new Promise<void>((r) => backendCloses.push(r));
    stream.write(clientFrame(0x1, Buffer.from('bye')));
    const close = await reader.next();
    expect(close.opcode).toBe(0x8);
    expect(close.payload.readUInt16BE(0)).toBe(1001);
    expect(close.payload.subarray(2).toString()).toBe('going away');
    // Our Close answers theirs on the still-open stream; the back end then ends its side.
    stream.write(clientFrame(0x8, close.payload.subarray(0, 2)));
    await closed;
    await ended;
    expect(stream.destroyed && stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR).toBe(false);
    const streamClosed = once(stream, 'close');
    stream.end();
    await streamClosed;
    expect(stream.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);
  });

  it('works over TLS (h2 by ALPN) as browsers use it', async () => {
    const session = await connect(`https://127.0.0.1:${port}`, { servername: 'ws.test', rejectUnauthorized: false });
    expect(session.alpnProtocol).toBe('h2');
    const { stream, status } = await openTunnel(session, 'ws.test', { ':scheme': 'https' });
    expect(status).toBe(200);
    expect(lastUpgrade?.headers['x-forwarded-proto']).toBe('https');
    const reader = new FrameReader(stream);
    stream.write(clientFrame(0x1, Buffer.from('over tls')));
    expect((await reader.next()).payload.toString()).toBe('echo over tls');
    stream.close(http2.constants.NGHTTP2_CANCEL);
  });

  it('closes the back end connection when the client resets its stream', async () => {
    const session = await connect(`http://127.0.0.1:${port}`);
    const { stream, status } = await openTunnel(session, 'ws.test');
    expect(status).toBe(200);
    const reader = new FrameReader(stream);
    stream.write(clientFrame(0x1, Buffer.from('x')));
    await reader.next();
    const closed = new Promise<void>((r) => backendCloses.push(r));
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await closed;
    // Other streams on the connection are not disturbed.
    expect(await bodyOf(session.request({ ':path': '/', ':authority': 'text.test' }))).toBe('just text');
  });

  it('refuses like an HTTP/1.1 upgrade: 401 without credentials, 404 where websockets are off or no proxy', async () => {
    const session = await connect(`http://127.0.0.1:${port}`);
    const auth = await openTunnel(session, 'auth.test');
    expect(auth.status).toBe(401);
    expect(auth.head['www-authenticate']).toMatch(/^Basic /);
    const ok = await openTunnel(session, 'auth.test', {
      authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
    });
    expect(ok.status).toBe(200);
    ok.stream.close(http2.constants.NGHTTP2_CANCEL);
    expect((await openTunnel(session, 'nows.test')).status).toBe(404);
    expect((await openTunnel(session, 'text.test')).status).toBe(404);
  });

  it('answers 502 for a back end that is down or does not complete the WebSocket handshake', async () => {
    const session = await connect(`http://127.0.0.1:${port}`);
    const dead = await openTunnel(session, 'dead.test');
    expect(dead.status).toBe(502);
    const fake = await openTunnel(session, 'fake.test');
    expect(fake.status).toBe(502);
    expect(await bodyOf(fake.stream)).toContain('502 Bad Gateway');
    // The rule's log says why, for the operator.
    expect((await siteLog('fake.test')).some((t) => t.includes('without the right Sec-WebSocket-Accept'))).toBe(true);
    expect((await siteLog('dead.test')).some((t) => t.includes('ECONNREFUSED'))).toBe(true);
  });

  it('answers 501 to another :protocol and 405 to a plain CONNECT', async () => {
    const session = await connect(`http://127.0.0.1:${port}`);
    expect((await openTunnel(session, 'ws.test', { ':protocol': 'connect-udp' })).status).toBe(501);
    const plain = session.request({ ':method': 'CONNECT', ':authority': 'ws.test:443' });
    plain.on('error', () => undefined);
    const [head] = (await once(plain, 'response')) as [http2.IncomingHttpHeaders];
    expect(head[':status']).toBe(405);
  });
});
