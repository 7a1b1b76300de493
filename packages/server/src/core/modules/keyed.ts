import { randomInt } from 'node:crypto';

// What every module with a list of keyed items (rules, tasks, devices) needs in its routes.

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new 16-character key not among `taken` (the server assigns keys; ~95 bits). */
export function newKey(taken: Iterable<{ key: string }> = []): string {
  const used = new Set(Array.from(taken, (x) => x.key));
  for (;;) {
    const key = Array.from({ length: 16 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');
    if (!used.has(key)) return key;
  }
}

/** Runs changes one after the other (see serialQueue). */
export type SerialQueue = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * One change at a time per module: each change reads the config the previous one saved, so two
 * quick edits cannot both start from the same old list and lose one.
 */
export function serialQueue(): SerialQueue {
  let chain: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn);
    chain = run.catch(() => {});
    return run;
  };
}
