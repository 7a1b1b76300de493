// The scheduler on a fast clock (secondMs 10) with the IP from a command reading a file and the
// custom callback as provider (a local recorder): first-check delay, failures kept per task,
// the force-sync interval, edits and switches, the webhook on IP-fetch failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DdnsConfig, ddnsConfigSchema } from '@lucky/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recorder } from '../../../test/ddns-helpers.js';
import { silentLogger } from '../../core/logs/logger.js';
import type { ModuleContext } from '../../core/modules/types.js';
import { DdnsRuntime } from './runtime.js';

const SECOND = 10;
const dir = mkdtempSync(path.join(os.tmpdir(), 'ddns-rt-'));
const ipFile = path.join(dir, 'ip');
let rec: Awaited<ReturnType<typeof recorder>>;
let clock = Date.now();
let rt: DdnsRuntime | undefined;

beforeAll(async () => {
  rec = await recorder([{ status: 200, body: 'good' }]);
});
afterAll(async () => {
  await rec.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await rt?.stop();
  rt = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ctx = (): ModuleContext => ({
  key: 'ddns',
  log: silentLogger,
  configDir: dir,
  signal: new AbortController().signal,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  setInterval: (fn, ms) => setInterval(fn, ms),
  saveConfig: async () => {},
});

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

async function until(ok: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(5);
  }
}

const calls = (key: string) => rec.seen.filter((s) => s.url.startsWith(`/${key}?`)).length;

describe('DDNS scheduler', () => {
  it('waits the first-check delay, then checks every interval', async () => {
    writeFileSync(ipFile, '192.0.2.1\n');
    rt = new DdnsRuntime(ctx(), { secondMs: SECOND, now: () => clock });
    await rt.start(config({ firstCheckDelay: 10, tasks: [task('a')] }));
    await sleep(50);
    expect(rt.view('a').domains[0].status).toBe('waiting');
    await until(() => rt!.view('a').domains[0].status === 'succeeded');
    expect(calls('a')).toBe(1);
    await until(() => rt!.view('a').domains[0].status === 'ipUnchanged', 1000);
    expect(calls('a')).toBe(1);
  });

  it('one task’s failure never stops the others', async () => {
    writeFileSync(ipFile, '192.0.2.2\n');
    rt = new DdnsRuntime(ctx(), { secondMs: SECOND, now: () => clock });
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
    await until(() => rt!.view('good').domains[0].status === 'succeeded');
    await until(() => rt!.view('refused').domains[0].status === 'failed');
    expect(rt.view('noip').domains[0]).toMatchObject({ status: 'paused', code: 'commandFailed' });
    expect(rt.view('refused').domains[0]).toMatchObject({ code: 'providerError' });
    expect(rt.view('refused').domains[0].msg).toMatch(/ECONNREFUSED/);
  });

  it('asks the provider again after the force-sync interval even when the IP did not change', async () => {
    writeFileSync(ipFile, '192.0.2.3\n');
    rt = new DdnsRuntime(ctx(), { secondMs: SECOND, now: () => clock });
    await rt.start(config({ tasks: [task('f', { forceInterval: 60 })] }));
    await until(() => calls('f') === 1);
    await until(() => rt!.view('f').domains[0].status === 'ipUnchanged', 1000);
    clock += 61_000;
    await until(() => calls('f') === 2, 1000);
    // The provider has the request; the task records the forced sync once the answer is in.
    const forcedAt = new Date(clock).toISOString();
    await until(() => rt!.view('f').lastForcedSync === forcedAt, 1000);
    expect(calls('f')).toBe(2);
  });

  it('checks an edited task at once, stops a switched-off one, drops a removed one', async () => {
    writeFileSync(ipFile, '192.0.2.4\n');
    rt = new DdnsRuntime(ctx(), { secondMs: 1000, now: () => clock });
    const c1 = config({ tasks: [task('e'), task('x')] });
    await rt.start(c1);
    const done = (k: string) => rt!.view(k).domains[0].status === 'succeeded';
    await until(() => done('e') && done('x'));
    expect([calls('e'), calls('x')]).toEqual([1, 1]);
    const c2 = config({ tasks: [task('e', { ttl: 120 }), task('x', { enabled: false })] });
    await rt.reload(c2, c1);
    await until(() => calls('e') === 2, 1000);
    expect(rt.view('x').domains[0].status).toBe('stopped');
    const c3 = config({ tasks: [task('e', { ttl: 120 })] });
    await rt.reload(c3, c2);
    expect(rt.view('x').domains).toEqual([]);
    const off = config({ enabled: false, tasks: c3.tasks });
    await rt.reload(off, c3);
    expect(rt.view('e').domains[0].status).toBe('stopped');
    expect(rt.status().details).toMatchObject({ enabled: false, tasks: 1 });
  });

  it('calls the webhook when getting the IP fails, if asked to', async () => {
    rt = new DdnsRuntime(ctx(), { secondMs: SECOND, now: () => clock });
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
    await until(() => rt!.view('w').webhookHistory.length > 0);
    const hook = rec.seen.slice(before).find((s) => s.url === '/hook');
    expect(JSON.parse(hook!.body)).toEqual({
      ip: 'failed to get IP: no IPv4 address in the output',
      failed: 'w.example.com',
    });
    expect(rt.view('w').webhookHistory[0]).toMatchObject({ ok: true, target: 'task' });
    expect(rt.view('w').ipError).toMatchObject({ code: 'commandFailed' });
  });
});
