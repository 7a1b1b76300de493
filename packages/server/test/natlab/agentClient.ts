// The test's side of agent.ts: start an agent in a lab namespace and call its commands.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Datagram, Endpoint, ProbeResult, TcpResult } from './agent.js';
import { type Lab, nodeCommand } from './lab.js';

export type { Datagram, Endpoint, ProbeResult, TcpResult };

const AGENT = new URL('./agent.ts', import.meta.url).pathname;

export interface Agent {
  udpOpen(port: number, address?: string): Promise<{ sock: number; port: number }>;
  udpQuery(sock: number, to: Endpoint, payload?: string): Promise<Datagram>;
  /** `timeoutMs`: how long to wait for an answer (default 3 s). */
  udpProbe(bind: Endpoint, to: Endpoint, payload?: string, timeoutMs?: number): Promise<ProbeResult>;
  udpReflect(address: string, port: number): Promise<{ sock: number }>;
  tcpReflect(address: string, port: number): Promise<{ sock: number }>;
  tcpServe(port: number, text: string, address?: string): Promise<{ sock: number; port: number }>;
  tcpQuery(to: Endpoint, bind?: Endpoint): Promise<TcpResult>;
  /** A STUN Binding request from an udpOpen socket: the mapped address, and whether OTHER-ADDRESS came. */
  stun(sock: number, to: Endpoint): Promise<{ mapped: string; other: boolean }>;
  received(sock: number): Promise<Datagram[]>;
  close(sock: number): Promise<void>;
  /** Ends the agent (also done by lab.destroy()). */
  stop(): void;
}

/** Starts an agent in `ns` (a lab's, or any namespace with a `spawn` that runs in it) and resolves once it is ready. */
export async function startAgent(lab: Pick<Lab, 'spawn'>, ns: string): Promise<Agent> {
  const [node, args] = nodeCommand(AGENT);
  const child: ChildProcess = lab.spawn(ns, node, args);
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  let seq = 0;
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const msg = JSON.parse(line) as { ready?: true; id: number; ok: boolean; result?: unknown; error?: string };
      if (msg.ready) {
        resolve();
        return;
      }
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.ok) p?.resolve(msg.result);
      else p?.reject(new Error(`agent in ${ns}: ${msg.error}`));
    });
    child.on('exit', (code) => {
      const err = new Error(`agent in ${ns} exited (${code}): ${stderr.slice(-2000)}`);
      reject(err);
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    });
  });
  await ready;
  const call = <T>(cmd: string, a: object = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.stdin?.write(`${JSON.stringify({ id, cmd, args: a })}\n`);
    });
  return {
    udpOpen: (port, address) => call('udpOpen', { port, address }),
    udpQuery: (sock, to, payload) => call('udpQuery', { sock, to, payload }),
    udpProbe: (bind, to, payload, timeoutMs) => call('udpProbe', { bind, to, payload, timeoutMs }),
    udpReflect: (address, port) => call('udpReflect', { address, port }),
    tcpReflect: (address, port) => call('tcpReflect', { address, port }),
    tcpServe: (port, text, address) => call('tcpServe', { port, text, address }),
    tcpQuery: (to, bind) => call('tcpQuery', { to, bind }),
    stun: (sock, to) => call('stun', { sock, to }),
    received: (sock) => call('received', { sock }),
    close: async (sock) => {
      await call('close', { sock });
    },
    stop: () => child.stdin?.end(),
  };
}

/** "a.b.c.d:port" as an endpoint. */
export function endpoint(s: string): Endpoint {
  const colon = s.lastIndexOf(':');
  return { address: s.slice(0, colon), port: Number(s.slice(colon + 1)) };
}
