// Scheduled tasks through the admin API of a real server: real `sh -c` commands, real HTTP
// requests to a local server, a module really switched (port forwarding, seen in
// /api/modules/status), another module's action really invoked (ACME renewNow refusing an
// unknown certificate), backups rotated in a folder, the overlap policies, a bounded history,
// the preview of an expression, export / import, and the module log.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { freePort } from './portforward-helpers.js';
import { waitFor } from './wait.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

let s: TestServer;
let token: string;
let dir: string;
let peer: http.Server;
let peerUrl: string;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

const call = (method: string, p: string, body?: unknown) => s.call(method, p, { token, body });
const ok = (r: { body: Json }) => {
  expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
  return r.body;
};
async function addTask(task: Json): Promise<string> {
  const body = ok(
    await call('POST', '/api/cron/tasks', { schedule: { kind: 'cron', expression: '0 0 1 1 *' }, ...task }),
  );
  return body.task.key;
}
const history = async (key: string): Promise<Json[]> => ok(await call('GET', `/api/cron/tasks/${key}/history`)).list;
const statusOf = async (key: string) =>
  ok(await call('GET', '/api/cron/tasks')).list.find((t: Json) => t.key === key).status;
/** Run now and wait until the history holds `n` runs and nothing runs any more. */
async function runAndWait(key: string, n = 1): Promise<Json[]> {
  expect(ok(await call('POST', `/api/cron/tasks/${key}/run`)).outcome).toBe('started');
  await waitFor(
    () => history(key),
    (l) => l.length >= n,
    { timeout: 15_000, what: `${n} runs of ${key}` },
  );
  // The run is in the history just before its slot is free again.
  await waitFor(
    () => statusOf(key),
    (st) => st.running === 0,
    { what: `${key} idle` },
  );
  return history(key);
}

beforeAll(async () => {
  dir = await tempDir('lucky-cron-');
  peer = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url?.startsWith('/teapot')) res.writeHead(418).end('short and stout');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
    });
  });
  await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  s = await startTestServer();
  token = await s.login();
});

afterAll(async () => {
  await s?.close();
  await new Promise((r) => peer?.close(r));
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('cron: the module and its list', () => {
  it('is on with nothing to do: stopped, never running', async () => {
    const st = ok(await call('GET', '/api/modules/status')).list.find((m: Json) => m.key === 'cron');
    expect(st).toMatchObject({ state: 'stopped', enabled: true });
    const list = ok(await call('GET', '/api/cron/tasks'));
    expect(list).toMatchObject({ enabled: true, list: [], historySize: 20 });
    expect(typeof list.timeZone).toBe('string');
  });

  it('previews the next five times of an expression, or names the bad field', async () => {
    const r = ok(await call('POST', '/api/cron/preview', { expression: '30 2 * * *', zone: 'Europe/Berlin' }));
    expect(r.zone).toBe('Europe/Berlin');
    expect(r.times).toHaveLength(5);
    for (const t of r.times) expect(t).toMatch(/T0[23]:[03]0:00\+0[12]:00$/);
    const bad = await call('POST', '/api/cron/preview', { expression: '61 * * * *', zone: 'Europe/Berlin' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'expressionInvalid', field: 'expression' });
    const zone = await call('POST', '/api/cron/preview', { expression: '* * * * *', zone: 'Mars/Olympus' });
    expect(zone.body).toMatchObject({ code: 'zoneInvalid', field: 'zone', params: { zone: 'Mars/Olympus' } });
    const never = await call('POST', '/api/cron/preview', { expression: '0 0 30 2 *', zone: 'UTC' });
    expect(never.body).toMatchObject({ code: 'expressionNeverRuns', field: 'expression' });
  });

  it('reads expressions in the display time zone (base setting) when no zone is given', async () => {
    ok(await call('PUT', '/api/baseconfigure', { timeZone: 'Asia/Tokyo' }));
    try {
      expect(ok(await call('GET', '/api/cron/tasks')).timeZone).toBe('Asia/Tokyo');
      const r = ok(await call('POST', '/api/cron/preview', { expression: '0 9 * * *' }));
      expect(r.zone).toBe('Asia/Tokyo');
      for (const t of r.times) expect(t).toMatch(/T09:00:00\+09:00$/);
    } finally {
      await call('PUT', '/api/baseconfigure', { timeZone: '' });
    }
  });

  it('refuses a task with a bad expression, an unknown module, or no actions, naming the field', async () => {
    const shell = { type: 'shell', command: 'true' };
    const r1 = await call('POST', '/api/cron/tasks', {
      name: 'x',
      schedule: { kind: 'cron', expression: '* * 32 * *' },
      actions: [shell],
    });
    expect(r1.body).toMatchObject({ code: 'expressionInvalid', field: 'schedule.expression' });
    const r2 = await call('POST', '/api/cron/tasks', {
      name: 'x',
      schedule: { kind: 'interval', every: 5, unit: 'minutes' },
      actions: [shell, { type: 'module', module: 'nosuch', enabled: true }],
    });
    expect(r2.body).toMatchObject({ code: 'moduleUnknown', field: 'actions.1.module' });
    const r3 = await call('POST', '/api/cron/tasks', {
      name: 'x',
      schedule: { kind: 'interval', every: 5 },
      actions: [],
    });
    expect(r3.body).toMatchObject({ code: 'actionsRequired', field: 'actions' });
    const r4 = await call('POST', '/api/cron/tasks', {
      name: 'x',
      schedule: { kind: 'interval', every: 5 },
      actions: [{ type: 'module', module: 'cron', enabled: false }],
    });
    expect(r4.body).toMatchObject({ code: 'moduleSelf', field: 'actions.0.module' });
  });
});

describe('cron: actions', () => {
  it('runs shell commands in order: env, output, exit codes, continue and stop on failure', async () => {
    const key = await addTask({
      name: 'shell',
      actions: [
        {
          type: 'shell',
          command: 'printf "$GREETING"; echo oops >&2; exit 3',
          env: 'GREETING=hello from env',
          onFailure: 'continue',
        },
        { type: 'shell', command: 'echo second' },
        { type: 'shell', command: 'exit 1' },
        { type: 'shell', command: 'echo never' },
      ],
    });
    const [run] = await runAndWait(key);
    expect(run).toMatchObject({ trigger: 'manual', result: 'failed' });
    expect(run.actions.map((a: Json) => a.result)).toEqual(['failed', 'ok', 'failed', 'skipped']);
    expect(run.actions[0]).toMatchObject({ exitCode: 3, reason: { code: 'exitCode', params: { code: 3 } } });
    expect(run.actions[0].output).toContain('hello from env');
    expect(run.actions[0].output).toContain('oops');
    expect(run.actions[1]).toMatchObject({ result: 'ok', exitCode: 0, output: 'second\n' });
    expect(run.actions[3].reason.code).toBe('earlierFailed');
  });

  it('keeps at most 8 KiB of output, and ends a command at its time-out', async () => {
    const key = await addTask({
      name: 'big and slow',
      actions: [
        { type: 'shell', command: "head -c 20000 /dev/zero | tr '\\0' a", onFailure: 'continue' },
        // A child that would outlive sh: the whole process group ends.
        { type: 'shell', command: 'sleep 60 & wait', timeoutSeconds: 1 },
      ],
    });
    const [run] = await runAndWait(key);
    expect(run.actions[0]).toMatchObject({ result: 'ok', truncated: true });
    expect(run.actions[0].output).toBe('a'.repeat(8192));
    expect(run.actions[1]).toMatchObject({ result: 'timeout', reason: { code: 'timeout', params: { seconds: 1 } } });
    expect(run.result).toBe('timeout');
  });

  it('sends HTTP requests (method, headers, body), checks the status, and masks a token on read', async () => {
    const key = await addTask({
      name: 'http',
      actions: [
        {
          type: 'http',
          method: 'POST',
          url: `${peerUrl}/hook?token=Zq8w7e6r5t4y3u2i1o0p`,
          headers: 'X-Trace: cron-test\nAuthorization: Bearer s3cr3t-value',
          body: '{"hello":"world"}',
          onFailure: 'continue',
        },
        { type: 'http', url: `${peerUrl}/teapot`, expectStatus: '200-299, 304' },
      ],
    });
    const [run] = await runAndWait(key);
    expect(run.actions[0]).toMatchObject({ result: 'ok', status: 200, output: 'pong' });
    expect(run.actions[1]).toMatchObject({
      result: 'failed',
      status: 418,
      reason: { code: 'httpStatus', params: { status: 418, expected: '200-299, 304' } },
    });
    const hook = seen.find((x) => x.url.startsWith('/hook'));
    expect(hook).toMatchObject({ method: 'POST', body: '{"hello":"world"}', url: '/hook?token=Zq8w7e6r5t4y3u2i1o0p' });
    expect(hook?.headers['x-trace']).toBe('cron-test');
    expect(hook?.headers.authorization).toBe('Bearer s3cr3t-value');

    // A read masks the secret parts; sending the view back keeps the stored values.
    const view = ok(await call('GET', '/api/cron/tasks')).list.find((t: Json) => t.key === key);
    const text = JSON.stringify(view);
    expect(text).not.toContain('Zq8w7e6r5t4y3u2i1o0p');
    expect(text).not.toContain('s3cr3t-value');
    const { key: _k, status: _s, ...input } = view;
    ok(await call('PUT', `/api/cron/tasks/${key}`, input));
    seen.length = 0;
    await runAndWait(key, 2);
    expect(seen.find((x) => x.url.startsWith('/hook'))?.headers.authorization).toBe('Bearer s3cr3t-value');
    expect(seen.find((x) => x.url.startsWith('/hook'))?.url).toBe('/hook?token=Zq8w7e6r5t4y3u2i1o0p');
  });

  it('switches another module on and off, as the module switch does', async () => {
    const state = async () =>
      ok(await call('GET', '/api/modules/status')).list.find((m: Json) => m.key === 'portforward');
    expect(await state()).toMatchObject({ enabled: false, state: 'disabled' });
    const on = await addTask({ name: 'pf on', actions: [{ type: 'module', module: 'portforward', enabled: true }] });
    const [run] = await runAndWait(on);
    expect(run.result).toBe('ok');
    // On, with no rules of its own (its state is its own business; off it would be `disabled`).
    const st = await state();
    expect(st.enabled).toBe(true);
    expect(st.state).not.toBe('disabled');
    const off = await addTask({ name: 'pf off', actions: [{ type: 'module', module: 'portforward', enabled: false }] });
    await runAndWait(off);
    expect(await state()).toMatchObject({ enabled: false, state: 'disabled' });
  });

  it('switches one rule of another module off and on (the core item switch): its port closes and opens', async () => {
    ok(await call('PUT', '/api/portforward/settings', { enabled: true }));
    const port = await freePort();
    const added = ok(
      await call('POST', '/api/portforward/rules', {
        name: 'evening',
        forwardTypes: ['tcp4'],
        listenAddress: '127.0.0.1',
        listenPorts: String(port),
        targetAddresses: ['127.0.0.1'],
        targetPorts: '9',
      }),
    );
    const listening = () =>
      new Promise<boolean>((resolve) => {
        const c = net.connect(port, '127.0.0.1');
        c.once('connect', () => {
          c.destroy();
          resolve(true);
        });
        c.once('error', () => resolve(false));
      });
    expect(await listening()).toBe(true);
    // Offered to pickers with the rule as a target, by key or by name.
    const offered = ok(await call('GET', '/api/modules/actions')).list.filter((a: Json) => a.module === 'portforward');
    expect(offered.map((a: Json) => a.name).sort()).toEqual(['disableItem', 'enableItem']);
    expect(offered[0].targets).toEqual([{ key: added.key, name: 'evening' }]);
    const off = await addTask({
      name: 'rule off',
      actions: [{ type: 'action', module: 'portforward', action: 'disableItem', input: { key: 'evening' } }],
    });
    expect((await runAndWait(off))[0].result).toBe('ok');
    const stored = ok(await call('GET', `/api/portforward/rules/${added.key}`)).rule;
    expect(stored.enabled).toBe(false);
    expect(await waitFor(listening, (v) => v === false)).toBe(false);
    const on = await addTask({
      name: 'rule on',
      actions: [{ type: 'action', module: 'portforward', action: 'enableItem', input: { key: added.key } }],
    });
    expect((await runAndWait(on))[0].result).toBe('ok');
    expect(await waitFor(listening, (v) => v === true)).toBe(true);
    // An item the module does not have is a coded refusal, and nothing changes.
    const missing = await addTask({
      name: 'no rule',
      actions: [{ type: 'action', module: 'portforward', action: 'disableItem', input: { key: 'nope' } }],
    });
    const [r] = await runAndWait(missing);
    expect(r.actions[0].reason.params.code).toBe('itemNotFound');
    expect(await listening()).toBe(true);
    ok(await call('DELETE', `/api/portforward/rules/${added.key}`));
    ok(await call('PUT', '/api/portforward/settings', { enabled: false }));
  });

  it("invokes another module's action: ACME renewNow refuses an unknown certificate with its own code", async () => {
    const key = await addTask({
      name: 'renew',
      actions: [{ type: 'action', module: 'acme', action: 'renewNow', input: { certificate: 'Nope' } }],
    });
    const [run] = await runAndWait(key);
    expect(run.actions[0]).toMatchObject({
      result: 'failed',
      reason: { code: 'actionRefused', params: { module: 'acme', action: 'renewNow', code: 'certificateNotFound' } },
    });
    const missing = await addTask({
      name: 'no action',
      actions: [{ type: 'action', module: 'ddns', action: 'nosuch' }],
    });
    const [r2] = await runAndWait(missing);
    // DDNS is off by default: the core refuses before asking for the action.
    expect(r2.actions[0].reason.params.code).toMatch(/^(moduleOff|actionNotFound)$/);
  });

  it('backs the config up to a folder, keeping the newest N', async () => {
    const folder = path.join(dir, 'backups');
    const key = await addTask({ name: 'backup', actions: [{ type: 'backup', folder, keep: 2 }] });
    for (let i = 1; i <= 3; i++) await runAndWait(key, i);
    const files = (await fs.readdir(folder)).sort();
    expect(files, JSON.stringify(await history(key))).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/^lucky_\d{14}(-\d+)?\.json$/);
    const runs = await history(key);
    // The two kept are the last two written.
    expect(files.map((f) => path.join(folder, f)).sort()).toEqual(
      runs
        .slice(0, 2)
        .map((r: Json) => r.actions[0].output)
        .sort(),
    );
    const doc = JSON.parse(await fs.readFile(path.join(folder, files[1]), 'utf8'));
    expect(doc.modules.cron.tasks.some((t: Json) => t.name === 'backup')).toBe(true);
    expect((await fs.stat(path.join(folder, files[1]))).mode & 0o777).toBe(0o600);
  });
});

describe('cron: policies, history, export', () => {
  /** A command that holds until the test creates its release file. */
  const held = (name: string) => ({
    type: 'shell',
    command: `while [ ! -e "${path.join(dir, name)}" ]; do sleep 0.05; done; echo released`,
    timeoutSeconds: 30,
  });
  const release = (name: string) => fs.writeFile(path.join(dir, name), '');

  it('overlap skip: a run due while one goes is skipped and recorded', async () => {
    const key = await addTask({ name: 'skip', overlap: 'skip', actions: [held('skip')] });
    expect(ok(await call('POST', `/api/cron/tasks/${key}/run`)).outcome).toBe('started');
    await waitFor(
      () => statusOf(key),
      (st) => st.running === 1,
    );
    expect(ok(await call('POST', `/api/cron/tasks/${key}/run`)).outcome).toBe('skipped');
    await release('skip');
    const runs = await waitFor(
      () => history(key),
      (l) => l.length === 2 && l[0].result !== 'skipped',
    );
    expect(runs.map((r) => r.result)).toEqual(['ok', 'skipped']);
    expect(runs[1].reason.code).toBe('overlapSkipped');
  });

  it('overlap queue: one run waits and follows, a third is skipped', async () => {
    const key = await addTask({ name: 'queue', overlap: 'queue', actions: [held('queue')] });
    expect(ok(await call('POST', `/api/cron/tasks/${key}/run`)).outcome).toBe('started');
    await waitFor(
      () => statusOf(key),
      (st) => st.running === 1,
    );
    expect(ok(await call('POST', `/api/cron/tasks/${key}/run`)).outcome).toBe('queued');
    expect(ok(await call('POST', `/api/cron/tasks/${key}/run`)).outcome).toBe('skipped');
    expect(await statusOf(key)).toMatchObject({ running: 1, queued: true });
    await release('queue');
    const runs = await waitFor(
      () => history(key),
      (l) => l.filter((r) => r.result === 'ok').length === 2,
    );
    expect(runs.map((r) => r.result)).toEqual(['ok', 'ok', 'skipped']);
  });

  it('overlap allow: two runs go at once', async () => {
    const key = await addTask({ name: 'allow', overlap: 'allow', actions: [held('allow')] });
    ok(await call('POST', `/api/cron/tasks/${key}/run`));
    ok(await call('POST', `/api/cron/tasks/${key}/run`));
    await waitFor(
      () => statusOf(key),
      (st) => st.running === 2,
    );
    await release('allow');
    const runs = await waitFor(
      () => history(key),
      (l) => l.length === 2,
    );
    expect(runs.map((r) => r.result)).toEqual(['ok', 'ok']);
  });

  it('keeps a bounded ring of runs, newest first', async () => {
    ok(await call('PUT', '/api/cron/settings', { historySize: 3 }));
    const key = await addTask({ name: 'ring', actions: [{ type: 'shell', command: 'echo hi' }] });
    const [first] = await runAndWait(key, 1);
    for (let i = 2; i <= 5; i++) await runAndWait(key, Math.min(i, 3));
    const runs = await history(key);
    expect(runs.every((r) => r.result === 'ok')).toBe(true);
    // The two oldest went; ids count up, newest first.
    expect(runs.map((r) => r.id)).toEqual([first.id + 4, first.id + 3, first.id + 2]);
    ok(await call('PUT', '/api/cron/settings', { historySize: 20 }));
  });

  it('runs an interval task on its own, and a paused task not at all', async () => {
    const key = await addTask({
      name: 'tick',
      schedule: { kind: 'interval', every: 1, unit: 'seconds' },
      actions: [{ type: 'shell', command: 'echo tick' }],
    });
    const runs = await waitFor(
      () => history(key),
      (l) => l.length >= 2,
      { timeout: 10_000 },
    );
    expect(runs.every((r) => r.trigger === 'schedule' && r.result === 'ok')).toBe(true);
    expect((await statusOf(key)).nextRun).toBeDefined();
    const paused = ok(await call('PUT', `/api/cron/tasks/${key}/enable`, { enabled: false })).task;
    expect(paused.status.nextRun).toBeUndefined();
  });

  it('exports the tasks and imports them back (names must be free)', async () => {
    const exp = ok(await call('GET', '/api/cron/export'));
    expect(exp.tasks.length).toBeGreaterThan(3);
    expect(JSON.stringify(exp)).not.toContain('s3cr3t-value');
    const clash = await call('POST', '/api/cron/import', { tasks: [exp.tasks[0]] });
    expect(clash.body).toMatchObject({ code: 'nameTaken', field: 'tasks.0.name' });
    const fresh = { ...exp.tasks.find((t: Json) => t.name === 'shell'), name: 'shell copy' };
    expect(ok(await call('POST', '/api/cron/import', { tasks: [fresh] })).added).toBe(1);
    const names = ok(await call('GET', '/api/cron/tasks')).list.map((t: Json) => t.name);
    expect(names).toContain('shell copy');
  });

  it('logs runs as coded lines', async () => {
    const logs = ok(await call('GET', '/api/cron/logs?pageSize=200')).logs;
    expect(logs.some((l: Json) => l.code === 'finished' && l.params.task === 'shell')).toBe(true);
    expect(logs.some((l: Json) => l.code === 'overlapSkipped')).toBe(true);
  });
});
