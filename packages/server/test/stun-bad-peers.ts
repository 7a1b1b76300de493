// Peers that misbehave on purpose, for the STUN module's attack tests (stun.attacks.test.ts):
// TCP "STUN servers" that answer garbage, a huge length or a trickle; a UDP STUN server whose
// answers the test holds back, so a forged answer can race a real pending request; and a TCP
// target that never accepts (its process is stopped and its accept queue full).
import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { ATTR, BINDING_SUCCESS, encodeAddress, encodeMessage } from '../src/modules/stun/protocol/message.js';
import { type Peer, tcpServer } from './portforward-helpers.js';
import { nextEvent, waitFor } from './wait.js';

/** A Binding success answering transaction `txn` with XOR-MAPPED-ADDRESS `mapped`. */
export function bindingSuccess(txn: Buffer, mapped: { address: string; port: number }): Buffer {
  const family = net.isIPv6(mapped.address) ? 6 : 4;
  return encodeMessage(BINDING_SUCCESS, txn, [
    {
      type: ATTR.XOR_MAPPED_ADDRESS,
      value: encodeAddress({ family, address: mapped.address, port: mapped.port }, txn),
    },
  ]);
}

export type BadTcpStun = 'garbage' | 'huge' | 'ipv6' | 'trickle';

/**
 * A TCP server that takes a Binding request and answers it wrongly, keeping the connection open
 * (so whoever gives up closes first): `garbage` an HTTP error page, `huge` a STUN header for the
 * request's transaction declaring 65532 bytes followed by 64 KiB of filler, `ipv6` a well-formed
 * answer whose mapped address is IPv6 (nonsense for an IPv4 mapping), `trickle` a valid answer
 * one byte every 100 ms.
 */
export function badTcpStun(kind: BadTcpStun): Promise<Peer> {
  return tcpServer((c) => {
    let timer: NodeJS.Timeout | undefined;
    c.on('close', () => clearInterval(timer));
    c.once('data', (req: Buffer) => {
      const txn = req.subarray(8, 20);
      if (kind === 'garbage') {
        c.write('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      } else if (kind === 'huge') {
        const head = Buffer.alloc(20);
        head.writeUInt16BE(BINDING_SUCCESS, 0);
        head.writeUInt16BE(65532, 2);
        head.writeUInt32BE(0x2112a442, 4);
        txn.copy(head, 8);
        c.write(Buffer.concat([head, Buffer.alloc(64 * 1024, 0x41)]));
      } else if (kind === 'ipv6') {
        c.write(bindingSuccess(txn, { address: '2001:db8::66', port: 6666 }));
      } else {
        const answer = bindingSuccess(txn, { address: c.remoteAddress ?? '', port: c.remotePort ?? 0 });
        let i = 0;
        timer = setInterval(() => {
          if (i < answer.length && !c.destroyed) c.write(answer.subarray(i, ++i));
        }, 100);
      }
    });
  });
}

export interface HeldStunServer {
  port: number;
  /** Binding requests seen, in order: transaction id and where from. */
  requests: Array<{ txn: Buffer; from: { address: string; port: number } }>;
  /** While true, requests are recorded but not answered. */
  hold: boolean;
  /** Answers request `i` as a correct server would (the mapped address is its source). */
  answer(i: number): void;
  close(): Promise<void>;
}

/** A UDP STUN server on 127.0.0.1 that answers correctly, or holds requests while `hold` is set. */
export async function heldUdpStun(): Promise<HeldStunServer> {
  const sock = dgram.createSocket('udp4');
  const server: HeldStunServer = {
    port: 0,
    requests: [],
    hold: false,
    answer(i) {
      const r = server.requests[i];
      sock.send(bindingSuccess(r.txn, r.from), r.from.port, r.from.address);
    },
    close: () => new Promise((resolve) => sock.close(() => resolve())),
  };
  sock.on('message', (msg, rinfo) => {
    if (msg.length < 20) return;
    const from = { address: rinfo.address, port: rinfo.port };
    const i = server.requests.push({ txn: Buffer.from(msg.subarray(8, 20)), from }) - 1;
    if (!server.hold) server.answer(i);
  });
  sock.bind(0, '127.0.0.1');
  await nextEvent(sock, 'listening');
  server.port = sock.address().port;
  return server;
}

/** The accept queue of the listening IPv4 socket on `port` (the kernel's rx_queue of a LISTEN entry). */
function acceptQueue(port: number): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A') return Number.parseInt(f[4].split(':')[1], 16);
  }
  return undefined;
}

/**
 * A TCP target that never accepts: a process listening with a backlog of 1 is stopped (SIGSTOP),
 * then two connections fill its accept queue, so the kernel drops every further SYN and a connect
 * to it hangs until the connecting side gives up.
 */
export async function deafTarget(): Promise<Peer> {
  const script =
    "require('node:net').createServer().listen({ host: '127.0.0.1', port: 0, backlog: 1 }, function () { console.log(this.address().port) })";
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await nextEvent<[Buffer]>(child.stdout!, 'data');
  const port = Number(line.toString().trim());
  child.kill('SIGSTOP');
  await waitFor(() => readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.[0] === 'T', {
    what: 'the target process stopped',
  });
  const fillers = [net.connect(port, '127.0.0.1'), net.connect(port, '127.0.0.1')];
  for (const f of fillers) f.on('error', () => undefined);
  // Two queued is more than the backlog of 1: the queue is full, the next SYN is dropped.
  await waitFor(
    () => acceptQueue(port),
    (n) => n !== undefined && n >= 2,
    { what: 'a full accept queue' },
  );
  return {
    port,
    close: async () => {
      for (const f of fillers) f.destroy();
      const gone = nextEvent(child, 'exit');
      child.kill('SIGKILL');
      await gone;
    },
  };
}

/**
 * Connections on local `port` (IPv4) that this side closed first and the kernel still keeps
 * (FIN_WAIT1, FIN_WAIT2, TIME_WAIT, CLOSING): what a FIN instead of a reset leaves behind, for up
 * to a minute each, with the 4-tuple blocked meanwhile.
 */
export function lingeringOn(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => {
      const f = line.trim().split(/\s+/);
      return f[1]?.endsWith(`:${hex}`) && ['04', '05', '06', '0B'].includes(f[3]);
    }).length;
}
