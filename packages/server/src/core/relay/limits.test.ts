import { describe, expect, it } from 'vitest';
import { admit, Occupancy, ProxyStats, type Scope, TokenBucket } from './limits.js';

const clock = () => {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

describe('TokenBucket', () => {
  it('lets a burst through, then asks the reader to wait for the debt', () => {
    const c = clock();
    const b = new TokenBucket(1_000_000, c.now); // 1 MB/s, burst 50 KB
    expect(b.take(50_000)).toBe(0);
    // 100 KB more: 100 ms of debt.
    expect(b.take(100_000)).toBe(100);
    c.advance(100);
    expect(b.take(0)).toBe(0);
  });

  it('holds the average rate over many chunks', () => {
    const c = clock();
    const b = new TokenBucket(2_000_000, c.now);
    let bytes = 0;
    while (c.now() < 5000) {
      bytes += 65536;
      c.advance(b.take(65536) || 1);
    }
    expect(bytes / 5 / 2_000_000).toBeGreaterThan(0.98);
    expect(bytes / 5 / 2_000_000).toBeLessThan(1.03);
  });

  it('polices datagrams: passes while not in debt, drops otherwise; 0 means no limit', () => {
    const c = clock();
    const b = new TokenBucket(10_000, c.now); // capacity 4096 (the floor)
    expect(b.tryTake(4000)).toBe(true);
    expect(b.tryTake(4000)).toBe(true); // into debt by 3904
    expect(b.tryTake(1)).toBe(false);
    c.advance(400); // +4000 tokens
    expect(b.tryTake(100)).toBe(true);
    b.setRate(0);
    expect(b.take(1e9)).toBe(0);
    expect(b.tryTake(1e9)).toBe(true);
  });
});

describe('admit', () => {
  const scope = (name: Scope['name'], tcp: number, udp: number, perIp: number): Scope => ({
    name,
    occupancy: new Occupancy(),
    caps: { tcp, udp, perIp },
  });

  it('checks every scope, counts into all of them, and releases once', () => {
    const g = scope('global', 3, 1, 0);
    const r = scope('rule', 2, 5, 0);
    const a = admit('tcp', '1.1.1.1', [g, r]);
    const b = admit('tcp', '1.1.1.2', [g, r]);
    expect(a.ok && b.ok).toBe(true);
    expect(admit('tcp', '1.1.1.3', [g, r])).toEqual({ ok: false, code: 'ruleTcpLimit', cap: 2 });
    if (a.ok) {
      a.release();
      a.release();
    }
    expect(g.occupancy.tcp).toBe(1);
    expect(r.occupancy.tcp).toBe(1);
    expect(admit('udp', '1.1.1.1', [g, r]).ok).toBe(true);
    expect(admit('udp', '1.1.1.1', [g, r])).toEqual({ ok: false, code: 'globalUdpLimit', cap: 1 });
  });

  it('caps one client address over TCP and UDP together', () => {
    const s = scope('global', 10, 10, 2);
    expect(admit('tcp', '::1', [s]).ok).toBe(true);
    expect(admit('udp', '::1', [s]).ok).toBe(true);
    expect(admit('tcp', '::1', [s])).toEqual({ ok: false, code: 'globalPerIpLimit', cap: 2 });
    expect(admit('tcp', '127.0.0.1', [s]).ok).toBe(true);
  });
});

describe('ProxyStats', () => {
  it('turns byte counters into per-second rates', () => {
    const c = clock();
    const s = new ProxyStats(c.now);
    s.bytesIn = 5000;
    s.bytesOut = 1000;
    c.advance(500);
    s.sample();
    expect([s.rateIn, s.rateOut]).toEqual([10000, 2000]);
    c.advance(1000);
    s.sample();
    expect([s.rateIn, s.rateOut]).toEqual([0, 0]);
  });
});
