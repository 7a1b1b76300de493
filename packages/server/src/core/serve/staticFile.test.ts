import { describe, expect, it } from 'vitest';
import { parseRange } from './staticFile.js';

describe('parseRange', () => {
  it('reads single byte ranges: closed, open, suffix; clamps the end', () => {
    expect(parseRange('bytes=0-4', 10)).toEqual([0, 4]);
    expect(parseRange('bytes=7-', 10)).toEqual([7, 9]);
    expect(parseRange('bytes=-3', 10)).toEqual([7, 9]);
    expect(parseRange('bytes=-30', 10)).toEqual([0, 9]);
    expect(parseRange('bytes=5-100', 10)).toEqual([5, 9]);
  });

  it('says unsatisfiable past the end, and ignores what is not one valid range', () => {
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=20-30', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-0', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 10)).toBeUndefined();
    expect(parseRange('bytes=0-1,4-5', 10)).toBeUndefined();
    expect(parseRange('items=0-1', 10)).toBeUndefined();
    expect(parseRange('bytes=-', 10)).toBeUndefined();
  });
});
