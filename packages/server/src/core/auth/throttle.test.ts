import { describe, expect, it } from 'vitest';
import { LoginThrottle, PER_ADDRESS_IN_FLIGHT } from './throttle.js';

const make = (maxFailures = 5, lockMs = 60_000) => {
  let now = 1_000_000;
  const t = new LoginThrottle(
    () => ({ maxFailures, lockMs }),
    () => now,
  );
  return { t, advance: (ms: number) => (now += ms) };
};

describe('LoginThrottle', () => {
  it('counts an attempt when it is admitted, before its outcome is known', () => {
    const { t } = make(3);
    const admitted = [t.admit('10.0.0.1'), t.admit('10.0.0.1')];
    expect(admitted.map((a) => a.ok)).toEqual([true, true]);
    // Both still in flight: a third is refused at once, and counted, so the address is now locked.
    const third = t.admit('10.0.0.1');
    expect(third).toMatchObject({ ok: false, reason: 'busy' });
    expect(t.retryAfterMs('10.0.0.1')).toBe(60_000);
    expect(t.admit('10.0.0.1')).toMatchObject({ ok: false, reason: 'locked' });
  });

  it(`lets at most ${PER_ADDRESS_IN_FLIGHT} checks per address run, and others' addresses are untouched`, () => {
    const { t } = make(100);
    const results = Array.from({ length: 50 }, () => t.admit('10.0.0.1'));
    expect(results.filter((r) => r.ok)).toHaveLength(PER_ADDRESS_IN_FLIGHT);
    expect(t.admit('10.0.0.2').ok).toBe(true);
  });

  it('a success clears the count and the lock; a refund gives one count back', () => {
    const { t } = make(3);
    const a = t.admit('10.0.0.1');
    t.settle('10.0.0.1', 'failure');
    const b = t.admit('10.0.0.1');
    expect(b).toMatchObject({ ok: true, attemptsLeft: 1 });
    t.settle('10.0.0.1', 'refund');
    expect(t.admit('10.0.0.1')).toMatchObject({ ok: true, attemptsLeft: 1 });
    t.settle('10.0.0.1', 'success');
    expect(a.ok && t.retryAfterMs('10.0.0.1')).toBe(0);
    expect(t.admit('10.0.0.1')).toMatchObject({ ok: true, attemptsLeft: 2 });
  });

  it('the last allowed attempt locks the address while it is checked; the lock ends after lockMs', () => {
    const { t, advance } = make(3, 1000);
    for (let i = 0; i < 3; i++) {
      expect(t.admit('10.0.0.1').ok).toBe(true);
      t.settle('10.0.0.1', 'failure');
    }
    expect(t.admit('10.0.0.1')).toMatchObject({ ok: false, reason: 'locked', retryAfterMs: 1000 });
    advance(1001);
    expect(t.admit('10.0.0.1')).toMatchObject({ ok: true, attemptsLeft: 2 });
  });

  it('keys IPv6 by /64 and IPv4-mapped addresses as IPv4', () => {
    expect(LoginThrottle.keyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(LoginThrottle.keyOf('::ffff:192.168.1.5')).toBe('192.168.1.5');
  });
});
