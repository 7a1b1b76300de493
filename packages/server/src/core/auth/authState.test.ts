import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthState } from './authState.js';

const STEP_MS = 30_000;

describe('AuthState', () => {
  it('a TOTP step is accepted once, and stays used in a new instance on the same dir (a restart)', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-authstate-'));
    const now = 1_800_000_000_000;
    const step = Math.floor(now / STEP_MS);
    const a = new AuthState(dir);
    await a.load();
    const parallel = await Promise.all([a.acceptTotpStep(step, now), a.acceptTotpStep(step, now)]);
    expect(parallel.filter(Boolean)).toHaveLength(1);
    const b = new AuthState(dir);
    await b.load();
    expect(await b.acceptTotpStep(step, now)).toBe(false);
    expect(await b.acceptTotpStep(step - 1, now)).toBe(false);
    expect(await b.acceptTotpStep(step + 1, now)).toBe(true);
    expect((await fs.stat(path.join(dir, 'auth-state.json'))).mode & 0o777).toBe(0o600);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('a saved step far ahead of a clock that was set back does not refuse every code', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-authstate-'));
    const now = 1_800_000_000_000;
    const s = new AuthState(dir);
    expect(await s.acceptTotpStep(Math.floor(now / STEP_MS) + 1000, now + 1000 * STEP_MS)).toBe(true);
    expect(await s.acceptTotpStep(Math.floor(now / STEP_MS), now)).toBe(true);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('keeps token uses (time, address) across instances once flushed, and forgets removed tokens', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-authstate-'));
    const a = new AuthState(dir);
    a.tokenUsed('t1', '192.168.1.9');
    a.tokenUsed('t2', '10.0.0.1');
    await a.flush();
    const b = new AuthState(dir);
    await b.load();
    expect(b.tokenUse('t1')).toMatchObject({ ip: '192.168.1.9' });
    await b.forgetTokens(new Set(['t2']));
    expect(b.tokenUse('t1')).toBeUndefined();
    expect(b.tokenUse('t2')).toMatchObject({ ip: '10.0.0.1' });
    await fs.rm(dir, { recursive: true, force: true });
  });
});
