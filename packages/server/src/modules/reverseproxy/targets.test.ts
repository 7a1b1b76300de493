import type { ReverseproxyService } from '@lucky/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { noteAnswer, noteFailure, order } from './targets.js';

const service = (...targets: string[]) => ({ targets }) as unknown as ReverseproxyService;
const origins = (s: ReverseproxyService) => order(s).map((t) => t.origin);

describe('back end order (round robin, fail-over, passive health check)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('rotates the start of the list per request, the rest as fail-over', () => {
    const s = service('http://a', 'http://b', 'http://c');
    expect(origins(s)).toEqual(['http://a', 'http://b', 'http://c']);
    expect(origins(s)).toEqual(['http://b', 'http://c', 'http://a']);
    expect(origins(s)).toEqual(['http://c', 'http://a', 'http://b']);
  });

  it('puts an unreachable back end last for 10 s, then 20 s after a second failure in a row', () => {
    const s = service('http://a', 'http://b');
    const [a] = order(s);
    expect(noteFailure(a, 'ECONNREFUSED')).toBe(10_000);
    for (let i = 0; i < 4; i++) expect(origins(s)).toEqual(['http://b', 'http://a']);
    vi.advanceTimersByTime(10_001);
    // Its turn again (round robin): the next failure doubles the pause.
    const turns = [origins(s), origins(s)];
    expect(turns).toContainEqual(['http://a', 'http://b']);
    expect(noteFailure(a, 'ETIMEDOUT')).toBe(20_000);
    vi.advanceTimersByTime(15_000);
    expect(origins(s)[0]).toBe('http://b');
    expect(origins(s)[0]).toBe('http://b');
  });

  it('caps the pause at 2 minutes and clears it on the first answer', () => {
    const s = service('http://a', 'http://b');
    const [a] = order(s);
    let pause = 0;
    for (let i = 0; i < 12; i++) pause = noteFailure(a, 'EHOSTUNREACH');
    expect(pause).toBe(120_000);
    expect(noteAnswer(a)).toBe(true);
    expect(noteAnswer(a)).toBe(false);
    const firsts = new Set([origins(s)[0], origins(s)[0]]);
    expect(firsts).toEqual(new Set(['http://a', 'http://b']));
  });

  it('counts only errors that mean the back end is not there', () => {
    const s = service('http://a', 'http://b');
    const [a] = order(s);
    for (const code of ['ECONNRESET', 'EBADANSWER', 'EHEADERSTIMEOUT', 'ECLIENTABORT', undefined])
      expect(noteFailure(a, code)).toBe(0);
    expect(a.failures).toBe(0);
  });

  it('still tries every back end when all are paused, the one back soonest first', () => {
    const s = service('http://a', 'http://b', 'http://c');
    const [a, b, c] = order(s);
    noteFailure(b, 'ECONNREFUSED');
    vi.advanceTimersByTime(1000);
    noteFailure(a, 'ECONNREFUSED');
    noteFailure(c, 'ECONNREFUSED');
    noteFailure(c, 'ECONNREFUSED');
    expect(origins(s)).toEqual(['http://b', 'http://a', 'http://c']);
  });
});
