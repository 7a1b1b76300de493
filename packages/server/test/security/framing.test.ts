// Issue 12 §1: message framing through the reverse proxy. A corpus of request-smuggling attacks
// (Connection-listed framing fields, CL+TE, duplicate and comma-listed Content-Length, obs-fold,
// bare LF / CR, chunk-size overflow, Transfer-Encoding variants, HTTP/1.0, Expect) sent per
// transport — plain HTTP/1.1 (the direct path), HTTP/1.1 over TLS and HTTP/1.0 keep-alive (both
// node:http), h2c and h2 over TLS (our engine) — to a back end that parses strictly and logs every
// request it sees. For each case: the back end never sees a request the client did not send as
// one, never sees a malformed message, and a second client then gets its own answer.
// Then the answer side: back ends that send CL+TE, Connection-listed framing fields, 1xx, a body
// on HEAD / 204 / 304, bytes after the answer, an answer cut short — the client gets an answer
// framed by the proxy (or a clean failure), and the back-end connection is never used again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Rp, startRp } from '../reverseproxy-helpers.js';
import { type H2Answer, h2Request, LogBackend, rawRequest, type Transport } from './framing-helpers.js';

const HOST = 'framing.test';
/** The request an attack tries to hide in a body: if the back end ever logs it, it was smuggled. */
const SMUGGLED = `GET /smuggled HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`;
const chunked = (s: string) => `${s.length.toString(16)}\r\n${s}\r\n0\r\n\r\n`;

let rp: Rp;
let be: LogBackend;
let port: number;

beforeAll(async () => {
  rp = await startRp();
  be = await new LogBackend().start();
  await rp.addCert([HOST]);
  port = await freePort();
  await rp.addRule({
    port,
    listenTypes: 'both',
    http2: true,
    h2c: true,
    subRules: [
      { domains: [HOST], targets: [be.url] },
      {
        // Custom fields that name the framing: ignored, the proxy states it.
        domains: ['custom.test'],
        targets: [be.url],
        requestHeaders: [
          { name: 'Content-Length', value: '0' },
          { name: 'Transfer-Encoding', value: 'chunked' },
        ],
        responseHeaders: [
          { name: 'Content-Length', value: '0' },
          { name: 'Transfer-Encoding', value: 'chunked' },
          { name: 'Connection', value: 'close' },
        ],
      },
    ],
  });
});

afterAll(async () => {
  await rp?.close();
  await be?.close();
});

let victims = 0;

/** A second client, on a new plain connection: it must get the answer to its own request. */
async function expectVictimServed(): Promise<void> {
  const path = `/victim-${++victims}`;
  const a = await rawRequest(port, 'plain', HOST, `GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`);
  expect(a.status, a.head).toBe(200);
  expect(JSON.parse(a.body).path).toBe(path);
}

/** What the back end logged from `from` on, with the paths clients sent as requests. */
function expectOnlySent(from: number, allowed: string[], body?: string): void {
  const seen = be.seen.slice(from);
  expect(be.errors, 'the back end read a malformed message').toEqual([]);
  for (const r of seen) {
    expect(r.path, `back end saw ${r.method} ${r.path}`).not.toBe('/smuggled');
    expect(
      allowed.some((p) => r.path.startsWith(p)),
      `back end saw ${r.method} ${r.path}`,
    ).toBe(true);
    if (r.path === '/attack' && body !== undefined) expect([body, '']).toContain(r.body);
  }
}

// ---- the request side over HTTP/1.x ----

interface H1Case {
  name: string;
  method?: string;
  /** Header lines after Host, as written on the wire (may be malformed on purpose). */
  lines: string[];
  /** Listed in Connection (HTTP/1.0 adds keep-alive). */
  connection?: string;
  body: string;
  /** Statuses the attacker may get: refused, or served as the one request it is. */
  status: number[];
  /** For HTTP/1.0, if different. */
  status10?: number[];
  /** The back end must see this body on /attack when the request is served (not just ''). */
  forwarded?: string;
  /** The whole request written as is (lines, connection and version are ignored). */
  raw?: (version: string) => string;
}

const n = SMUGGLED.length;
const H1_CASES: H1Case[] = [
  {
    name: 'Connection lists Content-Length',
    connection: 'Content-Length',
    lines: [`Content-Length: ${n}`],
    body: SMUGGLED,
    status: [200],
    forwarded: SMUGGLED,
  },
  {
    name: 'Connection lists close and content-length (lower case)',
    connection: 'close, content-length',
    lines: [`Content-Length: ${n}`],
    body: SMUGGLED,
    status: [200],
    forwarded: SMUGGLED,
  },
  {
    name: 'Connection lists Transfer-Encoding',
    connection: 'Transfer-Encoding',
    lines: ['Transfer-Encoding: chunked'],
    body: chunked(SMUGGLED),
    status: [200],
    status10: [400],
    forwarded: SMUGGLED,
  },
  {
    name: 'Connection lists Content-Length and Transfer-Encoding',
    connection: 'Content-Length, Transfer-Encoding',
    lines: ['Transfer-Encoding: chunked'],
    body: chunked(SMUGGLED),
    status: [200],
    status10: [400],
    forwarded: SMUGGLED,
  },
  {
    name: 'Connection lists Host',
    connection: 'Host',
    lines: [`Content-Length: ${n}`],
    body: SMUGGLED,
    status: [200],
    forwarded: SMUGGLED,
  },
  {
    name: 'GET with a body, Connection lists Content-Length',
    method: 'GET',
    connection: 'Content-Length',
    lines: [`Content-Length: ${n}`],
    body: SMUGGLED,
    status: [200],
    forwarded: SMUGGLED,
  },
  {
    name: 'Expect: 100-continue, Connection lists Content-Length',
    connection: 'Content-Length',
    lines: ['Expect: 100-continue', `Content-Length: ${n}`],
    body: SMUGGLED,
    status: [200],
    forwarded: SMUGGLED,
  },
  {
    name: 'Content-Length and Transfer-Encoding',
    lines: ['Content-Length: 5', 'Transfer-Encoding: chunked'],
    body: `0\r\n\r\n${SMUGGLED}`,
    status: [400],
  },
  {
    name: 'Transfer-Encoding and Content-Length',
    lines: ['Transfer-Encoding: chunked', `Content-Length: ${n + 5}`],
    body: `0\r\n\r\n${SMUGGLED}`,
    status: [400],
  },
  {
    name: 'two Content-Length fields, different',
    lines: ['Content-Length: 0', `Content-Length: ${n}`],
    body: SMUGGLED,
    status: [400],
  },
  {
    name: 'two Content-Length fields, equal',
    lines: [`Content-Length: ${n}`, `Content-Length: ${n}`],
    body: SMUGGLED,
    status: [400],
  },
  {
    name: 'comma-listed Content-Length',
    lines: [`Content-Length: ${n}, ${n}`],
    body: SMUGGLED,
    status: [400],
  },
  { name: 'Content-Length with a sign', lines: [`Content-Length: +${n}`], body: SMUGGLED, status: [400] },
  {
    name: 'Content-Length far beyond 2^53',
    lines: ['Content-Length: 99999999999999999999999'],
    body: SMUGGLED,
    status: [400, 413],
  },
  {
    name: 'obs-fold in Transfer-Encoding',
    lines: ['Transfer-Encoding:', ' chunked', `Content-Length: ${n}`],
    body: SMUGGLED,
    status: [400],
  },
  {
    name: 'obs-fold in another field',
    lines: ['X-Folded: a', ' b', `Content-Length: ${n}`],
    body: SMUGGLED,
    status: [400],
  },
  {
    name: 'bare LF line ends',
    lines: [],
    body: SMUGGLED,
    status: [400],
    raw: (v) => `POST /attack HTTP/${v}\nHost: ${HOST}\nContent-Length: ${n}\n\n${SMUGGLED}`,
  },
  {
    name: 'bare LF before Content-Length',
    lines: ['X-A: 1\nContent-Length: 0', `X-B: ${n}`],
    body: SMUGGLED,
    status: [400],
  },
  {
    name: 'bare CR in a field',
    lines: ['X-A: 1\rContent-Length: 0', `Content-Length: ${n}`],
    body: SMUGGLED,
    status: [400],
  },
  { name: 'NUL in a field value', lines: ['X-A: 1\0', `Content-Length: ${n}`], body: SMUGGLED, status: [400] },
  {
    name: 'space before the colon',
    lines: ['Transfer-Encoding : chunked', `Content-Length: ${n}`],
    body: SMUGGLED,
    status: [400],
  },
  {
    name: 'chunk size overflow',
    lines: ['Transfer-Encoding: chunked'],
    body: `10000000000000000${n.toString(16)}\r\n${SMUGGLED}\r\n0\r\n\r\n`,
    status: [400],
    status10: [400],
  },
  {
    name: 'chunk size with a bare LF',
    lines: ['Transfer-Encoding: chunked'],
    body: `${n.toString(16)}\n${SMUGGLED}\r\n0\r\n\r\n`,
    status: [400],
  },
  {
    name: 'Transfer-Encoding: xchunked',
    lines: ['Transfer-Encoding: xchunked', `Content-Length: ${n}`],
    body: SMUGGLED,
    status: [400, 501],
  },
  {
    name: 'Transfer-Encoding: chunked, identity',
    lines: ['Transfer-Encoding: chunked, identity'],
    body: chunked(SMUGGLED),
    status: [400, 501],
  },
  {
    name: 'Transfer-Encoding: gzip, chunked',
    lines: ['Transfer-Encoding: gzip, chunked'],
    body: chunked(SMUGGLED),
    status: [400, 501],
  },
  {
    name: 'two Transfer-Encoding fields',
    lines: ['Transfer-Encoding: gzip', 'Transfer-Encoding: chunked'],
    body: chunked(SMUGGLED),
    status: [400, 501],
  },
  {
    name: 'Transfer-Encoding: CHUNKED',
    lines: ['Transfer-Encoding: CHUNKED'],
    body: chunked(SMUGGLED),
    status: [200],
    status10: [400],
    forwarded: SMUGGLED,
  },
  {
    name: 'Transfer-Encoding with a tab',
    lines: ['Transfer-Encoding:\tchunked'],
    body: chunked(SMUGGLED),
    status: [200],
    status10: [400],
    forwarded: SMUGGLED,
  },
];

const H1_TRANSPORTS: Array<{ name: string; transport: Transport; version: string }> = [
  { name: 'plain HTTP/1.1', transport: 'plain', version: '1.1' },
  { name: 'TLS HTTP/1.1', transport: 'tls', version: '1.1' },
  { name: 'HTTP/1.0 keep-alive', transport: 'plain', version: '1.0' },
];

function h1Request(c: H1Case, version: string): string {
  if (c.raw) return c.raw(version);
  const conn = [c.connection, version === '1.0' ? 'keep-alive' : undefined].filter(Boolean).join(', ');
  const lines = [`${c.method ?? 'POST'} /attack HTTP/${version}`, `Host: ${HOST}`, ...c.lines];
  if (conn) lines.push(`Connection: ${conn}`);
  return `${lines.join('\r\n')}\r\n\r\n${c.body}`;
}

describe.each(H1_TRANSPORTS)('request smuggling over $name', ({ transport, version }) => {
  it.each(H1_CASES)('$name', async (c) => {
    const from = be.seen.length;
    const a = await rawRequest(port, transport, HOST, h1Request(c, version));
    const allowed = version === '1.0' ? (c.status10 ?? c.status) : c.status;
    expect(allowed, `${a.status} ${a.head}\n\n${a.body}`).toContain(a.status);
    if (a.status === 200) {
      expect(a.complete).toBe(true);
      expect(JSON.parse(a.body).path).toBe('/attack');
      if (c.forwarded !== undefined) expect(JSON.parse(a.body).body).toBe(c.forwarded);
    }
    await expectVictimServed();
    expectOnlySent(from, ['/attack', '/victim-'], c.forwarded);
  });
});

// ---- the request side over HTTP/2 ----

interface H2Case {
  name: string;
  fields: Array<[string, string]>;
  data: string[];
  /** 200 = served (the back end then sees `forwarded` as the body); 0 = refused (reset or 4xx). */
  served: boolean;
  forwarded?: string;
}

const pseudo = (method = 'POST'): Array<[string, string]> => [
  [':method', method],
  [':scheme', 'https'],
  [':authority', HOST],
  [':path', '/attack'],
];

const H2_CASES: H2Case[] = [
  {
    name: 'content-length shorter than the DATA',
    fields: [...pseudo(), ['content-length', '5']],
    data: [SMUGGLED],
    served: false,
  },
  {
    name: 'content-length longer than the DATA',
    fields: [...pseudo(), ['content-length', String(n + 20)]],
    data: [SMUGGLED],
    served: false,
  },
  {
    name: 'content-length met, then more DATA',
    fields: [...pseudo(), ['content-length', String(n)]],
    data: [SMUGGLED, SMUGGLED],
    served: false,
  },
  {
    name: 'two content-length fields',
    fields: [...pseudo(), ['content-length', String(n)], ['content-length', String(n)]],
    data: [SMUGGLED],
    served: false,
  },
  {
    name: 'content-length with a sign',
    fields: [...pseudo(), ['content-length', `+${n}`]],
    data: [SMUGGLED],
    served: false,
  },
  {
    name: 'transfer-encoding: chunked',
    fields: [...pseudo(), ['transfer-encoding', 'chunked']],
    data: [chunked(SMUGGLED)],
    served: false,
  },
  {
    name: 'connection: content-length',
    fields: [...pseudo(), ['connection', 'content-length'], ['content-length', String(n)]],
    data: [SMUGGLED],
    served: false,
  },
  { name: 'te: chunked', fields: [...pseudo(), ['te', 'chunked']], data: [SMUGGLED], served: false },
  {
    name: 'CRLF in a field value',
    fields: [...pseudo(), ['x-a', `1\r\nContent-Length: 0\r\n\r\n${SMUGGLED}`]],
    data: [],
    served: false,
  },
  {
    name: 'CRLF in a field name',
    fields: [...pseudo(), [`x-a: 1\r\ncontent-length: 0\r\n\r\n${SMUGGLED}x`, '1']],
    data: [],
    served: false,
  },
  {
    name: 'upper-case field name',
    fields: [...pseudo(), ['Content-Length', String(n)]],
    data: [SMUGGLED],
    served: false,
  },
  {
    name: 'CRLF in :path',
    fields: [
      [':method', 'GET'],
      [':scheme', 'https'],
      [':authority', HOST],
      [':path', `/attack HTTP/1.1\r\nHost: ${HOST}\r\n\r\n${SMUGGLED}`],
    ],
    data: [],
    served: false,
  },
  {
    name: 'POST without content-length (the proxy frames it)',
    fields: pseudo(),
    data: [SMUGGLED.slice(0, 10), SMUGGLED.slice(10)],
    served: true,
    forwarded: SMUGGLED,
  },
  {
    name: 'content-length that matches',
    fields: [...pseudo(), ['content-length', String(n)]],
    data: [SMUGGLED],
    served: true,
    forwarded: SMUGGLED,
  },
];

describe.each([
  { name: 'h2c', secure: false },
  { name: 'h2 over TLS', secure: true },
])('request smuggling over $name', ({ secure }) => {
  it.each(H2_CASES)('$name', async (c) => {
    const from = be.seen.length;
    const a: H2Answer = await h2Request(
      port,
      secure,
      c.fields,
      c.data.map((d) => Buffer.from(d, 'latin1')),
    );
    if (c.served) {
      expect(a.status, JSON.stringify(a)).toBe(200);
      expect(JSON.parse(a.body)).toMatchObject({ path: '/attack', body: c.forwarded });
    } else {
      expect(a.status === 0 || (a.status >= 400 && a.status < 500), JSON.stringify(a)).toBe(true);
    }
    await expectVictimServed();
    expectOnlySent(from, ['/attack', '/victim-'], c.forwarded ?? SMUGGLED);
  });
});

// ---- the answer side: what a back end sends is framed again by the proxy ----

/** An answer the victim must never get: it names another path. */
const POISON = (() => {
  const json = JSON.stringify({ path: '/poisoned', method: 'GET', body: '', conn: 0 });
  return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json}`;
})();

interface AnswerCase {
  name: string;
  method?: string;
  /** The back end's bytes for this request (written in one piece). */
  raw: string;
  /** The client gets this status and body, framed by the proxy; 0 = a failure (502, or the connection cut). */
  status: number;
  body?: string;
  /** A normal answer: its connection may serve again. */
  reusable?: boolean;
}

const ANSWER_CASES: AnswerCase[] = [
  {
    name: 'Content-Length and Transfer-Encoding',
    raw: `HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n${POISON}`,
    status: 502,
  },
  {
    name: 'two different Content-Length fields',
    raw: `HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\nhello${POISON}`,
    status: 502,
  },
  {
    name: 'Connection lists Content-Length',
    raw: `HTTP/1.1 200 OK\r\nConnection: Content-Length\r\nContent-Length: 5\r\n\r\nhello`,
    status: 200,
    body: 'hello',
  },
  {
    name: 'Connection lists Transfer-Encoding',
    raw: `HTTP/1.1 200 OK\r\nConnection: Transfer-Encoding\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    status: 200,
    body: 'hello',
  },
  {
    name: '100 and 103 before the answer',
    raw: `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello`,
    status: 200,
    body: 'hello',
    reusable: true,
  },
  {
    name: '101 to a plain request',
    raw: `HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n${POISON}`,
    status: 502,
  },
  {
    name: 'a body on a HEAD answer',
    method: 'HEAD',
    raw: `HTTP/1.1 200 OK\r\nContent-Length: ${POISON.length}\r\n\r\n${POISON}`,
    status: 200,
  },
  {
    name: 'a body on a 204',
    raw: `HTTP/1.1 204 No Content\r\nContent-Length: ${POISON.length}\r\n\r\n${POISON}`,
    status: 204,
  },
  {
    name: 'a body on a 304',
    raw: `HTTP/1.1 304 Not Modified\r\nContent-Length: ${POISON.length}\r\n\r\n${POISON}`,
    status: 304,
  },
  {
    name: 'a whole second answer after the answer',
    raw: `HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello${POISON}`,
    status: 200,
    body: 'hello',
  },
  {
    name: 'part of a second answer after the answer',
    raw: `HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello${POISON.slice(0, 20)}`,
    status: 200,
    body: 'hello',
  },
  {
    name: 'chunked answer with bytes after its last chunk',
    raw: `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n${POISON}`,
    status: 200,
    body: 'hello',
  },
];

describe('answer framing (back end → client)', () => {
  it.each(ANSWER_CASES)(
    '$name: framed by the proxy, back-end connection closed unless the answer was normal',
    async (c) => {
      const path = `/ans/${ANSWER_CASES.indexOf(c)}`;
      be.scripts.set(path, () => ({ raw: c.raw }));
      const from = be.seen.length;
      const method = c.method ?? 'GET';
      for (const transport of ['plain', 'tls'] as const) {
        const a = await rawRequest(port, transport, HOST, `${method} ${path} HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`, {
          head: method === 'HEAD',
        });
        expect(a.status, `${transport}: ${a.head}`).toBe(c.status);
        expect(a.complete, transport).toBe(true);
        if (c.body !== undefined) expect(a.body, transport).toBe(c.body);
        if (c.status === 200 && method !== 'HEAD')
          expect(a.head).toMatch(/\r\n(content-length: 5|transfer-encoding: chunked)/i);
        await expectVictimServed();
      }
      // Every back-end connection that carried this answer was closed by the proxy and carried nothing after it.
      const used = be.seen.slice(from).filter((r) => r.path === path);
      expect(used.length).toBe(2);
      if (c.reusable) return;
      for (const r of used) {
        const later = be.seen.slice(be.seen.indexOf(r) + 1).filter((x) => x.conn === r.conn);
        expect(
          later.map((x) => x.path),
          `connection ${r.conn} was used again`,
        ).toEqual([]);
      }
      await expect.poll(() => used.every((r) => be.closedConns.has(r.conn))).toBe(true);
    },
  );

  it('an answer cut short: the client never gets it as whole, and the next one is served', async () => {
    be.scripts.set('/ans/short', () => ({
      raw: 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b',
      close: true,
    }));
    be.scripts.set('/ans/short-chunked', () => ({
      raw: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\nonly ten b\r\n',
      close: true,
    }));
    for (const path of ['/ans/short', '/ans/short-chunked']) {
      for (const transport of ['plain', 'tls'] as const) {
        const a = await rawRequest(port, transport, HOST, `GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`);
        expect(a.complete, `${path} ${transport}: ${a.head}`).toBe(false);
        expect(a.closed).toBe(true);
        await expectVictimServed();
      }
    }
  });

  it('h2: the answer to a HEAD with a body, and bytes after an answer, never reach the next stream', async () => {
    be.scripts.set('/ans/h2-extra', () => ({ raw: `HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello${POISON}` }));
    for (const secure of [false, true]) {
      const a = await h2Request(
        port,
        secure,
        [
          [':method', 'GET'],
          [':scheme', 'https'],
          [':authority', HOST],
          [':path', '/ans/h2-extra'],
        ],
        [],
      );
      expect(a).toMatchObject({ status: 200, body: 'hello' });
      await expectVictimServed();
    }
  });
});

describe('custom fields of a rule cannot set the framing', () => {
  it.each(H1_TRANSPORTS)('$name: request and answer keep their own framing', async ({ transport, version }) => {
    const from = be.seen.length;
    const conn = version === '1.0' ? 'Connection: keep-alive\r\n' : '';
    const a = await rawRequest(
      port,
      transport,
      'custom.test',
      `POST /attack HTTP/${version}\r\nHost: custom.test\r\n${conn}Content-Length: ${n}\r\n\r\n${SMUGGLED}`,
    );
    expect(a.status, a.head).toBe(200);
    expect(a.complete).toBe(true);
    expect(JSON.parse(a.body)).toMatchObject({ path: '/attack', body: SMUGGLED });
    expect(a.head).not.toMatch(/content-length: 0\r/i);
    await expectVictimServed();
    expectOnlySent(from, ['/attack', '/victim-'], SMUGGLED);
  });
});

describe('upgrades: after a 101 the proxy reads no more, so only a real WebSocket handshake gets one', () => {
  const h2cUpgrade = `GET /up HTTP/1.1\r\nHost: ${HOST}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n${SMUGGLED}`;
  const wsUpgrade = `GET /up HTTP/1.1\r\nHost: ${HOST}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n${SMUGGLED}`;
  it.each([
    { name: 'Upgrade: h2c', raw: h2cUpgrade, status: 400 },
    { name: 'WebSocket answered by a 101 without the right accept', raw: wsUpgrade, status: 502 },
  ])('$name', async ({ raw, status }) => {
    // A back end that says 101 to anything and goes on reading HTTP on that connection.
    be.scripts.set('/up', () => ({
      raw: 'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n',
    }));
    for (const transport of ['plain', 'tls'] as const) {
      const from = be.seen.length;
      const a = await rawRequest(port, transport, HOST, raw);
      expect(a.status, `${transport}: ${a.head}`).toBe(status);
      await expectVictimServed();
      expectOnlySent(from, ['/up', '/victim-']);
    }
  });
});
