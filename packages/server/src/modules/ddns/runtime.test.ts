// The scheduler on fake timers (vi.useFakeTimers: setTimeout, setInterval and Date) with the IP from
// a command reading a file and the custom callback as provider (a local recorder): first-check
// delay, failures kept per task, the force-sync interval, edits and switches, the webhook on
// IP-fetch failure. The schedule's seconds are real seconds on the fake clock, which moves only
// when a test advances it; the command and the HTTP calls are real I/O, so after each step the
// test waits (in real time) for the round's outcome before it moves the clock again.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DdnsConfig, ddnsConfigSchema } from '@lucky/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recorder } from '../../../test/http-recorder.js';
import { testModuleContext } from '../../../test/module-context.js';
import { waitFor } from '../../../test/wait.js';
import { silentLogger } from '../../core/logs/logger.js';
import type { ModuleContext } from '../../core/modules/types.js';
import { DdnsRuntime } from './runtime.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ddns-rt-'));
const ipFile = path.join(dir, 'ip');
let rec: Awaited<ReturnType<typeof recorder>>;
let rt: DdnsRuntime | undefined;

beforeAll(async () => {
  rec = await recorder([{ status: 200, body: 'good' }]);
});
afterAll(async () => {
  await rec.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(async () => {
  await rt?.stop();
  rt = undefined;
  vi.useRealTimers();
});

// The module's timers, as the supervisor hands them over (here: the faked globals).
const ctx = (): ModuleContext => testModuleContext('ddns', silentLogger, dir);

function task(key: string, extra: Record<string, unknown> = {}) {
  return {
    key,
    domains: [`${key}.example.com`],
    ipSource: { type: 'command', command: `cat ${ipFile}` },
    dns: {
      provider: 'callback',
      callback: { method: 'GET', url: `${rec.url}/${key}?ip=#{ip}`, successStrings: ['good'] },
    },
    ...extra,
  };
}

function config(c: Record<string, unknown>): DdnsConfig {
  return ddnsConfigSchema.parse({ enabled: true, interval: 30, ...c });
}

const calls = (key: string) => rec.seen.filter((s) => s.url.startsWith(`/${key}?`)).length;
const status = (key: string) => rt!.view(key).domains[0].status;
/** Moves the fake clock; timers that come due run (their I/O goes on in real time). */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
/** The real-time wait for a round's outcome. */
const until = (ok: () => boolean, what: string) => waitFor(ok, { timeout: 5000, interval: 5, what });
/** Task `key`'s check has finished with `s`. */
const settled = (key: string, s: string) =>
  until(() => !rt!.view(key).running && status(key) === s, `task ${key} ${s}`);

describe('DDNS scheduler', () => {
  it('waits the first-check delay, then checks every interval', async () => {
    writeFileSync(ipFile, '192.0.2.1\n');
    rt = new DdnsRuntime(ctx());
    await rt.start(config({ firstCheckDelay: 10, tasks: [task('a')] }));
    await advance(9_999);
    expect(status('a')).toBe('waiting');
    expect(calls('a')).toBe(0);
    await advance(1);
    await settled('a', 'succeeded');
    expect(calls('a')).toBe(1);
    // The next round an interval (30 s) after this one started.
    await advance(29_999);
    expect(rt.view('a').running).toBe(false);
    expect(status('a')).toBe('succeeded');
    await advance(1);
    await settled('a', 'ipUnchanged');
    expect(calls('a')).toBe(1);
  });

  it('one task’s failure never stops the others', async () => {
    writeFileSync(ipFile, '192.0.2.2\n');
    rt = new DdnsRuntime(ctx());
    await rt.start(
      config({
        tasks: [
          task('noip', { ipSource: { type: 'command', command: 'exit 4' } }),
          task('refused', {
            dns: {
              provider: 'callback',
              callback: { method: 'GET', url: 'http://127.0.0.1:9/', successStrings: ['x'] },
            },
          }),
          task('good'),
        ],
      }),
    );
    await advance(0);
    await settled('good', 'succeeded');
    await settled('refused', 'failed');
    await settled('noip', 'paused');
    expect(rt.view('noip').domains[0]).toMatchObject({ status: 'paused', reason: { code: 'commandFailed' } });
    expect(rt.view('refused').domains[0].reason).toMatchObject({ code: 'providerError' });
    expect(rt.view('refused').domains[0].reason?.text).toMatch(/ECONNREFUSED/);
  });

  it('asks the provider again after the force-sync interval even when the IP did not change', async () => {
    writeFileSync(ipFile, '192.0.2.3\n');
    rt = new DdnsRuntime(ctx());
    const t0 = Date.now();
    await rt.start(config({ tasks: [task('f', { forceInterval: 60 })] }));
    await advance(0);
    await settled('f', 'succeeded');
    expect(calls('f')).toBe(1);
    expect(rt.view('f').lastForcedSync).toBe(new Date(t0).toISOString());
    // 30 s: the IP is unchanged and the force-sync interval has not passed, no provider call.
    await advance(30_000);
    await settled('f', 'ipUnchanged');
    expect(calls('f')).toBe(1);
    // 60 s: the forced sync, recorded once the answer is in.
    await advance(30_000);
    await until(() => calls('f') === 2, 'the forced call');
    const forcedAt = new Date(t0 + 60_000).toISOString();
    await until(() => !rt!.view('f').running && rt!.view('f').lastForcedSync === forcedAt, 'the forced sync');
    expect(calls('f')).toBe(2);
  });

  it('checks an edited task at once, stops a switched-off one, drops a removed one', async () => {
    writeFileSync(ipFile, '192.0.2.4\n');
    rt = new DdnsRuntime(ctx());
    const c1 = config({ tasks: [task('e'), task('x')] });
    await rt.start(c1);
    await advance(0);
    await settled('e', 'succeeded');
    await settled('x', 'succeeded');
    expect([calls('e'), calls('x')]).toEqual([1, 1]);
    const c2 = config({ tasks: [task('e', { ttl: 120 }), task('x', { enabled: false })] });
    // No clock moves from here on: the edited task is checked at once, not at the next round.
    await rt.reload(c2, c1);
    await until(() => calls('e') === 2, 'the edited task checked');
    expect(status('x')).toBe('stopped');
    const c3 = config({ tasks: [task('e', { ttl: 120 })] });
    await rt.reload(c3, c2);
    expect(rt.view('x').domains).toEqual([]);
    // The module switch is the supervisor's (no runtime while off: test/ddns.api.test.ts).
    expect(rt.status().details).toMatchObject({ tasks: 1, enabledTasks: 1 });
  });

  it('calls the webhook when getting the IP fails, if asked to', async () => {
    rt = new DdnsRuntime(ctx());
    const before = rec.seen.length;
    await rt.start(
      config({
        tasks: [
          task('w', {
            ipSource: { type: 'command', command: 'echo nothing here' },
            webhook: {
              enabled: true,
              url: `${rec.url}/hook`,
              method: 'POST',
              body: '{"ip":"#{ipAddr}","failed":"#{failedDomains}"}',
              successStrings: ['good'],
              callOnIpFail: true,
            },
          }),
        ],
      }),
    );
    await advance(0);
    await until(() => rt!.view('w').webhookHistory.length > 0, 'the webhook');
    const hook = rec.seen.slice(before).find((s) => s.url === '/hook');
    expect(JSON.parse(hook!.body)).toEqual({
      ip: 'failed to get IP: command execution error: no IPv4 address in the output',
      failed: 'w.example.com',
    });
    expect(rt.view('w').webhookHistory[0]).toMatchObject({ ok: true, target: 'task' });
    expect(rt.view('w').ipError).toMatchObject({ code: 'commandFailed' });
  });
});
