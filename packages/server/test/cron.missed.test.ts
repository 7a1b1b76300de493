// The missed-run policy: the runtime keeps, per task, when it last looked at the schedule (in
// <configDir>/cron/state.json); a runtime started after the program was off runs a missed task
// once (`runOnce`, however many runs fell) or records it as skipped (`skip`). The clock is a fake
// one handed to the runtime; the commands are real.
import { promises as fs } from 'node:fs';
import { type CronConfig, cronConfigSchema } from '@lucky/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/core/logs/logger.js';
import { CronRuntime } from '../src/modules/cron/runtime.js';
import type { Clock } from '../src/modules/cron/scheduler.js';
import { tempDir } from './harness.js';
import { testModuleContext } from './module-context.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

/** A clock standing still unless the test moves it; timers are kept, never fired here. */
function stillClock(at: string): Clock & { set(at: string): void } {
  let t = Date.parse(at);
  return {
    now: () => t,
    setTimeout: () => 0,
    clearTimeout: () => {},
    set: (x) => {
      t = Date.parse(x);
    },
  };
}

const config = (missed: 'skip' | 'runOnce'): CronConfig =>
  cronConfigSchema.parse({
    tasks: [
      {
        key: 'Daily',
        name: 'daily',
        schedule: { kind: 'cron', expression: '0 3 * * *' },
        missed,
        actions: [{ type: 'shell', command: 'echo caught up' }],
      },
    ],
  });

async function runtimeAt(dir: string, clock: Clock) {
  const ctx = testModuleContext('cron', silentLogger, dir, {
    program: {
      timeZone: () => 'UTC',
      setModuleEnabled: async () => {},
      configBackup: () => ({ fileName: 'x.json', text: '{}' }),
    },
  });
  return new CronRuntime(ctx, { clock });
}

describe('cron missed runs', () => {
  it('runOnce: two days off, one run at start', async () => {
    const dir = await tempDir('lucky-cron-missed-');
    dirs.push(dir);
    const clock = stillClock('2026-01-01T12:00:00Z');
    const first = await runtimeAt(dir, clock);
    await first.start(config('runOnce'));
    await first.stop();
    // Off from 1 January noon to 3 January noon: the 03:00 runs of 2 and 3 January fell.
    clock.set('2026-01-03T12:00:00Z');
    const second = await runtimeAt(dir, clock);
    await second.start(config('runOnce'));
    await second.idle();
    const runs = second.history('Daily');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'missed', result: 'ok', start: '2026-01-03T12:00:00.000Z' });
    expect(runs[0].actions[0].output).toBe('caught up\n');
    expect(second.log.newest(10).some((l) => l.code === 'missedRun')).toBe(true);
    await second.stop();

    // Back an hour later: nothing fell in between, nothing runs.
    clock.set('2026-01-03T13:00:00Z');
    const third = await runtimeAt(dir, clock);
    await third.start(config('runOnce'));
    await third.idle();
    expect(third.history('Daily')).toHaveLength(1);
    await third.stop();
  });

  it('skip: the missed run is recorded as skipped, nothing runs', async () => {
    const dir = await tempDir('lucky-cron-missed-');
    dirs.push(dir);
    const clock = stillClock('2026-01-01T12:00:00Z');
    const first = await runtimeAt(dir, clock);
    await first.start(config('skip'));
    await first.stop();
    clock.set('2026-01-02T12:00:00Z');
    const second = await runtimeAt(dir, clock);
    await second.start(config('skip'));
    await second.idle();
    const runs = second.history('Daily');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      trigger: 'missed',
      result: 'skipped',
      start: '2026-01-02T03:00:00.000Z',
      reason: { code: 'missedSkipped' },
    });
    await second.stop();
  });

  it('a task added while the program ran has nothing missed at its first start', async () => {
    const dir = await tempDir('lucky-cron-missed-');
    dirs.push(dir);
    const clock = stillClock('2026-01-05T12:00:00Z');
    const rt = await runtimeAt(dir, clock);
    await rt.start(config('runOnce'));
    await rt.idle();
    expect(rt.history('Daily')).toEqual([]);
    expect(rt.taskStatus('Daily').nextRun).toBe('2026-01-06T03:00:00.000Z');
    await rt.stop();
  });

  it('a task added while running is caught up after the program died before its first run', async () => {
    const dir = await tempDir('lucky-cron-missed-');
    dirs.push(dir);
    const clock = stillClock('2026-01-01T12:00:00Z');
    const first = await runtimeAt(dir, clock);
    await first.start(cronConfigSchema.parse({}));
    // Added at 12:00 (a reload), then the program is killed: no stop, only what reload wrote.
    await first.reload(config('runOnce'));
    clock.set('2026-01-02T12:00:00Z');
    const second = await runtimeAt(dir, clock);
    await second.start(config('runOnce'));
    await second.idle();
    expect(second.history('Daily').map((r) => r.trigger)).toEqual(['missed']);
    await second.stop();
    await first.stop();
  });
});
