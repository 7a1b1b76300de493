import { describe, expect, it } from 'vitest';
import { duration, percent, rate, size } from './format';
import { pushSample } from './history';
import { normalizeStatus } from './statusData';

const status = (rx: number, tx: number, cpu = 10) =>
  normalizeStatus({
    cpu: { percent: cpu, cores: 4, model: 'x' },
    memory: { total: 1000, used: 250, free: 750, percent: 25 },
    interfaces: [
      { name: 'eth0', rxBytes: rx, txBytes: tx, addresses: [] },
      { name: 'lo', rxBytes: 0, txBytes: 0 },
    ],
  });

describe('status history', () => {
  it('computes the network rate between samples', () => {
    let h = pushSample([], status(1000, 500), 10_000);
    expect(h[0].netRate).toBeNull();
    h = pushSample(h, status(3000, 1500), 12_000);
    expect(h[1]).toMatchObject({ rxRate: 1000, txRate: 500, netRate: 1500, cpu: 10, memory: 25 });
  });

  it('has no rate across a counter reset', () => {
    const h = pushSample(pushSample([], status(5000, 5000), 0), status(10, 10), 1000);
    expect(h[1].netRate).toBeNull();
  });

  it('keeps only the last N samples', () => {
    let h: ReturnType<typeof pushSample> = [];
    for (let i = 0; i < 10; i++) h = pushSample(h, status(i, i, i), i * 1000, 4);
    expect(h.map((s) => s.cpu)).toEqual([6, 7, 8, 9]);
  });
});

describe('status data', () => {
  it('survives missing and odd fields', () => {
    const d = normalizeStatus({ cpu: 'busy', load: [0.5], modules: [{ key: 'ddns', state: 'weird' }, 7] });
    expect(d.cpu.percent).toBeNull();
    expect(d.load).toEqual([0.5, null, null]);
    expect(d.modules[0]).toEqual({ key: 'ddns', state: 'unknown' });
    expect(d.interfaces).toEqual([]);
    expect(normalizeStatus(undefined).memory.total).toBeNull();
  });

  it('derives the memory percentage from bytes when absent', () => {
    expect(normalizeStatus({ memory: { total: 2000, used: 500 } }).memory.percent).toBe(25);
  });

  it('keeps module errors', () => {
    const d = normalizeStatus({ modules: [{ key: 'stun', state: 'error', error: 'port 3478 in use' }] });
    expect(d.modules).toEqual([{ key: 'stun', state: 'error', error: 'port 3478 in use' }]);
  });
});

describe('formatting', () => {
  it('uses base 1000 and three significant digits', () => {
    expect(size(1234567)).toBe('1.23 MB');
    expect(size(999)).toBe('999 B');
    expect(size(null)).toBe('-');
    expect(rate(1500)).toBe('1.5 KB/s');
    expect(percent(12.345)).toBe('12.3%');
  });

  it('formats durations with locale units', () => {
    const u = { d: 'd', h: 'h', m: 'm', s: 's' };
    expect(duration(93784, u)).toBe('1d 2h 3m');
    expect(duration(3725, u)).toBe('1h 2m');
    expect(duration(61, u)).toBe('1m 1s');
    expect(duration(null, u)).toBe('-');
  });
});
