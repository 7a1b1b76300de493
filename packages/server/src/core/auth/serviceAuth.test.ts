import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FairGate } from './fairGate.js';
import * as password from './password.js';
import { ServiceAuth } from './serviceAuth.js';

let aliceHash = '';
beforeAll(async () => {
  aliceHash = await password.hashPassword('correct horse');
});

const make = (maxFailures = 3) => {
  let now = 1_000_000;
  const auth = new ServiceAuth(
    new FairGate(2),
    () => ({ maxFailures, lockMs: 60_000 }),
    () => now,
  );
  const users = new Map<string, string>([['alice', aliceHash]]);
  return { auth, users, hashOf: (u: string) => users.get(u), advance: (ms: number) => (now += ms) };
};

describe('ServiceAuth', () => {
  it('accepts the right password and refuses a wrong one or an unknown user alike', async () => {
    const { auth, hashOf } = make(10);
    expect(await auth.check('10.0.0.1', 'alice', 'correct horse', hashOf)).toEqual({ ok: true, user: 'alice' });
    expect(await auth.check('10.0.0.1', 'alice', 'wrong', hashOf)).toEqual({ ok: false, reason: 'bad' });
    expect(await auth.check('10.0.0.1', 'mallory', 'correct horse', hashOf)).toEqual({ ok: false, reason: 'bad' });
  });

  it('remembers a password that checked out, so the next request costs no scrypt', async () => {
    const { auth, hashOf } = make(10);
    const verify = vi.spyOn(password, 'verifyPassword');
    try {
      await auth.check('10.0.0.1', 'alice', 'correct horse', hashOf);
      const calls = verify.mock.calls.length;
      for (let i = 0; i < 20; i++)
        expect((await auth.check('10.0.0.2', 'alice', 'correct horse', hashOf)).ok).toBe(true);
      expect(verify.mock.calls.length).toBe(calls);
      // A wrong password is never answered from the cache.
      expect((await auth.check('10.0.0.1', 'alice', 'correct horsE', hashOf)).ok).toBe(false);
      expect(verify.mock.calls.length).toBe(calls + 1);
    } finally {
      verify.mockRestore();
    }
  });

  it('a changed password misses the cache; forget() empties it', async () => {
    const { auth, users, hashOf } = make(10);
    await auth.check('10.0.0.1', 'alice', 'correct horse', hashOf);
    users.set('alice', await password.hashPassword('battery staple'));
    expect((await auth.check('10.0.0.1', 'alice', 'correct horse', hashOf)).ok).toBe(false);
    expect((await auth.check('10.0.0.1', 'alice', 'battery staple', hashOf)).ok).toBe(true);
    auth.forget();
    const verify = vi.spyOn(password, 'verifyPassword');
    try {
      expect((await auth.check('10.0.0.1', 'alice', 'battery staple', hashOf)).ok).toBe(true);
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      verify.mockRestore();
    }
  });

  it('locks an address after the failures, even for the right password, and leaves other addresses alone', async () => {
    const { auth, hashOf, advance } = make(3);
    for (let i = 0; i < 3; i++) await auth.check('10.0.0.9', 'alice', `guess ${i}`, hashOf);
    expect(await auth.check('10.0.0.9', 'alice', 'correct horse', hashOf)).toMatchObject({
      ok: false,
      reason: 'locked',
    });
    expect(auth.retryAfterMs('10.0.0.9')).toBeGreaterThan(0);
    expect((await auth.check('10.0.0.1', 'alice', 'correct horse', hashOf)).ok).toBe(true);
    advance(60_001);
    expect((await auth.check('10.0.0.9', 'alice', 'correct horse', hashOf)).ok).toBe(true);
  });

  it('a burst of parallel guesses from one address runs at most two checks and locks it', async () => {
    const { auth, hashOf } = make(5);
    const verify = vi.spyOn(password, 'verifyPassword');
    try {
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => auth.check('10.0.0.7', 'alice', `g${i}`, hashOf)),
      );
      expect(results.every((r) => !r.ok)).toBe(true);
      expect(verify.mock.calls.length).toBeLessThanOrEqual(2);
      expect(await auth.check('10.0.0.7', 'alice', 'correct horse', hashOf)).toMatchObject({
        ok: false,
        reason: 'locked',
      });
    } finally {
      verify.mockRestore();
    }
  });
});

describe('ServiceAuth and auto-ban', () => {
  it('reports a wrong password and a guess while locked, never a right one', async () => {
    const failures: string[] = [];
    const auth = new ServiceAuth(
      new FairGate(2),
      () => ({ maxFailures: 2, lockMs: 60_000 }),
      Date.now,
      (ip) => failures.push(ip),
    );
    const hashOf = (u: string) => (u === 'alice' ? aliceHash : undefined);
    expect((await auth.check('203.0.113.1', 'alice', 'correct horse', hashOf)).ok).toBe(true);
    expect(failures).toEqual([]);
    expect(await auth.check('203.0.113.1', 'alice', 'wrong', hashOf)).toEqual({ ok: false, reason: 'bad' });
    expect(await auth.check('203.0.113.1', 'bob', 'wrong', hashOf)).toEqual({ ok: false, reason: 'bad' });
    expect((await auth.check('203.0.113.1', 'alice', 'wrong', hashOf)).ok).toBe(false);
    expect(failures).toEqual(['203.0.113.1', '203.0.113.1', '203.0.113.1']);
  });
});
