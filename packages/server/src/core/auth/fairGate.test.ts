import { describe, expect, it } from 'vitest';
import { FairGate, GateFullError } from './fairGate.js';

/** A job that ends when its `done` is called, recording its start order. */
function jobs() {
  const started: string[] = [];
  const finishers: Array<() => void> = [];
  const job = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.push(() => resolve(name));
    });
  const finishNext = async () => {
    finishers.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { started, job, finishNext };
}

describe('FairGate', () => {
  it('runs at most `limit` at once and takes waiters from the keys in turn', async () => {
    const gate = new FairGate(1);
    const { started, job, finishNext } = jobs();
    const all = [
      ...['a1', 'a2', 'a3', 'a4'].map((n) => gate.run('a', job(n))),
      gate.run('b', job('b1')),
      gate.run('c', job('c1')),
    ];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['a1']);
    expect(gate.load).toEqual({ active: 1, waiting: 5 });
    for (let i = 0; i < 6; i++) await finishNext();
    // The flood from `a` does not hold `b` and `c` behind all of its waiters.
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'a4']);
    expect(await Promise.all(all)).toHaveLength(6);
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('refuses when too many wait, and frees the slot when a job throws', async () => {
    const gate = new FairGate(1, 1);
    const { job, finishNext } = jobs();
    const first = gate.run('a', job('x'));
    const second = gate.run('b', job('y'));
    await expect(gate.run('c', job('z'))).rejects.toBeInstanceOf(GateFullError);
    await finishNext();
    await finishNext();
    await Promise.all([first, second]);
    await expect(gate.run('d', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});
