// STUN's built-in forwarding on loopback: the relays bench/stun.mjs measures in the NAT lab
// (owned-buffer TCP reads, widened UDP buffers, the UDP forwarder's last-session shortcut), with
// real sockets on both sides. The lab test (test/stun.lab.test.ts) covers them behind a real NAT.
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { type StunRule, stunRuleSchema } from '@lucky/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { nextEvent, waitFor } from '../../../../test/wait.js';
import type { MappingHost } from '../host.js';
import { TcpForwarder } from './tcpForward.js';
import { UdpForwarder } from './udpForward.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function host(targetPort: number, extra: Partial<StunRule> = {}): MappingHost {
  const rule = stunRuleSchema.parse({ key: 'R1', name: 'r', targetAddress: '127.0.0.1', targetPort, ...extra });
  return {
    rule: () => rule,
    channel: () => ({ address: '127.0.0.1' }),
    servers: () => [],
    serverWorked: () => undefined,
    keepAliveUrl: () => '',
    heartbeatMs: () => 25_000,
    retrySec: () => 10,
    timeoutMs: () => 5000,
    line: () => undefined,
    addressChanged: () => undefined,
    admits: () => true,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    signal: new AbortController().signal,
  };
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => server.close());
  return (server.address() as net.AddressInfo).port;
}

/** The mapping's listener as tcpMapping.ts makes it, handing each connection to a forwarder. */
async function tcpEntrance(targetPort: number): Promise<{ port: number; forwarder: TcpForwarder }> {
  const forwarder = new TcpForwarder(host(targetPort));
  cleanup.push(() => forwarder.closeAll());
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true, noDelay: true });
  server.on('connection', (c) => forwarder.accept(c));
  return { port: await listen(server), forwarder };
}

/** Sends `data`, half-closes, and collects everything until the other side ends. */
async function exchange(port: number, data: Buffer): Promise<Buffer> {
  const c = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  cleanup.push(() => c.destroy());
  const got: Buffer[] = [];
  c.on('data', (b) => got.push(b));
  c.end(data);
  await nextEvent(c, 'end', { timeout: 10_000, what: 'the relayed echo' });
  return Buffer.concat(got);
}

describe('TCP forwarding', () => {
  it('relays 8 MiB both ways byte-exact, passes the half-close on, and counts the bytes', async () => {
    // An echo target that ends only after the client's end came through the relay.
    const echo = net.createServer({ allowHalfOpen: true }, (s) => s.pipe(s));
    const { port, forwarder } = await tcpEntrance(await listen(echo));
    const data = randomBytes(8 * 1024 * 1024);
    const back = await exchange(port, data);
    expect(back.length).toBe(data.length);
    expect(sha(back)).toBe(sha(data));
    expect(forwarder.stats.bytesIn).toBe(data.length);
    expect(forwarder.stats.bytesOut).toBe(data.length);
    await waitFor(() => forwarder.size === 0, { what: 'the connection counted as closed' });
  });

  it('delivers what a target says before the client has sent anything', async () => {
    const banner = Buffer.from('SSH-2.0-target\r\n');
    const target = net.createServer({ allowHalfOpen: true }, (s) => {
      s.write(banner);
      s.on('data', () => undefined);
      s.on('end', () => s.end());
    });
    const { port } = await tcpEntrance(await listen(target));
    const c = net.connect({ port, host: '127.0.0.1' });
    cleanup.push(() => c.destroy());
    const [first] = await nextEvent<[Buffer]>(c, 'data', { what: 'the banner' });
    expect(first.toString()).toBe(banner.toString());
  });
});

interface UdpEntrance {
  socket: dgram.Socket;
  forwarder: UdpForwarder;
  port: number;
}

/** The mapping's UDP socket as udpMapping.ts makes it (STUN demux left out: no STUN here). */
async function udpEntrance(targetPort: number, extra: Partial<StunRule> = {}): Promise<UdpEntrance> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const forwarder = new UdpForwarder(socket, host(targetPort, extra));
  socket.on('message', (m, r) => forwarder.fromClient(m, r));
  cleanup.push(() => {
    forwarder.closeAll();
    socket.close();
  });
  return { socket, forwarder, port: socket.address().port };
}

/** A UDP target that answers each datagram with "echo:" and the datagram. */
async function udpEcho(): Promise<number> {
  const s = dgram.createSocket('udp4');
  s.on('message', (m, r) => s.send(Buffer.concat([Buffer.from('echo:'), m]), r.port, r.address));
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  cleanup.push(() => s.close());
  return s.address().port;
}

async function udpClient(): Promise<{ socket: dgram.Socket; got: string[] }> {
  const socket = dgram.createSocket('udp4');
  const got: string[] = [];
  socket.on('message', (m) => got.push(m.toString()));
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  cleanup.push(() => socket.close());
  return { socket, got };
}

describe('UDP forwarding', () => {
  it('gives the mapping’s socket the 4 MiB buffers port forwarding uses (within the kernel’s cap)', async () => {
    const { socket } = await udpEntrance(await udpEcho());
    // Linux doubles what it grants (bookkeeping overhead) and caps the request at rmem_max / wmem_max.
    const cap = (name: string) => Number(readFileSync(`/proc/sys/net/core/${name}`, 'utf8'));
    expect(socket.getRecvBufferSize()).toBe(2 * Math.min(4 * 1024 * 1024, cap('rmem_max')));
    expect(socket.getSendBufferSize()).toBe(2 * Math.min(4 * 1024 * 1024, cap('wmem_max')));
  });

  it('keeps clients apart when their datagrams alternate, each answer back to its own client', async () => {
    const { port, forwarder } = await udpEntrance(await udpEcho());
    const a = await udpClient();
    const b = await udpClient();
    // Lock-step, so a lost datagram cannot hide a misrouted one.
    for (let i = 0; i < 5; i++) {
      for (const [name, c] of [
        ['a', a],
        ['b', b],
      ] as const) {
        c.socket.send(`${name}${i}`, port, '127.0.0.1');
        await waitFor(() => c.got.length === i + 1, { what: `the answer to ${name}${i}` });
      }
    }
    expect(a.got).toEqual(['echo:a0', 'echo:a1', 'echo:a2', 'echo:a3', 'echo:a4']);
    expect(b.got).toEqual(['echo:b0', 'echo:b1', 'echo:b2', 'echo:b3', 'echo:b4']);
    expect(forwarder.size).toBe(2);
  });

  it('opens a new session for a client whose session ended idle (the shortcut forgets it)', async () => {
    // The rule's shortest UDP time-out, 1 s: the waiting below is that time-out running out.
    const { port, forwarder } = await udpEntrance(await udpEcho(), { udpTimeoutMs: 1000 });
    const a = await udpClient();
    a.socket.send('first', port, '127.0.0.1');
    await waitFor(() => a.got.length === 1, { what: 'the first answer' });
    await waitFor(() => forwarder.size === 0, { timeout: 5000, what: 'the idle session closed' });
    a.socket.send('second', port, '127.0.0.1');
    await waitFor(() => a.got.length === 2, { what: 'the answer through a new session' });
    expect(a.got).toEqual(['echo:first', 'echo:second']);
    expect(forwarder.size).toBe(1);
  });
});
