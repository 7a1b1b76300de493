import { describe, expect, it } from 'vitest';
import { SHARE_FACTOR, SharePasswordThrottle } from './throttle.js';

describe('SharePasswordThrottle', () => {
  const make = () => {
    let now = 1_000_000;
    const t = new SharePasswordThrottle(
      () => ({ maxFailures: 3, lockMs: 60_000 }),
      () => now,
    );
    return { t, advance: (ms: number) => (now += ms) };
  };
  const fail = (t: SharePasswordThrottle, ip: string, share = 'S') => {
    const a = t.admit(ip, share);
    if (!a.ok) return a;
    return { ok: true as const, ...t.settle(ip, share, 'failure') };
  };

  it('locks one address after maxFailures, the right password included, and no other address', () => {
    const { t, advance } = make();
    expect(fail(t, '10.0.0.1')).toMatchObject({ ok: true, lockedMs: 0 });
    expect(fail(t, '10.0.0.1')).toMatchObject({ ok: true, lockedMs: 0 });
    // The third is still checked (and locks); a fourth is refused before any check.
    expect(fail(t, '10.0.0.1')).toMatchObject({ ok: true, lockedMs: 60_000 });
    expect(t.admit('10.0.0.1', 'S')).toMatchObject({ ok: false, reason: 'locked', scope: 'address' });
    expect(t.admit('10.0.0.2', 'S')).toEqual({ ok: true });
    t.settle('10.0.0.2', 'S', 'success');
    advance(60_001);
    expect(t.admit('10.0.0.1', 'S')).toEqual({ ok: true });
  });

  it('locks the link for everyone after many addresses together failed, then opens it again', () => {
    const { t, advance } = make();
    const limit = 3 * SHARE_FACTOR;
    let lockedAt = -1;
    for (let i = 0; i < limit; i++) {
      const r = fail(t, `10.1.${i}.1`);
      if (r.ok && r.lockedMs === 60_000 && lockedAt < 0) lockedAt = i;
    }
    expect(lockedAt).toBe(limit - 1);
    expect(t.admit('192.168.7.7', 'S')).toMatchObject({ ok: false, reason: 'locked', scope: 'share' });
    // Another link is not affected.
    expect(t.admit('192.168.7.7', 'T')).toEqual({ ok: true });
    t.settle('192.168.7.7', 'T', 'success');
    advance(60_001);
    expect(t.admit('192.168.7.7', 'S')).toEqual({ ok: true });
  });

  it('forgets a link’s failures older than the lock time', () => {
    const { t, advance } = make();
    for (let i = 0; i < 3 * SHARE_FACTOR - 1; i++) fail(t, `10.2.${i}.1`);
    advance(60_001);
    expect(fail(t, '10.3.0.1')).toMatchObject({ ok: true, lockedMs: 0 });
    expect(t.admit('10.3.0.2', 'S')).toEqual({ ok: true });
  });
});
