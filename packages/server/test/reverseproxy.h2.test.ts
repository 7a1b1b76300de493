// The web service's own HTTP/2 engine (src/core/serve/h2/) on the wire, against RFC 9113.
// Raw h2c over a net socket with frames and HPACK built by hand: the server preface, SETTINGS and
// PING, connection errors (bad preface, oversized frame, even stream id, interrupted header block,
// endless CONTINUATION, WINDOW_UPDATE of 0 or beyond 2^31-1), malformed requests reset on their
// stream while the connection carries on, the 431 header-list limit, flow control both ways, the
// concurrent-stream and rapid-reset limits, a client reset reaching the back end and a client
// GOAWAY. Then real clients through the proxy: node:http2 (h2c and TLS), curl and nghttp.
import { execFile } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { b64, makeCert } from './certs-helpers.js';
import {
  ACK,
  authorityField,
  block,
  CANCEL,
  CONTINUATION,
  closeClients,
  DATA,
  dataFrame,
  END_HEADERS,
  END_STREAM,
  ENHANCE_YOUR_CALM,
  FLOW_CONTROL_ERROR,
  FRAME_SIZE_ERROR,
  field,
  frame,
  GOAWAY,
  getBlock,
  H2Client,
  HEADERS,
  headersFrame,
  literal,
  M_GET,
  MAX_FRAME,
  NO_ERROR,
  PING,
  PROTOCOL_ERROR,
  pathField,
  pattern,
  pingFrame,
  postBlock,
  REFUSED_STREAM,
  RST_STREAM,
  rstFrame,
  SCHEME_HTTP,
  SETTINGS,
  SETTINGS_ENABLE_CONNECT_PROTOCOL,
  SETTINGS_INITIAL_WINDOW_SIZE,
  SETTINGS_MAX_CONCURRENT_STREAMS,
  settingsFrame,
  sha,
  splitBlock,
  WINDOW_UPDATE,
  windowUpdate,
  words,
} from './h2-wire.js';
import { type Backend, backend, curl, freePort, type Rp, startRp } from './reverseproxy-helpers.js';

const run = promisify(execFile);

// ---- the server under test ----

let rp: Rp;
let be: Backend;
let port: number;
/** The back end's news: 'hold' (a /hold request came), 'hold-closed', 'gate' (a /gate request came). */
const events = new EventEmitter();
const BIG_TEXT = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN'.repeat(1000); // 50 000 bytes
/** What the back end answers on /bytes. */
const BACKEND_BYTES = pattern(200 * 1024);
const waitEvent = (name: string) => once(events, name, { signal: AbortSignal.timeout(5000) });

beforeAll(async () => {
  rp = await startRp();
  be = await backend('be', (req, res) => {
    const url = req.url ?? '/';
    if (url === '/hold') {
      // Never answers; tells when the proxy drops the request.
      res.on('close', () => events.emit('hold-closed', !res.writableFinished));
      events.emit('hold');
      return;
    }
    if (url === '/gate') {
      events.once('open-gate', () => res.end('gated'));
      events.emit('gate');
      return;
    }
    if (url === '/bytes') {
      res.end(BACKEND_BYTES);
      return;
    }
    if (url === '/cookies') {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.end('cookies');
      return;
    }
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      if (url === '/sum') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, bytes: body.length, sha: sha(body) }));
      } else res.end(body);
    });
  });
  const cert = await makeCert(['proxy.test', 'text.test']);
  const r = await rp.call('POST', '/api/ssl', { CertBase64: b64(cert.cert), KeyBase64: b64(cert.key) });
  expect(r.body.ret).toBe(0);
  port = await freePort();
  await rp.addRule({
    port,
    listenTypes: 'both',
    http2: true,
    h2c: true,
    subRules: [
      { domains: ['text.test'], serviceType: 'text', text: 'hello h2' },
      { domains: ['big.test'], serviceType: 'text', text: BIG_TEXT },
      {
        domains: ['proxy.test'],
        targets: [be.url],
        responseHeaders: [{ name: 'X-Rule-Header', value: 'from-the-rule' }],
      },
    ],
  });
});

afterEach(() => closeClients());

afterAll(async () => {
  await rp.close();
  await be.close();
});

/** Open a connection and expect the server to end it with GOAWAY(code) after `frames`. */
async function expectConnectionError(code: number, ...frames: Buffer[]): Promise<H2Client> {
  const c = await H2Client.open(port);
  c.send(...frames);
  expect((await c.goaway()).code, c.describe()).toBe(code);
  await c.whenClosed();
  return c;
}

describe('HTTP/2 engine on the wire (h2c, raw frames)', () => {
  it('starts with its SETTINGS (MAX_CONCURRENT_STREAMS 100, ENABLE_CONNECT_PROTOCOL), acknowledges ours, answers PING', async () => {
    const c = await H2Client.open(port, { settings: [[SETTINGS_INITIAL_WINDOW_SIZE, 65_535]] });
    const first = c.frames[0];
    expect(first.type).toBe(SETTINGS);
    expect(first.flags & ACK).toBe(0);
    expect(first.id).toBe(0);
    const settings = new Map<number, number>();
    for (let at = 0; at < first.payload.length; at += 6)
      settings.set(first.payload.readUInt16BE(at), first.payload.readUInt32BE(at + 2));
    expect(settings.get(SETTINGS_MAX_CONCURRENT_STREAMS)).toBe(100);
    expect(settings.get(SETTINGS_ENABLE_CONNECT_PROTOCOL)).toBe(1); // RFC 8441: WebSocket over HTTP/2
    const ack = await c.frame((f) => f.type === SETTINGS && (f.flags & ACK) !== 0, 'SETTINGS ACK');
    expect(ack.payload.length).toBe(0);
    const opaque = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
    c.send(pingFrame(opaque));
    const pong = await c.frame((f) => f.type === PING && (f.flags & ACK) !== 0, 'PING ACK');
    expect(pong.id).toBe(0);
    expect(pong.payload).toEqual(opaque);
  });

  it('answers a GET with HEADERS :status 200 and DATA ending the stream', async () => {
    const c = await H2Client.open(port);
    c.send(headersFrame(1, getBlock('text.test')));
    const a = await c.answer(1);
    expect(a.reset).toBeUndefined();
    expect(a.status).toBe(200);
    expect(field(a, 'content-type')).toEqual(['text/plain; charset=utf-8']);
    expect(a.body.toString()).toBe('hello h2');
    const last = c.frames.filter((f) => f.id === 1).at(-1);
    expect(last?.type).toBe(DATA);
    expect((last?.flags ?? 0) & END_STREAM).toBe(END_STREAM);
  });

  it('answers two requests whose frames interleave on streams 1 and 3', async () => {
    const c = await H2Client.open(port);
    c.send(
      headersFrame(1, postBlock('proxy.test', '/echo'), END_HEADERS),
      headersFrame(3, postBlock('proxy.test', '/echo'), END_HEADERS),
      dataFrame(3, 'body of three', true),
      dataFrame(1, 'body of one', true),
    );
    const [one, three] = await Promise.all([c.answer(1), c.answer(3)]);
    expect(one.status).toBe(200);
    expect(one.body.toString()).toBe('body of one');
    expect(three.status).toBe(200);
    expect(three.body.toString()).toBe('body of three');
  });

  it('ends the connection with GOAWAY PROTOCOL_ERROR on a bad preface', async () => {
    const c = await H2Client.open(port, { raw: true });
    // Starts like the preface (so the listener hands it to the HTTP/2 engine), then differs.
    c.send(Buffer.from('PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n', 'latin1'), settingsFrame([]));
    expect((await c.goaway()).code).toBe(PROTOCOL_ERROR);
    await c.whenClosed();
  });

  it('ends the connection with GOAWAY FRAME_SIZE_ERROR on a frame above 16384 bytes', async () => {
    const base = getBlock('text.test');
    // A well-formed header block made one byte too large by a padding field.
    const big = block(base, literal('x-pad', 'a'.repeat(MAX_FRAME + 1 - base.length - 10)));
    expect(big.length).toBe(MAX_FRAME + 1);
    await expectConnectionError(FRAME_SIZE_ERROR, headersFrame(1, big));
  });

  it('ends the connection with GOAWAY PROTOCOL_ERROR on HEADERS with an even stream id', async () => {
    await expectConnectionError(PROTOCOL_ERROR, headersFrame(2, getBlock('text.test')));
  });

  const interruptions: Array<[string, Buffer]> = [
    ['a PING', pingFrame(Buffer.alloc(8))],
    ['a CONTINUATION on another stream', frame(CONTINUATION, END_HEADERS, 3, getBlock('text.test'))],
  ];
  it.each(interruptions)(
    'ends the connection with GOAWAY PROTOCOL_ERROR when %s interrupts a header block',
    async (_n, f) => {
      const b = getBlock('text.test');
      await expectConnectionError(PROTOCOL_ERROR, headersFrame(1, b.subarray(0, 5), END_STREAM), f);
    },
  );

  it('answers a header block sent as HEADERS + CONTINUATION frames', async () => {
    const c = await H2Client.open(port);
    const b = getBlock('text.test', '/', literal('x-one', 'first'), literal('x-two', 'second'));
    const frames = splitBlock(1, b, 8);
    expect(frames.length).toBeGreaterThan(2);
    c.send(...frames);
    const a = await c.answer(1);
    expect(a.status).toBe(200);
    expect(a.body.toString()).toBe('hello h2');
  });

  it('ends the connection with GOAWAY ENHANCE_YOUR_CALM on endless CONTINUATION (header block > 256 KiB)', async () => {
    const b = getBlock('text.test', '/', literal('x-flood', 'f'.repeat(300_000)));
    const frames = splitBlock(1, b, MAX_FRAME);
    // The last frame (with END_HEADERS) is not sent: the block never ends.
    await expectConnectionError(ENHANCE_YOUR_CALM, ...frames.slice(0, -1));
  });

  const malformed: Array<[string, (id: number) => Buffer[]]> = [
    ['an upper-case field name', (id) => [headersFrame(id, getBlock('text.test', '/', literal('X-Upper', 'a')))]],
    [
      'a connection: keep-alive field',
      (id) => [headersFrame(id, getBlock('text.test', '/', literal('connection', 'keep-alive')))],
    ],
    ['no :path', (id) => [headersFrame(id, block(M_GET, SCHEME_HTTP, authorityField('text.test')))]],
    // :path and :authority become the back end's request line and Host: nothing that could split them.
    ['a space in :path', (id) => [headersFrame(id, getBlock('text.test', '/a b'))]],
    ['a CR LF in :path', (id) => [headersFrame(id, getBlock('text.test', '/a\r\nx-injected: 1'))]],
    ['a :path not starting with /', (id) => [headersFrame(id, getBlock('text.test', 'http://evil.test/'))]],
    ['a space in :authority', (id) => [headersFrame(id, getBlock('text.test evil', '/'))]],
    [
      'a host field naming another site',
      (id) => [headersFrame(id, getBlock('text.test', '/', literal('host', 'big.test')))],
    ],
    // RFC 8441 §4: :protocol only with CONNECT, and an extended CONNECT has :scheme and :path.
    [':protocol on a GET', (id) => [headersFrame(id, getBlock('text.test', '/', literal(':protocol', 'websocket')))]],
    [
      'an extended CONNECT without :path',
      (id) => [
        headersFrame(
          id,
          block(
            literal(':method', 'CONNECT'),
            literal(':protocol', 'websocket'),
            SCHEME_HTTP,
            authorityField('text.test'),
          ),
          END_HEADERS,
        ),
      ],
    ],
    [
      'a pseudo-header after a regular field',
      (id) => [
        headersFrame(id, block(M_GET, SCHEME_HTTP, authorityField('text.test'), literal('x-a', 'b'), pathField('/'))),
      ],
    ],
    [
      'content-length 5 with a 3-byte body',
      (id) => [
        headersFrame(id, postBlock('proxy.test', '/sum', literal('content-length', '5')), END_HEADERS),
        dataFrame(id, 'abc', true),
      ],
    ],
  ];
  it.each(malformed)('resets a request with %s (PROTOCOL_ERROR); the connection carries on', async (_name, frames) => {
    const c = await H2Client.open(port);
    c.send(...frames(1));
    const bad = await c.answer(1);
    expect(bad.reset, c.describe()).toBe(PROTOCOL_ERROR);
    expect(c.frames.some((f) => f.type === HEADERS && f.id === 1)).toBe(false);
    c.send(headersFrame(3, getBlock('text.test')));
    const good = await c.answer(3);
    expect(good.status).toBe(200);
    expect(good.body.toString()).toBe('hello h2');
    expect(c.frames.some((f) => f.type === GOAWAY)).toBe(false);
  });

  it('answers 431 to a header list above 64 KiB (sent over CONTINUATION); the connection stays usable', async () => {
    const c = await H2Client.open(port);
    c.send(...splitBlock(1, getBlock('text.test', '/', literal('x-big', 'v'.repeat(70_000))), MAX_FRAME));
    const big = await c.answer(1);
    expect(big.reset).toBeUndefined();
    expect(big.status).toBe(431);
    c.send(headersFrame(3, getBlock('text.test')));
    const next = await c.answer(3);
    expect(next.status).toBe(200);
    expect(next.body.toString()).toBe('hello h2');
  });

  it('ends the connection with GOAWAY PROTOCOL_ERROR on a connection WINDOW_UPDATE of 0', async () => {
    await expectConnectionError(PROTOCOL_ERROR, windowUpdate(0, 0));
  });

  it('ends the connection with GOAWAY FLOW_CONTROL_ERROR on a connection window beyond 2^31-1', async () => {
    await expectConnectionError(FLOW_CONTROL_ERROR, windowUpdate(0, 0x7fffffff));
  });

  const windowed: Array<[string, Buffer, Buffer]> = [
    ['a text service', getBlock('big.test'), Buffer.from(BIG_TEXT)],
    ['a proxied back end (200 KiB, beyond the connection window)', getBlock('proxy.test', '/bytes'), BACKEND_BYTES],
  ];
  it.each(windowed)(
    'sends %s no faster than the stream window: 100 bytes, the rest after WINDOW_UPDATE',
    async (_n, request, expected) => {
      const c = await H2Client.open(port, { settings: [[SETTINGS_INITIAL_WINDOW_SIZE, 100]] });
      c.send(headersFrame(1, request));
      await c.wait(() => (c.dataBytes(1) >= 100 ? true : undefined), '100 bytes of DATA');
      // Whatever the server would send on its own (with the window it has) is in once our PING is answered.
      await c.roundTrip();
      expect(c.dataBytes(1)).toBe(100);
      expect(c.frames.some((f) => f.id === 1 && f.flags & END_STREAM)).toBe(false);
      expect(c.frames.find((f) => f.type === HEADERS && f.id === 1)?.fields).toContainEqual([':status', '200']);
      c.send(windowUpdate(1, expected.length - 100), windowUpdate(0, expected.length));
      const a = await c.answer(1);
      expect(a.reset).toBeUndefined();
      expect(a.body.length).toBe(expected.length);
      expect(a.body.equals(expected)).toBe(true);
      for (const f of c.frames.filter((x) => x.type === DATA)) expect(f.payload.length).toBeLessThanOrEqual(MAX_FRAME);
    },
  );

  it('refuses the 101st concurrent stream with RST_STREAM REFUSED_STREAM', async () => {
    // A window of 0: every answer stalls after its HEADERS, so all streams stay open.
    const c = await H2Client.open(port, { settings: [[SETTINGS_INITIAL_WINDOW_SIZE, 0]] });
    const frames: Buffer[] = [];
    for (let i = 0; i < 101; i++) frames.push(headersFrame(1 + 2 * i, getBlock('text.test')));
    c.send(...frames);
    const refused = await c.frame((f) => f.type === RST_STREAM && f.id === 201, 'RST_STREAM on stream 201');
    expect(refused.payload.readUInt32BE(0)).toBe(REFUSED_STREAM);
    await c.roundTrip();
    expect(c.frames.filter((f) => f.type === RST_STREAM).map((f) => f.id)).toEqual([201]);
    expect(c.frames.filter((f) => f.type === HEADERS).length).toBe(100);
    expect(c.frames.some((f) => f.type === GOAWAY)).toBe(false);
  });

  it('ends the connection with GOAWAY ENHANCE_YOUR_CALM on rapid reset (> 500 streams reset at once)', async () => {
    const frames: Buffer[] = [];
    // 1200: even if the resets straddle a second boundary, one second sees more than 500.
    for (let i = 0; i < 1200; i++) {
      const id = 1 + 2 * i;
      frames.push(headersFrame(id, getBlock('text.test')), rstFrame(id, CANCEL));
    }
    await expectConnectionError(ENHANCE_YOUR_CALM, ...frames);
  });

  it('drops the back-end request when the client resets its stream', async () => {
    const c = await H2Client.open(port);
    const arrived = waitEvent('hold');
    c.send(headersFrame(1, getBlock('proxy.test', '/hold')));
    await arrived;
    const closed = waitEvent('hold-closed');
    c.send(rstFrame(1, CANCEL));
    const [aborted] = await closed;
    expect(aborted).toBe(true);
    // The connection carries on.
    c.send(headersFrame(3, getBlock('text.test')));
    expect((await c.answer(3)).status).toBe(200);
  });

  it('carries an upload above 256 KiB byte-exact to the back end, opening the windows as it goes', async () => {
    const body = pattern(1536 * 1024 + 7);
    const c = await H2Client.open(port);
    c.send(
      headersFrame(1, postBlock('proxy.test', '/sum', literal('content-length', String(body.length))), END_HEADERS),
    );
    await c.upload(1, body);
    const a = await c.answer(1);
    expect(a.reset).toBeUndefined();
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body.toString())).toEqual({ method: 'POST', bytes: body.length, sha: sha(body) });
    expect(c.frames.some((f) => f.type === WINDOW_UPDATE && f.id === 1)).toBe(true);
  });

  it('ends the answer to an open stream after a client GOAWAY, then closes the connection', async () => {
    const c = await H2Client.open(port);
    const arrived = waitEvent('gate');
    c.send(headersFrame(1, getBlock('proxy.test', '/gate')));
    await arrived;
    c.send(frame(GOAWAY, 0, 0, words(0, NO_ERROR)));
    await c.roundTrip();
    expect(c.closed).toBe(false);
    // The server need not answer with a GOAWAY of its own; if it does, stream 1 is among those it processes.
    const theirs = c.frames.find((f) => f.type === GOAWAY);
    if (theirs) expect([theirs.payload.readUInt32BE(0), theirs.payload.readUInt32BE(4)]).toEqual([1, NO_ERROR]);
    events.emit('open-gate');
    const a = await c.answer(1);
    expect(a.reset).toBeUndefined();
    expect(a.status).toBe(200);
    expect(a.body.toString()).toBe('gated');
    await c.whenClosed();
  });
});

describe('HTTP/2 engine with real clients', () => {
  /** One request through node:http2; answers status, headers and body. */
  function request(
    session: http2.ClientHttp2Session,
    headers: http2.OutgoingHttpHeaders,
    body?: Buffer,
  ): Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = session.request(headers);
      const parts: Buffer[] = [];
      let head: http2.IncomingHttpHeaders = {};
      req.on('response', (h) => {
        head = h;
      });
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(parts) }));
      req.on('error', reject);
      // A stalled stream fails here with a message, before the test's own timeout.
      req.setTimeout(10_000, () => {
        reject(new Error('no answer within 10 s'));
        req.close(http2.constants.NGHTTP2_CANCEL);
      });
      req.end(body);
    });
  }

  it('takes an upload above 256 KiB from node:http2 (h2c) and curl (prior knowledge), byte-exact', async () => {
    const body = pattern(700 * 1024 + 3);
    const expected = { method: 'POST', bytes: body.length, sha: sha(body) };
    const session = http2.connect(`http://127.0.0.1:${port}`);
    try {
      const r = await request(session, { ':method': 'POST', ':path': '/sum', ':authority': 'proxy.test' }, body);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body.toString())).toEqual(expected);
    } finally {
      session.close();
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-h2-'));
    try {
      const file = path.join(dir, 'up.bin');
      await writeFile(file, body);
      const r = await curl([
        '--http2-prior-knowledge',
        '-H',
        'Host: proxy.test',
        '--data-binary',
        `@${file}`,
        `http://127.0.0.1:${port}/sum`,
      ]);
      expect(r.headers).toMatch(/^HTTP\/2 200/);
      expect(JSON.parse(r.body)).toEqual(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers nghttp over h2c', async () => {
    const { stdout } = await run('nghttp', ['-nv', '-H', ':authority: text.test', `http://127.0.0.1:${port}/`], {
      timeout: 10_000,
    });
    // nghttp opens its request on stream 13 (1-11 carry its PRIORITY tree).
    expect(stdout).toMatch(/recv \(stream_id=\d+\) :status: 200/);
    expect(stdout).toMatch(/recv DATA frame <length=8, flags=0x01, stream_id=\d+>/);
  });

  it('answers node:http2 over TLS with the rule header and both set-cookie values of the back end', async () => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { servername: 'proxy.test', rejectUnauthorized: false });
    try {
      const r = await request(session, { ':path': '/cookies', ':authority': 'proxy.test' });
      expect(r.status).toBe(200);
      expect(r.headers['x-rule-header']).toBe('from-the-rule');
      expect(r.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      expect(r.body.toString()).toBe('cookies');
    } finally {
      session.close();
    }
  });
});
