import type { StunRule } from '@lucky/shared';
import { stunRuleSchema } from '@lucky/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MappingHost } from './host.js';
import { type Endpoint, Mapping } from './mapping.js';

/** A mapping whose STUN answers the test scripts: an address, or an error. */
class ScriptedMapping extends Mapping {
  answers: Array<Endpoint | Error> = [];
  checks = 0;
  get localAddress() {
    return '0.0.0.0';
  }
  protected async ensureChannel() {}
  protected async check() {
    this.checks++;
    const a = this.answers.shift() ?? new Error('no scripted answer');
    if (a instanceof Error) throw a;
    return { mapped: a, server: 'stun.test:3478' };
  }
  protected async closeChannel() {}
  figures() {
    return { connections: 0, bytesIn: 0, bytesOut: 0, rateIn: 0, rateOut: 0 };
  }
}

function host(): MappingHost & {
  lines: Array<[string, Record<string, unknown>]>;
  changes: Array<[string, string | undefined]>;
} {
  const rule: StunRule = stunRuleSchema.parse({ key: 'R1', name: 'r', targetAddress: '127.0.0.1', targetPort: 1 });
  const lines: Array<[string, Record<string, unknown>]> = [];
  const changes: Array<[string, string | undefined]> = [];
  return {
    lines,
    changes,
    rule: () => rule,
    channel: () => ({ address: '0.0.0.0' }),
    servers: () => ['stun.test:3478'],
    serverWorked: () => undefined,
    keepAliveUrl: () => '',
    heartbeatMs: () => 25_000,
    retrySec: () => 10,
    timeoutMs: () => 5000,
    line: (_level, code, params) => lines.push([code, params]),
    addressChanged: (m, prev) =>
      changes.push([`${m.public?.address}:${m.public?.port}`, prev && `${prev.address}:${prev.port}`]),
    admits: () => true,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    signal: new AbortController().signal,
  };
}

describe('a mapping keeps its state honestly', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports the first address, checks every heartbeat, and reports a change once', async () => {
    const h = host();
    const m = new ScriptedMapping('udp', h, 40000);
    m.answers = [
      { address: '11.22.33.1', port: 40000 },
      { address: '11.22.33.1', port: 40000 },
      { address: '11.22.33.2', port: 40000 },
    ];
    expect(m.state).toBe('starting');
    expect(m.reason?.code).toBe('notObtained');
    m.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(m.state).toBe('open');
    expect(h.changes).toEqual([['11.22.33.1:40000', undefined]]);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(m.checks).toBe(2);
    expect(h.changes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(h.changes).toEqual([
      ['11.22.33.1:40000', undefined],
      ['11.22.33.2:40000', '11.22.33.1:40000'],
    ]);
    expect(m.changes).toBe(1);
    await m.stop();
    expect(m.state).toBe('stopped');
  });

  it('never opened: not penetrated; retries with the retry interval, doubling, capped', async () => {
    const h = host();
    const m = new ScriptedMapping('tcp', h, 40001);
    m.answers = [new Error('down'), new Error('down'), new Error('down'), { address: '11.22.33.1', port: 40001 }];
    m.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(m.state).toBe('broken');
    expect(m.reason?.code).toBe('notPenetrated');
    expect(m.reason?.params).toEqual({ detail: 'down' });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(m.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.checks).toBe(2);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(m.checks).toBe(3);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(m.checks).toBe(4);
    expect(m.state).toBe('open');
    // The same failure is logged once, not at every retry.
    expect(h.lines.filter(([c]) => c === 'lost')).toHaveLength(1);
    await m.stop();
  });

  it('lost after being open: penetration channel malfunction, then recovered', async () => {
    const h = host();
    const m = new ScriptedMapping('udp', h, 40002);
    m.answers = [
      { address: '11.22.33.1', port: 40002 },
      new Error('no answer'),
      { address: '11.22.33.1', port: 40002 },
    ];
    m.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(m.state).toBe('broken');
    expect(m.reason?.code).toBe('channelBroken');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(m.state).toBe('open');
    expect(h.lines.map(([c]) => c)).toContain('recovered');
    // Same address after recovery: nobody is told of a change.
    expect(h.changes).toHaveLength(1);
    await m.stop();
  });

  it('reopen asks again at once and resets the back-off', async () => {
    const h = host();
    const m = new ScriptedMapping('udp', h, 40003);
    m.answers = [new Error('x'), new Error('x'), { address: '11.22.33.1', port: 40003 }];
    m.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(m.checks).toBe(2);
    m.reopen();
    await vi.advanceTimersByTimeAsync(0);
    expect(m.checks).toBe(3);
    expect(m.state).toBe('open');
    await m.stop();
  });
});

describe('the RFC 8489 schedule fits the rule’s time-out', () => {
  it('gives the RFC’s own schedule at 39.5 s and a shorter one for shorter time-outs', async () => {
    const { rfcSchedule } = await import('./servers.js');
    expect(rfcSchedule(39_500)).toEqual({ rtoMs: 500, rc: 7, rm: 16 });
    expect(rfcSchedule(5000)).toEqual({ rtoMs: 500, rc: 4, rm: 3 });
    expect(rfcSchedule(1000)).toEqual({ rtoMs: 500, rc: 2, rm: 1 });
    expect(rfcSchedule(500)).toEqual({ rtoMs: 500, rc: 1, rm: 1 });
  });
});
