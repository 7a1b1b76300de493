// The STUN client against a real server: coturn on loopback, once with two addresses (RFC 5780:
// OTHER-ADDRESS, CHANGE-REQUEST, alternate port = port + 1) and once with one. Loopback has no
// NAT, so every mapped address is the local one.
import dgram from 'node:dgram';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectNatType, tcpMapping, udpBehaviour } from '../src/modules/stun/protocol/natType.js';
import { AllServersFailed, withFailover } from '../src/modules/stun/protocol/servers.js';
import { TcpStunConnection } from '../src/modules/stun/protocol/tcp.js';
import { UdpStunChannel } from '../src/modules/stun/protocol/udp.js';
import { type CoturnPeer, startCoturn } from './stun-peers.js';
import { nextEvent, waitFor } from './wait.js';

/** A UDP socket whose every datagram goes to the channel first, the rest into `payload`. */
async function udpClient(address = '127.0.0.1') {
  const socket = dgram.createSocket('udp4');
  socket.bind(0, address);
  await nextEvent(socket, 'listening');
  const channel = new UdpStunChannel(socket, { software: 'Lucky test' });
  const payload: Buffer[] = [];
  socket.on('message', (msg, rinfo) => {
    if (!channel.handle(msg, rinfo)) payload.push(msg);
  });
  return {
    socket,
    channel,
    payload,
    port: socket.address().port,
    close: () => {
      channel.close();
      socket.close();
    },
  };
}

async function tcpConnect(host: string, port: number, localPort?: number): Promise<net.Socket> {
  const s = net.connect({ host, port, localAddress: '127.0.0.1', localPort });
  await nextEvent(s, 'connect');
  return s;
}

/** A local TCP port nothing listens on (taken from the kernel, then released). */
async function closedPort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await nextEvent(srv, 'listening');
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** A free local port for the TCP connections of one discovery run. */
const freeLocalPort = closedPort;

describe('STUN client against coturn', () => {
  let rfc5780: CoturnPeer;
  let single: CoturnPeer;
  beforeAll(async () => {
    [rfc5780, single] = await Promise.all([
      startCoturn({ addresses: ['127.0.0.1', '127.0.0.2'] }),
      startCoturn({ addresses: ['127.0.0.1'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([rfc5780?.stop(), single?.stop()]);
  });

  it('UDP Binding: the mapped address is the local address and port; payload on the socket stays the caller’s', async () => {
    const c = await udpClient();
    try {
      const a = await c.channel.binding({ address: '127.0.0.1', port: rfc5780.port });
      expect(a.mapped).toEqual({ address: '127.0.0.1', port: c.port });
      expect(a.server).toEqual({ address: '127.0.0.1', port: rfc5780.port });
      expect(a.otherAddress).toEqual({ address: '127.0.0.2', port: rfc5780.port + 1 });
      expect(a.responseOrigin).toEqual({ address: '127.0.0.1', port: rfc5780.port });
      expect(a.software).toMatch(/Coturn/i);

      const sender = dgram.createSocket('udp4');
      sender.send(Buffer.from('forwarded payload'), c.port, '127.0.0.1');
      await waitFor(() => c.payload.length === 1, { what: 'payload delivered to the caller' });
      expect(c.payload[0].toString()).toBe('forwarded payload');
      sender.close();
    } finally {
      c.close();
    }
  });

  it('TCP Binding: the mapped address is the local one, three requests in sequence on one connection', async () => {
    const socket = await tcpConnect('127.0.0.1', rfc5780.port);
    const conn = new TcpStunConnection(socket);
    try {
      for (let i = 0; i < 3; i++) {
        const a = await conn.binding({ timeoutMs: 5000 });
        expect(a.mapped).toEqual({ address: '127.0.0.1', port: socket.localPort });
        expect(a.server).toEqual({ address: '127.0.0.1', port: rfc5780.port });
      }
    } finally {
      conn.close();
    }
  });

  it('UDP fail-over: the first server (a closed port) fails with its error listed, the second answers', async () => {
    const c = await udpClient();
    const dead = await closedPort();
    try {
      const r = await withFailover([`127.0.0.1:${dead}`, `localhost:${rfc5780.port}`], (s) =>
        // A closed UDP port says nothing, so the first server can only time out: a short schedule
        // for it; coturn gets the RFC's, so a slow moment on a busy machine cannot fail it.
        c.channel.binding(s, s.port === dead ? { rtoMs: 50, rc: 2, rm: 2 } : {}),
      );
      expect(r.server).toMatchObject({ host: 'localhost', address: '127.0.0.1', port: rfc5780.port });
      expect(r.result.mapped).toEqual({ address: '127.0.0.1', port: c.port });
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0].server).toBe(`127.0.0.1:${dead}`);
      expect(r.errors[0].error).toMatchObject({
        code: 'timeout',
        params: { server: `127.0.0.1:${dead}`, requests: 2 },
      });
    } finally {
      c.close();
    }
  });

  it('TCP fail-over: a refused connection, then coturn; every server down is allServersFailed', async () => {
    const dead = await closedPort();
    const attempt = async (s: { address: string; port: number }) => {
      const conn = new TcpStunConnection(net.connect(s.port, s.address));
      try {
        return await conn.binding({ timeoutMs: 5000 });
      } finally {
        conn.close();
      }
    };
    const r = await withFailover([`127.0.0.1:${dead}`, `127.0.0.1:${rfc5780.port}`], attempt);
    expect(r.result.mapped.address).toBe('127.0.0.1');
    expect(r.errors.map((e) => [e.server, e.error.code, e.error.params.error])).toEqual([
      [`127.0.0.1:${dead}`, 'socketError', 'ECONNREFUSED'],
    ]);
    const all = await withFailover([`127.0.0.1:${dead}`, 'nowhere.invalid'], attempt).catch((e: unknown) => e);
    expect(all).toBeInstanceOf(AllServersFailed);
    expect((all as AllServersFailed).errors.map((e) => e.error.code)).toEqual(['socketError', 'resolveFailed']);
  });

  it('NAT type against the two-address coturn: no NAT, OTHER-ADDRESS seen, open (UDP and TCP)', async () => {
    const c = await udpClient('0.0.0.0');
    const localPort = await freeLocalPort();
    try {
      const r = await detectNatType({
        server: { address: '127.0.0.1', port: rfc5780.port },
        udp: c.channel,
        connect: (host, port) => tcpConnect(host, port, localPort),
      });
      expect(r).toMatchObject({
        mapping: 'none',
        filtering: 'endpointIndependent',
        tcpMapping: 'none',
        verdict: 'open',
        publicAddress: { address: '127.0.0.1', port: c.port },
        otherAddress: { address: '127.0.0.2', port: rfc5780.port + 1 },
        notes: [],
      });
      expect(r.detail).toMatch(/^no NAT/);
    } finally {
      c.close();
    }
  });

  it('tests II and III reach coturn’s alternate address: with the local address hidden the mapping reads endpoint-independent', async () => {
    // Pretending 127.0.0.1 is not ours makes the tests go on past test I, as behind a NAT: both
    // protocols then ask the alternate address and port, TCP from the same local port each time.
    const c = await udpClient();
    const localPort = await freeLocalPort();
    const server = { address: '127.0.0.1', port: rfc5780.port };
    try {
      const u = await udpBehaviour({
        server,
        udp: c.channel,
        localAddresses: ['192.0.2.1'],
      });
      expect(u).toMatchObject({
        mapping: 'endpointIndependent',
        filtering: 'endpointIndependent',
        blocked: false,
        notes: [],
      });
      const opened: number[] = [];
      const t = await tcpMapping(
        async (host, port) => {
          const s = await tcpConnect(host, port, localPort);
          opened.push(s.localPort!);
          return s;
        },
        server,
        { localAddresses: ['192.0.2.1'], timeoutMs: 5000 },
      );
      expect(t).toMatchObject({
        mapping: 'endpointIndependent',
        publicAddress: { address: '127.0.0.1', port: localPort },
      });
      expect(opened).toEqual([localPort, localPort]);
    } finally {
      c.close();
    }
  });

  it('NAT type against a single-address coturn: unsupportedServer', async () => {
    const c = await udpClient();
    try {
      const r = await detectNatType({
        server: { address: '127.0.0.1', port: single.port },
        udp: c.channel,
      });
      expect(r.verdict).toBe('unsupportedServer');
      expect(r.otherAddress).toBeUndefined();
      expect(r.publicAddress).toEqual({ address: '127.0.0.1', port: c.port });
      expect(r.detail).toMatch(/does not support NAT behaviour discovery/);
    } finally {
      c.close();
    }
  });
});
