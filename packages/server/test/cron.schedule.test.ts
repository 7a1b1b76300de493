// The scheduler's clock is injected: a fake one here, stepped from timer to timer, drives tasks
// across the DST change days of two zones. A daily 02:30 task runs once on each: on the spring
// day (02:30 does not exist) at 03:00, on the autumn day (02:30 happens twice) at the first one.
import { describe, expect, it } from 'vitest';
import { compileSchedule, isoInZone, previewTimes } from '../src/modules/cron/schedule.js';
import { type Clock, TaskScheduler } from '../src/modules/cron/scheduler.js';

/** A clock whose time moves only to the next pending timer. */
class FakeClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private seq = 0;
  constructor(public t: number) {}
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.seq;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers = this.timers.filter((x) => x.id !== h);
  };
  /** Fire timers in time order until `until`. */
  runUntil(until: number): void {
    for (let guard = 0; guard < 100_000; guard++) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > until) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = until;
  }
}

/** Due times (in the zone's wall time) of a schedule between two instants. */
function fires(schedule: Parameters<typeof compileSchedule>[0], zone: string, from: string, to: string): string[] {
  const clock = new FakeClock(Date.parse(from));
  const seen: string[] = [];
  const s = new TaskScheduler(clock, (_key, at) => seen.push(isoInZone(at, zone)));
  s.set('T', compileSchedule(schedule, zone, clock.now()));
  clock.runUntil(Date.parse(to));
  s.clear();
  return seen;
}

const daily0230 = { kind: 'cron', expression: '30 2 * * *' } as const;

describe('cron scheduling across DST (fake clock)', () => {
  it('Europe/Berlin spring: 02:30 does not exist on 29 March, the task runs once at 03:00', () => {
    expect(fires(daily0230, 'Europe/Berlin', '2026-03-27T12:00:00Z', '2026-03-30T12:00:00Z')).toEqual([
      '2026-03-28T02:30:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-30T02:30:00+02:00',
    ]);
  });

  it('Europe/Berlin autumn: 02:30 happens twice on 25 October, the task runs once', () => {
    expect(fires(daily0230, 'Europe/Berlin', '2026-10-23T12:00:00Z', '2026-10-26T12:00:00Z')).toEqual([
      '2026-10-24T02:30:00+02:00',
      '2026-10-25T02:30:00+02:00',
      '2026-10-26T02:30:00+01:00',
    ]);
  });

  it('America/New_York spring (8 March) and autumn (1 November): once a day each', () => {
    expect(fires(daily0230, 'America/New_York', '2026-03-07T12:00:00Z', '2026-03-09T12:00:00Z')).toEqual([
      '2026-03-08T03:00:00-04:00',
      '2026-03-09T02:30:00-04:00',
    ]);
    // Here the repeated hour is 01:00–02:00: a 01:30 task is the one that meets it, and runs once.
    const daily0130 = { kind: 'cron', expression: '0 30 1 * * *' } as const;
    expect(fires(daily0130, 'America/New_York', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z')).toEqual([
      '2026-11-01T01:30:00-04:00',
      '2026-11-02T01:30:00-05:00',
    ]);
    expect(fires(daily0230, 'America/New_York', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z')).toEqual([
      '2026-11-01T02:30:00-05:00',
      '2026-11-02T02:30:00-05:00',
    ]);
  });

  it('an interval task counts real time, not wall time: every 30 minutes through the Berlin spring gap', () => {
    const got = fires(
      { kind: 'interval', every: 30, unit: 'minutes' },
      'Europe/Berlin',
      '2026-03-29T00:00:00Z',
      '2026-03-29T02:00:00Z',
    );
    expect(got).toEqual([
      '2026-03-29T01:30:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T03:30:00+02:00',
      '2026-03-29T04:00:00+02:00',
    ]);
  });

  it('seconds are optional: a six-field expression runs each 15 s', () => {
    expect(
      fires({ kind: 'cron', expression: '*/15 * * * * *' }, 'UTC', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z'),
    ).toEqual([
      '2026-01-01T00:00:15+00:00',
      '2026-01-01T00:00:30+00:00',
      '2026-01-01T00:00:45+00:00',
      '2026-01-01T00:01:00+00:00',
    ]);
  });

  it('a far due time is waited for in slices, and fires once', () => {
    // Yearly: 1 January 00:00; waits are cut to an hour, so ~8760 wake-ups, one run.
    expect(
      fires({ kind: 'cron', expression: '0 0 1 1 *' }, 'UTC', '2026-01-01T00:00:01Z', '2027-01-01T00:00:00Z'),
    ).toEqual(['2027-01-01T00:00:00+00:00']);
  });

  it('a removed task never fires', () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const seen: number[] = [];
    const s = new TaskScheduler(clock, (_k, at) => seen.push(at));
    s.set('T', compileSchedule({ kind: 'interval', every: 1, unit: 'seconds' }, 'UTC', clock.now()));
    clock.runUntil(clock.now() + 2500);
    s.remove('T');
    clock.runUntil(clock.now() + 10_000);
    expect(seen).toHaveLength(2);
  });

  it('preview: the next five times with the zone offset', () => {
    const from = Date.parse('2026-03-27T12:00:00Z');
    expect(previewTimes('30 2 * * *', 'Europe/Berlin', 5, from)).toEqual([
      '2026-03-28T02:30:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-30T02:30:00+02:00',
      '2026-03-31T02:30:00+02:00',
      '2026-04-01T02:30:00+02:00',
    ]);
  });
});
