// Open connections and sessions asked again when the security lists change (a list saved, a ban
// added, lifted or ended): every listener that asked `admits` at accept holds its open ones up to
// the lists again through here and closes those now refused. The accept check stays where it was;
// this only reaches what was let in before the change.
import { performance } from 'node:perf_hooks';

/** Subscribe to "the decision may have changed" (SafeGate.onChange, ModuleSafe.onChange). */
export type ListsSubscribe = (cb: () => void) => () => void;

export interface RecheckTarget<T> {
  /** What is open now; taken as a snapshot when a pass starts (things that close meanwhile are skipped by `ipOf`). */
  open(): Iterable<T>;
  /** The client address the accept check asked about; undefined: closed already, or not checked. */
  ipOf(item: T): string | undefined;
  /** The accept check's own question (it logs its refusals). */
  admits(ip: string): boolean;
  /** Close a refused one (a reset for TCP, the session dropped for UDP, a 421 line first for FTP). */
  close(item: T): void;
}

/**
 * Work per turn of the event loop before yielding: 10,000 connections are spread over a few turns
 * so a change does not stall the other connections' I/O (measured: see docs/SECURITY.md).
 */
const SLICE_MS = 4;
/** Items between two looks at the clock. */
const CLOCK_EVERY = 128;

export interface ListsWatch {
  /** Stop watching; a pass under way ends at its next slice. */
  stop(): void;
  /** Resolves when no pass is under way or queued (tests, measurements). */
  idle(): Promise<void>;
  /** Start a pass now (as a change would). */
  recheck(): void;
}

/**
 * Subscribes `target` to the lists' changes. Changes that come while a pass runs start one more
 * pass after it (never two at once); a decision is asked once per address and pass.
 */
export function watchLists<T>(subscribe: ListsSubscribe, target: RecheckTarget<T>): ListsWatch {
  let stopped = false;
  let running = false;
  let again = false;
  let waiters: (() => void)[] = [];

  const settle = () => {
    const w = waiters;
    waiters = [];
    for (const fn of w) fn();
  };

  const pass = () => {
    running = true;
    again = false;
    const items = [...target.open()];
    const verdicts = new Map<string, boolean>();
    let i = 0;
    const slice = () => {
      if (stopped) {
        running = false;
        settle();
        return;
      }
      const until = performance.now() + SLICE_MS;
      while (i < items.length) {
        const item = items[i++];
        const ip = target.ipOf(item);
        if (ip) {
          let ok = verdicts.get(ip);
          if (ok === undefined) {
            ok = target.admits(ip);
            verdicts.set(ip, ok);
          }
          if (!ok) target.close(item);
        }
        if (i % CLOCK_EVERY === 0 && performance.now() >= until) {
          setImmediate(slice);
          return;
        }
      }
      if (again && !stopped) {
        pass();
        return;
      }
      running = false;
      settle();
    };
    slice();
  };

  const recheck = () => {
    if (stopped) return;
    if (running) again = true;
    else pass();
  };
  const unsubscribe = subscribe(recheck);
  return {
    stop() {
      stopped = true;
      unsubscribe();
      if (!running) settle();
    },
    idle: () => (running ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve()),
    recheck,
  };
}
