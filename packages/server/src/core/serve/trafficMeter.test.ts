import { describe, expect, it } from 'vitest';
import { TrafficMeter } from './trafficMeter.js';

describe('TrafficMeter', () => {
  it('gives totals at once and rates from the second sample on, per second of the clock', () => {
    let now = 0;
    const m = new TrafficMeter(() => now);
    m.sample({ connections: 2, requests: 10, bytesIn: 1000, bytesOut: 5000 });
    expect(m.figures).toEqual({
      connections: 2,
      requests: 10,
      bytesIn: 1000,
      bytesOut: 5000,
      requestRate: 0,
      rateIn: 0,
      rateOut: 0,
    });
    now = 2000; // two seconds later
    m.sample({ connections: 3, requests: 30, bytesIn: 3000, bytesOut: 25_000 });
    expect(m.figures).toMatchObject({ connections: 3, requests: 30, requestRate: 10, rateIn: 1000, rateOut: 10_000 });
  });

  it('never reports a negative rate when a total goes down', () => {
    let now = 0;
    const m = new TrafficMeter(() => now);
    m.sample({ connections: 1, requests: 100, bytesIn: 9000, bytesOut: 9000 });
    now = 1000;
    m.sample({ connections: 0, requests: 40, bytesIn: 100, bytesOut: 200 });
    expect(m.figures).toMatchObject({ requestRate: 0, rateIn: 0, rateOut: 0, requests: 40 });
    now = 1500;
    m.sample({ connections: 0, requests: 45, bytesIn: 600, bytesOut: 200 });
    expect(m.figures).toMatchObject({ requestRate: 10, rateIn: 1000, rateOut: 0 });
  });
});
