// Waiting in tests, in one place: for a condition (polled, with a deadline; the error says what
// was awaited and the last value seen) or for an event (with a deadline). A test waits for what it
// needs to have happened, never a fixed time in the hope that it has happened by then; where the
// passing time is itself the behaviour under test (a time-out, a slow peer), the test says so.
// The browser tests (e2e/) use these too.
import type { EventEmitter } from 'node:events';

// Taken when this module loads, so polling keeps real time in a test that fakes the timers
// (vi.useFakeTimers replaces the globals later): the fake clock moves only when the test says.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realNow = Date.now;

export interface WaitOptions {
  /** Give up after this many milliseconds (default 5000). */
  timeout?: number;
  /** Poll every this many milliseconds (default 20). */
  interval?: number;
  /** What is awaited, for the error message. */
  what?: string;
}

const options = (o: WaitOptions | number | undefined): WaitOptions =>
  typeof o === 'number' ? { timeout: o } : (o ?? {});

/** Resolves after `ms` real milliseconds, also under fake timers. */
export const pause = (ms: number) => new Promise<void>((r) => realSetTimeout(r, ms));

const show = (v: unknown): string => {
  try {
    return JSON.stringify(v)?.slice(0, 2000) ?? String(v);
  } catch {
    return String(v);
  }
};

/**
 * Polls `read` until its value passes `ok` (without `ok`: is truthy) and resolves with that value;
 * rejects after the deadline with the last value, or the last error `read` threw.
 */
export async function waitFor<T>(read: () => T | Promise<T>, opts?: WaitOptions | number): Promise<T>;
export async function waitFor<T>(
  read: () => T | Promise<T>,
  ok: (v: T) => boolean,
  opts?: WaitOptions | number,
): Promise<T>;
export async function waitFor<T>(
  read: () => T | Promise<T>,
  okOrOpts?: ((v: T) => boolean) | WaitOptions | number,
  maybeOpts?: WaitOptions | number,
): Promise<T> {
  const ok = typeof okOrOpts === 'function' ? okOrOpts : (v: T) => Boolean(v);
  const { timeout = 5000, interval = 20, what } = options(typeof okOrOpts === 'function' ? maybeOpts : okOrOpts);
  const until = realNow() + timeout;
  for (;;) {
    let last: string;
    try {
      const v = await read();
      if (ok(v)) return v;
      last = `last value ${show(v)}`;
    } catch (err) {
      last = `last error ${(err as Error).message ?? err}`;
    }
    if (realNow() > until) throw new Error(`${what ?? 'condition'} not reached within ${timeout} ms; ${last}`);
    await pause(interval);
  }
}

/**
 * Whether `cond` stayed false for all of `ms` (polled). The waiting is the point here: a test that
 * proves something does NOT happen has to give it the time it would take.
 */
export async function staysFalse(cond: () => boolean | Promise<boolean>, ms: number, interval = 50): Promise<boolean> {
  const until = realNow() + ms;
  for (;;) {
    if (await cond()) return false;
    if (realNow() >= until) return true;
    await pause(Math.min(interval, Math.max(1, until - realNow())));
  }
}

/**
 * The arguments of `emitter`'s next `name` event; rejects on an 'error' event first (unless that
 * is the event awaited) or after the deadline.
 */
export function nextEvent<A extends unknown[] = unknown[]>(
  emitter: EventEmitter,
  name: string,
  opts?: WaitOptions | number,
): Promise<A> {
  const { timeout = 5000, what } = options(opts);
  return new Promise<A>((resolve, reject) => {
    const done = () => {
      realClearTimeout(timer);
      emitter.off(name, onEvent);
      if (name !== 'error') emitter.off('error', onError);
    };
    const onEvent = (...args: unknown[]) => {
      done();
      resolve(args as A);
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const timer = realSetTimeout(() => {
      done();
      reject(new Error(`no '${name}' event${what ? ` (${what})` : ''} within ${timeout} ms`));
    }, timeout);
    emitter.on(name, onEvent);
    if (name !== 'error') emitter.on('error', onError);
  });
}
