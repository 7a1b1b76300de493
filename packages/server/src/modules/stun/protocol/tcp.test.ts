// STUN over TCP against a scripted server on loopback: answers split across reads, several in one
// read, a hostile length, garbage, a closed connection. (coturn proves the real thing in
// test/stun.coturn.test.ts; this peer can misbehave on purpose.)
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nextEvent, waitFor } from '../../../../test/wait.js';
import { ATTR, BINDING_SUCCESS, encodeAddress, encodeMessage } from './message.js';
import { TcpStunConnection } from './tcp.js';

interface Scripted {
  port: number;
  /** Requests received so far (whole messages). */
  requests: Buffer[];
  /** The server side of the latest connection. */
  peer(): net.Socket;
  close(): Promise<void>;
}

/** A TCP server that collects requests; the test decides what to send back. */
async function scriptedServer(): Promise<Scripted> {
  const requests: Buffer[] = [];
  let last: net.Socket | undefined;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    last = s;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    let buf = Buffer.alloc(0);
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 20 && buf.length >= 20 + buf.readUInt16BE(2)) {
        const n = 20 + buf.readUInt16BE(2);
        requests.push(buf.subarray(0, n));
        buf = buf.subarray(n);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await nextEvent(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    requests,
    peer: () => last!,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function answerTo(req: Buffer, port: number): Buffer {
  const txn = req.subarray(8, 20);
  return encodeMessage(BINDING_SUCCESS, txn, [
    { type: ATTR.XOR_MAPPED_ADDRESS, value: encodeAddress({ family: 4, address: '198.51.100.7', port }, txn) },
  ]);
}

async function connected(port: number): Promise<net.Socket> {
  const s = net.connect(port, '127.0.0.1');
  await nextEvent(s, 'connect');
  return s;
}

describe('TcpStunConnection', () => {
  let srv: Scripted;
  let conn: TcpStunConnection | undefined;
  afterEach(async () => {
    conn?.close();
    await srv?.close();
  });

  it('reassembles an answer that arrives in pieces, and runs requests in sequence on one connection', async () => {
    srv = await scriptedServer();
    const socket = await connected(srv.port);
    let received = 0;
    socket.on('data', (d: Buffer) => {
      received += d.length;
    });
    conn = new TcpStunConnection(socket);
    const first = conn.binding();
    await waitFor(() => srv.requests.length === 1, { what: 'first request' });
    const a = answerTo(srv.requests[0], 1111);
    // Header split in the middle, then the rest: the client sees three reads.
    for (const [from, to] of [
      [0, 7],
      [7, 25],
      [25, a.length],
    ]) {
      srv.peer().write(a.subarray(from, to));
      await waitFor(() => received >= to, { what: `${to} bytes at the client` });
    }
    expect((await first).mapped).toEqual({ address: '198.51.100.7', port: 1111 });
    expect((await first).server).toEqual({ address: '127.0.0.1', port: srv.port });

    const second = conn.binding();
    await waitFor(() => srv.requests.length === 2, { what: 'second request' });
    srv.peer().write(answerTo(srv.requests[1], 2222));
    expect((await second).mapped.port).toBe(2222);
    expect(srv.requests[0].subarray(8, 20).equals(srv.requests[1].subarray(8, 20))).toBe(false);
  });

  it('two answers in one read settle two concurrent requests', async () => {
    srv = await scriptedServer();
    conn = new TcpStunConnection(await connected(srv.port));
    const a = conn.binding();
    const b = conn.binding();
    await waitFor(() => srv.requests.length === 2, { what: 'two requests' });
    srv.peer().write(Buffer.concat([answerTo(srv.requests[1], 2), answerTo(srv.requests[0], 1)]));
    expect((await a).mapped.port).toBe(1);
    expect((await b).mapped.port).toBe(2);
  });

  it('a hostile length is refused before it is buffered, and the connection is dropped', async () => {
    srv = await scriptedServer();
    const socket = await connected(srv.port);
    conn = new TcpStunConnection(socket);
    const p = conn.binding();
    await waitFor(() => srv.requests.length === 1, { what: 'request' });
    const head = Buffer.from(srv.requests[0].subarray(0, 20));
    head.writeUInt16BE(0x0101, 0);
    head.writeUInt16BE(0xfffc, 2);
    srv.peer().write(head);
    await expect(p).rejects.toMatchObject({ code: 'tooLarge', params: { bytes: 0xfffc + 20, max: 4096 } });
    await waitFor(() => socket.destroyed, { what: 'socket destroyed' });
    await expect(conn.binding()).rejects.toMatchObject({ code: 'tooLarge' });
  });

  it('something else than STUN on the stream fails every pending request', async () => {
    srv = await scriptedServer();
    conn = new TcpStunConnection(await connected(srv.port));
    const p = conn.binding();
    await waitFor(() => srv.requests.length === 1, { what: 'request' });
    srv.peer().write('HTTP/1.1 400 Bad Request\r\n\r\n');
    await expect(p).rejects.toMatchObject({ code: 'notStun' });
  });

  it('a bad answer to our transaction fails that request with its code', async () => {
    srv = await scriptedServer();
    conn = new TcpStunConnection(await connected(srv.port));
    const p = conn.binding();
    await waitFor(() => srv.requests.length === 1, { what: 'request' });
    const bad = answerTo(srv.requests[0], 1);
    bad[bad.length - 1] ^= 1;
    srv.peer().write(bad);
    await expect(p).rejects.toMatchObject({ code: 'badFingerprint' });
  });

  it('the server closing the connection rejects pending and later requests', async () => {
    srv = await scriptedServer();
    conn = new TcpStunConnection(await connected(srv.port));
    const p = conn.binding();
    await waitFor(() => srv.requests.length === 1, { what: 'request' });
    srv.peer().end();
    await expect(p).rejects.toMatchObject({ code: 'closed' });
    await expect(conn.binding()).rejects.toMatchObject({ code: 'closed' });
  });

  it('a silent server: the request times out (the waiting is the behaviour under test)', async () => {
    srv = await scriptedServer();
    conn = new TcpStunConnection(await connected(srv.port));
    await expect(conn.binding({ timeoutMs: 200 })).rejects.toMatchObject({
      code: 'timeout',
      params: { server: `127.0.0.1:${srv.port}` },
    });
    expect(conn.pendingCount).toBe(0);
  });

  it('abort and close reject with their codes; a refused connection is a socketError', async () => {
    srv = await scriptedServer();
    conn = new TcpStunConnection(await connected(srv.port));
    const ac = new AbortController();
    const p = conn.binding({ signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'aborted' });
    const q = conn.binding();
    conn.close({ reset: true });
    await expect(q).rejects.toMatchObject({ code: 'closed' });

    const port = srv.port;
    await srv.close();
    const refused = new TcpStunConnection(net.connect(port, '127.0.0.1'));
    await expect(refused.binding()).rejects.toMatchObject({ code: 'socketError', params: { error: 'ECONNREFUSED' } });
  });
});
