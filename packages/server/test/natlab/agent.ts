// A small network agent run inside a lab namespace (agentClient.ts starts it): it takes one JSON
// command per stdin line and answers one JSON line per command, so a test can open sockets,
// send probes and run servers in a namespace without a new process per step.
//
// Datagram sockets opened with udpOpen answer every datagram that starts with "probe" with
// "pong <payload>", so a peer outside learns that its datagram got in.
import dgram from 'node:dgram';
import net from 'node:net';
import { createInterface } from 'node:readline';
import {
  bindingResult,
  decodeBindingResponse,
  encodeBindingRequest,
  looksLikeStun,
} from '../../src/modules/stun/protocol/message.js';

export interface Endpoint {
  address: string;
  port: number;
}

export interface Datagram {
  from: string;
  text: string;
}

/** What a probe from outside came back with: an answer, the router's port-unreachable, or nothing. */
export type ProbeResult = { reply: Datagram } | { refused: true } | { timedOut: true };

/** What a TCP query came back with: the text the server sent, or the connect error's code. */
export type TcpResult = { text: string; local: Endpoint } | { error: string };

const objects = new Map<number, dgram.Socket | net.Server>();
const received = new Map<number, Datagram[]>();
let nextId = 1;

const show = (e: Endpoint) => `${e.address}:${e.port}`;

function bindUdp(address: string, port: number): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    s.once('error', reject);
    s.bind({ address, port }, () => {
      s.off('error', reject);
      resolve(s);
    });
  });
}

function listenTcp(server: net.Server, address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: address, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const commands: Record<string, (a: Record<string, unknown>) => Promise<unknown>> = {
  /** A socket that records what it gets and answers probes. */
  async udpOpen(a) {
    const s = await bindUdp(String(a.address ?? '0.0.0.0'), Number(a.port ?? 0));
    const id = nextId++;
    const got: Datagram[] = [];
    objects.set(id, s);
    received.set(id, got);
    s.on('message', (msg, r) => {
      const text = msg.toString('utf8');
      got.push({ from: `${r.address}:${r.port}`, text });
      if (text.startsWith('probe')) s.send(`pong ${text}`, r.port, r.address);
    });
    s.on('error', () => {
      // ICMP errors from earlier sends; the socket keeps working
    });
    return { sock: id, port: s.address().port };
  },

  /** Sends from an udpOpen socket and waits for the answer from the same endpoint. */
  async udpQuery(a) {
    const s = objects.get(Number(a.sock)) as dgram.Socket;
    const to = a.to as Endpoint;
    return new Promise((resolve, reject) => {
      const onMessage = (msg: Buffer, r: dgram.RemoteInfo) => {
        if (r.address !== to.address || r.port !== to.port) return;
        clearTimeout(timer);
        s.off('message', onMessage);
        resolve({ from: `${r.address}:${r.port}`, text: msg.toString('utf8') });
      };
      const timer = setTimeout(
        () => {
          s.off('message', onMessage);
          reject(new Error(`no answer from ${show(to)}`));
        },
        Number(a.timeoutMs ?? 3000),
      );
      s.on('message', onMessage);
      s.send(String(a.payload ?? 'query'), to.port, to.address);
    });
  },

  /** A fresh connected socket sends one datagram: an answer, ECONNREFUSED (ICMP) or nothing. */
  async udpProbe(a) {
    const bind = a.bind as Endpoint;
    const to = a.to as Endpoint;
    const s = await bindUdp(bind.address, bind.port);
    return new Promise<ProbeResult>((resolve) => {
      const done = (r: ProbeResult) => {
        clearTimeout(timer);
        s.close();
        resolve(r);
      };
      const timer = setTimeout(() => done({ timedOut: true }), Number(a.timeoutMs ?? 3000));
      s.on('message', (msg, r) => done({ reply: { from: `${r.address}:${r.port}`, text: msg.toString('utf8') } }));
      s.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED') done({ refused: true });
      });
      s.connect(to.port, to.address, () => s.send(String(a.payload ?? 'probe')));
    });
  },

  /** Answers every datagram with the sender's address as this side sees it. */
  async udpReflect(a) {
    const s = await bindUdp(String(a.address), Number(a.port));
    const id = nextId++;
    objects.set(id, s);
    s.on('message', (_msg, r) => s.send(JSON.stringify({ seen: `${r.address}:${r.port}` }), r.port, r.address));
    return { sock: id };
  },

  /** Tells every TCP client its address as this side sees it, then closes. */
  async tcpReflect(a) {
    const server = net.createServer((c) => c.end(JSON.stringify({ seen: `${c.remoteAddress}:${c.remotePort}` })));
    await listenTcp(server, String(a.address), Number(a.port));
    const id = nextId++;
    objects.set(id, server);
    return { sock: id };
  },

  /** Sends `text` to every TCP client, then closes. */
  async tcpServe(a) {
    const server = net.createServer((c) => c.end(String(a.text)));
    await listenTcp(server, String(a.address ?? '0.0.0.0'), Number(a.port));
    const id = nextId++;
    objects.set(id, server);
    return { sock: id, port: (server.address() as net.AddressInfo).port };
  },

  /** Connects (from `bind` when given), reads until the server closes; or the connect error's code. */
  async tcpQuery(a) {
    const to = a.to as Endpoint;
    const bind = a.bind as Endpoint | undefined;
    return new Promise<TcpResult>((resolve) => {
      const c = net.connect({ host: to.address, port: to.port, localAddress: bind?.address, localPort: bind?.port });
      let text = '';
      let local: Endpoint | undefined;
      const timer = setTimeout(
        () => {
          c.destroy();
          resolve({ error: 'ETIMEDOUT' });
        },
        Number(a.timeoutMs ?? 3000),
      );
      c.setEncoding('utf8');
      c.on('connect', () => {
        local = { address: c.localAddress ?? '', port: c.localPort ?? 0 };
      });
      c.on('data', (d: string) => {
        text += d;
      });
      // The server closes first, so the TIME_WAIT stays on its side and this port can be bound again.
      c.on('end', () => {
        clearTimeout(timer);
        c.end();
        resolve({ text, local: local as Endpoint });
      });
      c.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve({ error: err.code ?? err.message });
      });
    });
  },

  /**
   * One STUN Binding request (the product's codec) from an udpOpen socket: the mapped address the
   * server saw and whether it named an alternate address (RFC 5780 OTHER-ADDRESS).
   */
  async stun(a) {
    const s = objects.get(Number(a.sock)) as dgram.Socket;
    const to = a.to as Endpoint;
    const { transactionId, bytes } = encodeBindingRequest();
    return new Promise((resolve, reject) => {
      const onMessage = (msg: Buffer) => {
        if (!looksLikeStun(msg)) return;
        clearTimeout(timer);
        s.off('message', onMessage);
        try {
          const answer = decodeBindingResponse(msg, transactionId);
          const mapped = bindingResult(answer);
          resolve({ mapped: `${mapped.address}:${mapped.port}`, other: answer.otherAddress !== undefined });
        } catch (err) {
          reject(err);
        }
      };
      const timer = setTimeout(() => {
        s.off('message', onMessage);
        reject(new Error(`no STUN answer from ${show(to)}`));
      }, 3000);
      s.on('message', onMessage);
      s.send(bytes, to.port, to.address);
    });
  },

  /** The datagrams an udpOpen socket got so far. */
  async received(a) {
    return received.get(Number(a.sock)) ?? [];
  },

  async close(a) {
    const o = objects.get(Number(a.sock));
    objects.delete(Number(a.sock));
    if (o instanceof net.Server) await new Promise<void>((r) => o.close(() => r()));
    else o?.close();
    return {};
  },
};

const reply = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg: { id: number; cmd: string; args?: Record<string, unknown> };
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  const fn = commands[msg.cmd];
  if (!fn) {
    reply({ id: msg.id, ok: false, error: `unknown command ${msg.cmd}` });
    return;
  }
  fn(msg.args ?? {}).then(
    (result) => reply({ id: msg.id, ok: true, result }),
    (err: Error) => reply({ id: msg.id, ok: false, error: err.message }),
  );
});
// The test's end of stdin closing ends the agent.
process.stdin.on('end', () => process.exit(0));
reply({ ready: true });
