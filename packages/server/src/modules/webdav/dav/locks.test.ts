import { describe, expect, it } from 'vitest';
import { LockManager } from './locks.js';

const base = { storage: 's', rootHref: '/x', owner: '', user: 'u', timeoutSec: 60 } as const;

describe('LockManager', () => {
  it('covers a path by locks on it and depth-infinity locks above', () => {
    const m = new LockManager();
    const deep = m.create({ ...base, path: '/a', depth: 'infinity', scope: 'shared' });
    const flat = m.create({ ...base, path: '/b', depth: 0, scope: 'exclusive' });
    expect(m.covering('s', '/a/x/y')).toEqual([deep]);
    expect(m.covering('s', '/b')).toEqual([flat]);
    expect(m.covering('s', '/b/child')).toEqual([]);
    expect(m.covering('other', '/a')).toEqual([]);
    expect(m.within('s', '/')).toHaveLength(2);
  });

  it('finds conflicts: exclusive against anything, shared with shared allowed, depth infinity below', () => {
    const m = new LockManager();
    m.create({ ...base, path: '/a/b', depth: 0, scope: 'shared' });
    expect(m.conflict('s', '/a/b', 0, 'shared')).toBeUndefined();
    expect(m.conflict('s', '/a/b', 0, 'exclusive')?.path).toBe('/a/b');
    expect(m.conflict('s', '/a', 0, 'exclusive')).toBeUndefined();
    expect(m.conflict('s', '/a', 'infinity', 'exclusive')?.path).toBe('/a/b');
  });

  it('caps time-outs and forgets expired locks', () => {
    let now = 1_000_000;
    const m = new LockManager({ now: () => now, maxTimeoutSec: 100 });
    expect(m.timeoutFrom('Infinite')).toBe(100);
    expect(m.timeoutFrom('Second-5')).toBe(5);
    expect(m.timeoutFrom('Second-99999')).toBe(100);
    expect(m.timeoutFrom('garbage, Second-7')).toBe(7);
    const l = m.create({ ...base, path: '/a', depth: 0, scope: 'exclusive', timeoutSec: 5 });
    expect(l?.token).toMatch(/^urn:uuid:/);
    now += 4_000;
    expect(m.get(l?.token ?? '')).toBe(l);
    now += 2_000;
    expect(m.get(l?.token ?? '')).toBeUndefined();
    expect(m.size).toBe(0);
  });

  it('refuses new locks once the table is full', () => {
    const m = new LockManager({ maxLocks: 2 });
    expect(m.create({ ...base, path: '/1', depth: 0, scope: 'shared' })).toBeDefined();
    expect(m.create({ ...base, path: '/2', depth: 0, scope: 'shared' })).toBeDefined();
    expect(m.create({ ...base, path: '/3', depth: 0, scope: 'shared' })).toBeUndefined();
  });

  it('keeps one user to their share of the table', () => {
    const m = new LockManager({ maxLocksPerUser: 1 });
    expect(m.create({ ...base, path: '/1', depth: 0, scope: 'shared' })).toBeDefined();
    expect(m.create({ ...base, path: '/2', depth: 0, scope: 'shared' })).toBeUndefined();
    expect(m.create({ ...base, user: 'other', path: '/2', depth: 0, scope: 'shared' })).toBeDefined();
  });

  it('drops the locks below a deleted or moved path', () => {
    const m = new LockManager();
    m.create({ ...base, path: '/a/b', depth: 0, scope: 'shared' });
    m.create({ ...base, path: '/ab', depth: 0, scope: 'shared' });
    m.removeWithin('s', '/a');
    expect(m.within('s', '/').map((l) => l.path)).toEqual(['/ab']);
  });
});
