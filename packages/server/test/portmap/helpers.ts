// Running the port-mapping clients inside the lab's home namespace (run.ts through runInNs).
import { createInterface } from 'node:readline';
import type { PortMapMethod, PortMappingRequest, PortMappingState } from '../../src/modules/stun/portmap/mapping.js';
import { type Agent, startAgent } from '../natlab/agentClient.js';
import { createLab, type Lab, nodeCommand, runInNs, type UpnpLease } from '../natlab/lab.js';
import type { Call } from './run.js';

/** A lab with miniupnpd on its router and agents in home and public. */
export async function labWithMiniupnpd(): Promise<{ lab: Lab; home: Agent; pub: Agent }> {
  const lab = await createLab();
  try {
    await lab.startMiniupnpd();
    const [home, pub] = await Promise.all([startAgent(lab, lab.home), startAgent(lab, lab.pub)]);
    return { lab, home, pub };
  } catch (err) {
    await lab.destroy();
    throw err;
  }
}

/** miniupnpd's mapping of an external port, if it holds one. */
export const leaseOf = (leases: UpnpLease[], protocol: string, externalPort: number) =>
  leases.find((l) => l.protocol === protocol && l.externalPort === externalPort);

const RUN = new URL('./run.ts', import.meta.url).pathname;
const KEEP = new URL('./keep.ts', import.meta.url).pathname;

export interface CodedFailure {
  code: string;
  params: Record<string, unknown>;
  text: string;
}

export type Outcome<T> = { ok: T; error?: undefined } | { ok?: undefined; error: CodedFailure };

/** The call's result in home; a coded failure comes back as `error`. */
export function inHome<T>(lab: Lab, call: Call): Promise<Outcome<T>> {
  return runInNs<Outcome<T>>(lab.home, RUN, [JSON.stringify(call)]);
}

/** The result of a call that must succeed. */
export async function okInHome<T>(lab: Lab, call: Call): Promise<T> {
  const out = await inHome<T>(lab, call);
  if (out.error) throw new Error(`${call.op} failed in home: ${out.error.code}: ${out.error.text}`);
  return out.ok as T;
}

/** Several calls in one process, in order; each must succeed. */
export async function okInHomeAll(lab: Lab, calls: Call[]): Promise<unknown[]> {
  const outs = await runInNs<Outcome<unknown>[]>(lab.home, RUN, [JSON.stringify(calls)]);
  return outs.map((out, i) => {
    if (out.error) throw new Error(`${calls[i].op} failed in home: ${out.error.code}: ${out.error.text}`);
    return out.ok;
  });
}

export type KeepEvent = { t: 'change' | 'renew'; state: PortMappingState } | { t: 'stopped' };

export interface Kept {
  /** Every event so far, in order. */
  events: KeepEvent[];
  /** Resolves with the first event (already seen or still to come) that passes `pred`. */
  next(pred: (e: KeepEvent) => boolean, what: string, timeoutMs?: number): Promise<KeepEvent>;
  /** Stops the mapping (it deletes it) and resolves once the process has exited; again: the same. */
  stop(): Promise<KeepEvent[]>;
}

const running = new Set<Kept>();

/** Stops every kept mapping still running (afterEach: a failed test leaves none behind). */
export async function stopAllKept(): Promise<void> {
  await Promise.all([...running].map((k) => k.stop()));
}

/** A PortMapping kept in home (keep.ts), its events streamed to the test as they happen. */
export function keepInHome(lab: Lab, method: PortMapMethod, req: PortMappingRequest): Kept {
  const [node, args] = nodeCommand(KEEP, [JSON.stringify({ method, req })]);
  const child = lab.spawn(lab.home, node, args);
  const events: KeepEvent[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    events.push(JSON.parse(line) as KeepEvent);
    for (const w of waiters) w();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kept: Kept = {
    events,
    next: (pred, what, timeoutMs = 15_000) =>
      new Promise<KeepEvent>((resolve, reject) => {
        const check = () => {
          const hit = events.find(pred);
          if (!hit) return;
          done();
          resolve(hit);
        };
        const done = () => {
          waiters.delete(check);
          clearTimeout(timer);
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `keep.ts: no ${what} within ${timeoutMs} ms; events ${JSON.stringify(events)} ${stderr.slice(-1000)}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    stop: async () => {
      child.stdin?.end();
      await exited;
      running.delete(kept);
      return events;
    },
  };
  running.add(kept);
  return kept;
}
