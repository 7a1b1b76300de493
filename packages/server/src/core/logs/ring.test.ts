import { describe, expect, it } from 'vitest';
import { LogRing } from './ring.js';

describe('LogRing', () => {
  it('gives strictly increasing timestamps even within one clock tick', () => {
    const ring = new LogRing(1000);
    const ts = Array.from({ length: 500 }, (_, i) => BigInt(ring.push(`line ${i}`)));
    for (let i = 1; i < ts.length; i++) expect(ts[i] > ts[i - 1]).toBe(true);
  });

  it('answers only lines after `pre`, none twice', () => {
    const ring = new LogRing(100);
    ring.push('a');
    ring.push('b');
    const first = ring.since();
    expect(first.map((l) => l.log)).toEqual(['a', 'b']);
    ring.push('c');
    const next = ring.since(first[1].timestamp);
    expect(next.map((l) => l.log)).toEqual(['c']);
    expect(ring.since(next[0].timestamp)).toEqual([]);
  });

  it('keeps only the newest `capacity` lines and can be resized', () => {
    const ring = new LogRing(10);
    for (let i = 0; i < 100; i++) ring.push(`l${i}`);
    const all = ring.since();
    expect(all).toHaveLength(10);
    expect(all[9].log).toBe('l99');
    ring.setCapacity(3);
    expect(ring.since().map((l) => l.log)).toEqual(['l97', 'l98', 'l99']);
  });

  it('ignores a malformed pre and returns everything', () => {
    const ring = new LogRing(10);
    ring.push('x');
    expect(ring.since('abc')).toHaveLength(1);
    expect(ring.since('9'.repeat(40))).toHaveLength(1);
  });
});
