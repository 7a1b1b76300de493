// The back-end client against hand-written HTTP/1.1 servers on loopback: the cases a real back
// end produces now and then, which node:http as a back end never does on purpose.
import net from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendPool, type BackendRequest } from './backendClient.js';

interface Result {
  status?: number;
  raw?: string[];
  body: string;
  error?: NodeJS.ErrnoException;
}

function send(pool: BackendPool, req: Partial<BackendRequest>): Promise<Result> {
  return new Promise((resolve) => {
    const out: Result = { body: '' };
    pool.request(
      { method: 'GET', path: '/', headers: { host: 'b' }, body: null, ...req },
      {
        onConnect: () => undefined,
        onHeaders: (status, raw) => {
          out.status = status;
          out.raw = raw;
        },
        onData: (chunk) => {
          out.body += chunk.toString('latin1');
          return true;
        },
        onComplete: () => resolve(out),
        onError: (err) => resolve({ ...out, error: err as NodeJS.ErrnoException }),
      },
    );
  });
}

/** A server that reads whole request heads (and bodies up to the blank line of a chunked end) and answers by script. */
const servers: net.Server[] = [];
const pools: BackendPool[] = [];
afterEach(() => {
  for (const p of pools.splice(0)) p.close();
  for (const s of servers.splice(0)) s.close();
});

async function serve(onConnection: (socket: net.Socket, index: number) => void): Promise<BackendPool> {
  let n = 0;
  const server = net.createServer((socket) => onConnection(socket, n++));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const pool = new BackendPool(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, false);
  pools.push(pool);
  return pool;
}

/** Calls `answer` once per request head (a body, if any, is collected up to `until`). */
function onRequests(socket: net.Socket, answer: (head: string, body: string, nth: number) => void, until = ''): void {
  let buf = '';
  let nth = 0;
  socket.on('data', (d) => {
    buf += d.toString('latin1');
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.slice(0, end);
      let rest = buf.slice(end + 4);
      let body = '';
      if (until) {
        const stop = rest.indexOf(until);
        if (stop < 0) return;
        body = rest.slice(0, stop + until.length);
        rest = rest.slice(stop + until.length);
      }
      buf = rest;
      answer(head, body, nth++);
    }
  });
  socket.on('error', () => undefined);
}

describe('BackendPool', () => {
  it('reuses one connection for requests one after another', async () => {
    let connections = 0;
    const pool = await serve((socket) => {
      connections++;
      onRequests(socket, (_h, _b, nth) => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n${nth}!`));
    });
    const a = await send(pool, {});
    const b = await send(pool, {});
    expect([a.body, b.body]).toEqual(['0!', '1!']);
    expect(connections).toBe(1);
  });

  it('sends a request again on a new connection when a kept-alive one was closed under it', async () => {
    const pool = await serve((socket, index) => {
      onRequests(socket, (_h, _b, nth) => {
        // The first connection answers once, then drops the next request unanswered
        // (as a back end does when its keep-alive timer fires at that moment).
        if (index === 0 && nth === 1) return socket.destroy();
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nc${index}r${nth}`);
      });
    });
    expect((await send(pool, {})).body).toBe('c0r0');
    const again = await send(pool, {});
    expect(again.error).toBeUndefined();
    expect(again.body).toBe('c1r0');
  });

  it('puts a long answer head together (the parser hands over more than 32 headers in pieces)', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `X-H${i}: v${i}\r\n`).join('');
    const pool = await serve((socket) =>
      onRequests(socket, () => socket.write(`HTTP/1.1 200 OK\r\n${many}Content-Length: 2\r\n\r\nok`)),
    );
    const r = await send(pool, {});
    expect(r.raw).toHaveLength(82);
    expect(r.raw?.slice(78)).toEqual(['X-H39', 'v39', 'Content-Length', '2']);
    expect(r.body).toBe('ok');
    // Pieces do not leak into the next answer.
    expect((await send(pool, {})).raw).toHaveLength(82);
  });

  it('skips 1xx answers (100 Continue, 103 Early Hints) and passes the final one on', async () => {
    const pool = await serve((socket) =>
      onRequests(socket, () =>
        socket.write(
          'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n' +
            'HTTP/1.1 201 Created\r\nContent-Length: 4\r\n\r\ndone',
        ),
      ),
    );
    const r = await send(pool, {});
    expect(r.status).toBe(201);
    expect(r.body).toBe('done');
  });

  it('reads no body after HEAD, whatever Content-Length says, and keeps the connection', async () => {
    let connections = 0;
    const pool = await serve((socket) => {
      connections++;
      onRequests(socket, (head) =>
        socket.write(
          head.startsWith('HEAD')
            ? 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n'
            : 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nget',
        ),
      );
    });
    const head = await send(pool, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect((await send(pool, {})).body).toBe('get');
    expect(connections).toBe(1);
  });

  it('reads an answer without length up to the close, and does not reuse that connection', async () => {
    let connections = 0;
    const pool = await serve((socket) => {
      connections++;
      onRequests(socket, () => socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it'));
    });
    expect((await send(pool, {})).body).toBe('all of it');
    expect((await send(pool, {})).body).toBe('all of it');
    expect(connections).toBe(2);
  });

  it('sends a body of unknown length chunked, and one of known length as it is', async () => {
    const seen: string[] = [];
    const pool = await serve((socket) =>
      onRequests(
        socket,
        (head, body) => {
          seen.push(`${head.split('\r\n').slice(1).sort().join('|')}#${body}`);
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
        },
        '0\r\n\r\n',
      ),
    );
    const chunked = await send(pool, {
      method: 'POST',
      headers: { host: 'b', 'transfer-encoding': 'chunked' },
      body: Readable.from([Buffer.from('hello '), Buffer.alloc(0), Buffer.from('world')]),
    });
    expect(chunked.status).toBe(200);
    expect(seen[0]).toBe('host: b|transfer-encoding: chunked#6\r\nhello \r\n5\r\nworld\r\n0\r\n\r\n');
    const sized = await send(pool, {
      method: 'POST',
      headers: { host: 'b', 'content-length': '10' },
      body: Readable.from([Buffer.from('0\r\n\r\n'), Buffer.from('12345')]),
      bodyLength: 10,
    });
    expect(sized.status).toBe(200);
    expect(seen[1]).toBe('content-length: 10|host: b#0\r\n\r\n');
  });

  it('reports a malformed answer as an error, not as a response', async () => {
    const pool = await serve((socket) =>
      onRequests(socket, () => socket.write('HTTP/1.1 200 OK\r\nBad Header\r\n\r\n')),
    );
    const r = await send(pool, {});
    expect(r.status).toBeUndefined();
    expect(r.error?.code).toBe('EBADANSWER');
    expect(r.error?.message).toMatch(/invalid answer from the back end/);
  });

  it('reports an answer cut short by the back end', async () => {
    const pool = await serve((socket) =>
      onRequests(socket, () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this')),
    );
    const r = await send(pool, {});
    expect(r.status).toBe(200);
    expect(r.body).toBe('only this');
    expect(r.error).toBeDefined();
  });

  it('refuses to write a header value or path that would split the request', async () => {
    let connections = 0;
    const pool = await serve(() => connections++);
    const bad = await send(pool, { headers: { host: 'b', 'x-a': 'v\r\nX-Injected: 1' } });
    expect(bad.error?.code).toBe('EINVALIDREQUEST');
    expect(bad.error?.message).toMatch(/x-a/);
    const badPath = await send(pool, { path: '/a HTTP/1.1\r\nX: y' });
    expect(badPath.error?.code).toBe('EINVALIDREQUEST');
    expect(connections).toBe(0);
  });

  it('reports a refused connection with its code, so the proxy can fail over', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const pool = new BackendPool(`http://127.0.0.1:${port}`, false);
    pools.push(pool);
    expect((await send(pool, {})).error?.code).toBe('ECONNREFUSED');
  });

  it('upgrades on 101 and hands over the bytes that came with it; refuses anything else', async () => {
    const pool = await serve((socket) =>
      onRequests(socket, (head) => {
        if (head.includes('/no')) return socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
        socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\nX-Up: 1\r\n\r\nhi');
        socket.removeAllListeners('data');
        socket.pipe(socket);
      }),
    );
    const up = await pool.upgrade('/yes', { host: 'b', connection: 'upgrade', upgrade: 'echo' });
    expect(up.raw).toContain('X-Up');
    expect(up.head.toString()).toBe('hi');
    const echoed = new Promise<string>((r) => up.socket.once('data', (d) => r(d.toString())));
    up.socket.resume();
    up.socket.write('ping');
    expect(await echoed).toBe('ping');
    up.socket.destroy();
    await expect(pool.upgrade('/no', { host: 'b', connection: 'upgrade', upgrade: 'echo' })).rejects.toMatchObject({
      code: 'EUPGRADEREFUSED',
    });
  });
  it('makes the framing itself: Content-Length / Transfer-Encoding in the headers are not written', async () => {
    const heads: string[] = [];
    const pool = await serve((socket) =>
      onRequests(socket, (head) => {
        heads.push(head);
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
      }),
    );
    const sized = await send(pool, {
      method: 'POST',
      headers: { host: 'b', 'content-length': '3', 'transfer-encoding': 'chunked' },
      body: Readable.from([Buffer.from('0123456789')]),
      bodyLength: 10,
    });
    expect(sized.status).toBe(200);
    expect(heads[0].toLowerCase().split('\r\n').slice(1).sort()).toEqual(['content-length: 10', 'host: b']);
    // No body: no framing field at all, whatever the headers say.
    await send(pool, { headers: { host: 'b', 'content-length': '5' } });
    expect(heads[1].toLowerCase()).not.toMatch(/content-length|transfer-encoding/);
    const bad = await send(pool, { method: 'POST', body: null, bodyLength: 5 });
    expect(bad.error?.code).toBe('EINVALIDREQUEST');
  });

  for (const [what, parts] of [
    ['longer', ['0123456789', 'GET /smuggled HTTP/1.1\r\nHost: b\r\n\r\n']],
    ['shorter', ['01234']],
  ] as const) {
    it(`fails an exchange whose body is ${what} than its Content-Length, and closes the connection`, async () => {
      const seen: string[] = [];
      let closed = 0;
      const pool = await serve((socket) => {
        socket.on('close', () => closed++);
        socket.on('data', (d) => seen.push(d.toString('latin1')));
      });
      const r = await send(pool, {
        method: 'POST',
        headers: { host: 'b' },
        body: Readable.from(parts.map((p) => Buffer.from(p))),
        bodyLength: 10,
      });
      expect(r.error?.code).toBe('EBODYLENGTH');
      expect(seen.join('')).not.toContain('/smuggled');
      await expect.poll(() => closed).toBe(1);
    });
  }

  for (const [what, extra, method] of [
    ['a second answer', 'HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\npoisoned', 'GET'],
    ['part of a second answer', 'HTTP/1.1 200 OK\r\nConte', 'GET'],
    ['garbage', '\x01\x02garbage', 'GET'],
    ['a body on a HEAD answer', 'HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\npoisoned', 'HEAD'],
  ] as const) {
    it(`passes a whole answer followed by ${what} on, and never reuses that connection`, async () => {
      let connections = 0;
      const pool = await serve((socket, index) => {
        connections++;
        onRequests(socket, (_h, _b, nth) =>
          socket.write(
            index === 0 && nth === 0
              ? `HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n${method === 'HEAD' ? '' : 'first'}${extra}`
              : `HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nc${index}r${nth}`,
          ),
        );
      });
      const first = await send(pool, { method });
      expect(first.error).toBeUndefined();
      expect(first.body).toBe(method === 'HEAD' ? '' : 'first');
      const next = await send(pool, {});
      expect(next.body).toBe('c1r0');
      expect(connections).toBe(2);
    });
  }

  it('closes a kept-alive connection that sends bytes while no request is out', async () => {
    let sock: net.Socket | undefined;
    let connections = 0;
    const pool = await serve((socket) => {
      connections++;
      sock ??= socket;
      onRequests(socket, () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    });
    expect((await send(pool, {})).body).toBe('ok');
    const closed = new Promise((r) => sock?.once('close', r));
    sock?.write('HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\npoisoned');
    await closed;
    expect((await send(pool, {})).body).toBe('ok');
    expect(connections).toBe(2);
  });

  it('does not reuse a connection whose answer lists its own framing in Connection', async () => {
    let connections = 0;
    const pool = await serve((socket) => {
      connections++;
      onRequests(socket, () =>
        socket.write('HTTP/1.1 200 OK\r\nConnection: Content-Length\r\nContent-Length: 2\r\n\r\nok'),
      );
    });
    expect((await send(pool, {})).body).toBe('ok');
    expect((await send(pool, {})).body).toBe('ok');
    expect(connections).toBe(2);
  });
});
