import os from 'node:os';
import { reverseproxyRuleSchema } from '@lucky/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { staysFalse, waitFor } from '../../../test/wait.js';
import { silentLogger } from '../../core/logs/logger.js';
import { HelperPool, helperSettings, type Load } from './helperPool.js';

describe('helperSettings', () => {
  const cores = os.availableParallelism();
  const byDefault = Math.min(Math.max(cores - 1, 0), 3);

  it('defaults to one helper per further core, at most 3, started under load', () => {
    expect(helperSettings({})).toEqual({ max: byDefault, eager: false });
  });

  it('takes LUCKY_WEB_HELPERS as the count (0 turns them off, at most 16)', () => {
    expect(helperSettings({ LUCKY_WEB_HELPERS: '0' }).max).toBe(0);
    expect(helperSettings({ LUCKY_WEB_HELPERS: '2' }).max).toBe(2);
    expect(helperSettings({ LUCKY_WEB_HELPERS: '99' }).max).toBe(16);
  });

  it('ignores a count that is not a number or negative', () => {
    expect(helperSettings({ LUCKY_WEB_HELPERS: 'many' }).max).toBe(byDefault);
    expect(helperSettings({ LUCKY_WEB_HELPERS: '-1' }).max).toBe(byDefault);
  });

  it('starts them with the first rule only when asked (LUCKY_WEB_HELPERS_START=eager)', () => {
    expect(helperSettings({ LUCKY_WEB_HELPERS_START: 'eager' }).eager).toBe(true);
    expect(helperSettings({ LUCKY_WEB_HELPERS_START: 'yes' }).eager).toBe(false);
  });
});

describe('HelperPool start and stop policy', () => {
  const rule = reverseproxyRuleSchema.parse({ key: 'r1', port: 1 });
  let pool: HelperPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  /** A pool whose load readings are `reading.value`, with `here` connections in this process. */
  function make(reading: { value: Load }, here = 4, idleExitMs = 60_000) {
    pool = new HelperPool({
      max: 1,
      eager: false,
      log: silentLogger,
      onLine: () => {},
      connectionsHere: () => here,
      load: () => reading.value,
      idleExitMs,
    });
    return pool;
  }

  /** A helper is up (forked, and ready: a real process, so real time). */
  const started = (p: HelperPool) => waitFor(() => p.size === 1, { timeout: 15_000, interval: 50, what: 'a helper' });
  /**
   * No helper starts for `ms`: a start needs 4 busy samples in a row (500 ms apart), so each check
   * gives the pool that many samples and more; the waiting is the test.
   */
  const noneFor = (p: HelperPool, ms: number) => staysFalse(() => p.size > 0, ms);

  it('starts a helper when this process stays busy and the machine has a core to spare', async () => {
    const p = make({ value: { busy: 0.95, spareCores: 1 } });
    p.setRule(rule);
    await started(p);
  });

  it('starts none while the machine has no CPU to spare, or this process is not busy', async () => {
    const reading = { value: { busy: 0.95, spareCores: 0.1 } };
    const p = make(reading);
    p.setRule(rule);
    expect(await noneFor(p, 3500)).toBe(true);
    reading.value = { busy: 0.3, spareCores: 1.5 };
    expect(await noneFor(p, 3500)).toBe(true);
  });

  it('starts none when spare CPU shows up only in every other sample', async () => {
    let n = 0;
    const p = make({
      get value() {
        n++;
        return { busy: 0.95, spareCores: n % 2 ? 1 : 0.3 };
      },
    });
    p.setRule(rule);
    expect(await noneFor(p, 4000)).toBe(true);
    expect(n).toBeGreaterThanOrEqual(6);
  });

  it('starts none for a single connection (another process could not take any of it)', async () => {
    const p = make({ value: { busy: 0.95, spareCores: 1 } }, 1);
    p.setRule(rule);
    expect(await noneFor(p, 2000)).toBe(true);
  });

  it('stops a helper that has had no connections for the idle time, once things are quiet', async () => {
    const reading = { value: { busy: 0.95, spareCores: 1 } };
    const p = make(reading, 4, 300);
    p.setRule(rule);
    await started(p);
    reading.value = { busy: 0.1, spareCores: 1.5 };
    await waitFor(() => p.size === 0, { timeout: 5000, interval: 50, what: 'the idle helper gone' });
  });

  it('stops the helpers when the last rule is dropped', async () => {
    const p = make({ value: { busy: 0.95, spareCores: 1 } });
    p.setRule(rule);
    await started(p);
    p.dropRule(rule.key);
    expect(p.size).toBe(0);
  });
});
