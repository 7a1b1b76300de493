// The five kinds of action a task runs, each answering a CronActionRun: what happened, how long
// it took, its output bounded to CRON_LIMITS.outputBytes, and a coded reason when it failed.
import { spawn } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModuleKey } from '@lucky/shared';
import {
  CRON_LIMITS,
  type CronAction,
  type CronActionRun,
  type CronReasonCode,
  type CronRunResult,
  cronReasonText,
  parseEnvLines,
  parseHeaderLines,
  parseStatusList,
} from '@lucky/shared';
import type { ModuleContext } from '../../core/modules/types.js';
import type { HttpClients } from '../../core/outbound/client.js';

export interface ActionDeps {
  ctx: ModuleContext;
  http: HttpClients;
  /** Aborted when the module stops: running commands and requests end. */
  signal: AbortSignal;
  now(): number;
}

/** Keeps the first `max` bytes of what it is given and notes that more came. */
class Bounded {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly max = CRON_LIMITS.outputBytes) {}
  add(b: Buffer): void {
    const room = this.max - this.size;
    if (room <= 0) {
      if (b.length > 0) this.truncated = true;
      return;
    }
    const part = b.length > room ? b.subarray(0, room) : b;
    if (part.length < b.length) this.truncated = true;
    this.chunks.push(part);
    this.size += part.length;
  }
  text(): string {
    // A multi-byte character cut at the bound shows as one replacement character.
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

const reason = (code: CronReasonCode, params: Record<string, unknown>) => ({
  code,
  params,
  text: cronReasonText(code, params),
});

type Outcome = Omit<CronActionRun, 'type' | 'durationMs'>;
const fail = (
  result: CronRunResult,
  code: CronReasonCode,
  params: Record<string, unknown>,
  extra: Partial<Outcome> = {},
): Outcome => ({
  result,
  output: '',
  truncated: false,
  ...extra,
  reason: reason(code, params),
});

/** Run one action; never throws. */
export async function runAction(action: CronAction, deps: ActionDeps): Promise<CronActionRun> {
  const started = deps.now();
  let out: Outcome;
  try {
    out = await dispatch(action, deps);
  } catch (err) {
    // A runner's own bug must not take the scheduler down: report it as the action's failure.
    out = fail('failed', 'spawnFailed', { detail: (err as Error).message });
  }
  return { type: action.type, durationMs: Math.max(0, deps.now() - started), ...out };
}

function dispatch(action: CronAction, deps: ActionDeps): Promise<Outcome> {
  switch (action.type) {
    case 'shell':
      return shell(action, deps);
    case 'http':
      return http(action, deps);
    case 'module':
      return withTimeout(action.timeoutSeconds, () => switchModule(action, deps));
    case 'action':
      return withTimeout(action.timeoutSeconds, () => invoke(action, deps));
    case 'backup':
      return withTimeout(action.timeoutSeconds, () => backup(action, deps));
  }
}

/** The core's work goes on after a time-out (a save cannot be cut half-way); the task moves on. */
async function withTimeout(seconds: number, fn: () => Promise<Outcome>): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve(fail('timeout', 'timeout', { seconds })), seconds * 1000);
  });
  try {
    return await Promise.race([fn(), late]);
  } finally {
    clearTimeout(timer);
  }
}

function shell(a: Extract<CronAction, { type: 'shell' }>, deps: ActionDeps): Promise<Outcome> {
  return new Promise((resolve) => {
    const output = new Bounded();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const { name, value } of parseEnvLines(a.env)) env[name] = value;
    let timedOut = false;
    let child: ReturnType<typeof spawn>;
    try {
      // Its own process group, so a time-out ends the command's children too.
      child = spawn('sh', ['-c', a.command], {
        cwd: a.cwd || deps.ctx.configDir,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      resolve(fail('failed', 'spawnFailed', { detail: (err as Error).message }));
      return;
    }
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, a.timeoutSeconds * 1000);
    deps.signal.addEventListener('abort', killGroup, { once: true });
    child.stdout?.on('data', (b: Buffer) => output.add(b));
    child.stderr?.on('data', (b: Buffer) => output.add(b));
    let spawnError: Error | undefined;
    child.on('error', (err) => {
      spawnError = err;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      deps.signal.removeEventListener('abort', killGroup);
      const base = { output: output.text(), truncated: output.truncated };
      if (spawnError) resolve(fail('failed', 'spawnFailed', { detail: spawnError.message }, base));
      else if (timedOut) resolve(fail('timeout', 'timeout', { seconds: a.timeoutSeconds }, base));
      else if (deps.signal.aborted) resolve(fail('failed', 'cancelled', {}, base));
      else if (code === 0) resolve({ result: 'ok', exitCode: 0, ...base });
      else if (code === null) resolve(fail('failed', 'killed', { signal: signal ?? '' }, base));
      else resolve(fail('failed', 'exitCode', { code }, { ...base, exitCode: code }));
    });
  });
}

async function http(a: Extract<CronAction, { type: 'http' }>, deps: ActionDeps): Promise<Outcome> {
  const headers: Record<string, string> = {};
  for (const { name, value } of parseHeaderLines(a.headers)) headers[name] = value;
  try {
    const res = await deps.http.request(
      {},
      {
        method: a.method,
        url: a.url,
        headers,
        body: a.body === '' || a.method === 'GET' || a.method === 'HEAD' ? undefined : a.body,
        timeoutMs: a.timeoutSeconds * 1000,
        signal: deps.signal,
      },
    );
    const output = new Bounded();
    output.add(Buffer.from(res.text, 'utf8'));
    const base = { status: res.status, output: output.text(), truncated: output.truncated };
    const expected = parseStatusList(a.expectStatus) ?? [[200, 299]];
    if (expected.some(([lo, hi]) => res.status >= lo && res.status <= hi)) return { result: 'ok', ...base };
    return fail('failed', 'httpStatus', { status: res.status, expected: a.expectStatus }, base);
  } catch (err) {
    const detail = (err as Error).message;
    if (/^no answer within/.test(detail)) return fail('timeout', 'timeout', { seconds: a.timeoutSeconds });
    return fail('failed', 'httpFailed', { detail });
  }
}

async function switchModule(a: Extract<CronAction, { type: 'module' }>, deps: ActionDeps): Promise<Outcome> {
  try {
    await deps.ctx.program.setModuleEnabled(a.module, a.enabled);
    return { result: 'ok', output: `${a.module} ${a.enabled ? 'on' : 'off'}`, truncated: false };
  } catch (err) {
    return fail('failed', 'moduleSwitchFailed', { module: a.module, detail: (err as Error).message });
  }
}

async function invoke(a: Extract<CronAction, { type: 'action' }>, deps: ActionDeps): Promise<Outcome> {
  const r = await deps.ctx.actions.invoke(a.module as ModuleKey, a.action, a.input);
  const detail = r.detail ?? '';
  if (r.ok)
    return {
      result: 'ok',
      output: detail.slice(0, CRON_LIMITS.outputBytes),
      truncated: detail.length > CRON_LIMITS.outputBytes,
    };
  return fail('failed', 'actionRefused', { module: a.module, action: a.action, code: r.reason?.code ?? '', detail });
}

/** Our backup files: the download's name, with a counter when two land in the same second. */
const BACKUP_NAME = /^lucky_\d{14}(?:-\d+)?\.json$/;

async function backup(a: Extract<CronAction, { type: 'backup' }>, deps: ActionDeps): Promise<Outcome> {
  try {
    await mkdir(a.folder, { recursive: true, mode: 0o700 });
    const file = deps.ctx.program.configBackup();
    const existing = new Set((await readdir(a.folder)).filter((n) => BACKUP_NAME.test(n)));
    let name = file.fileName;
    for (let i = 1; existing.has(name); i++) name = file.fileName.replace(/\.json$/, `-${i}.json`);
    // The config holds secrets: readable by the owner only, like the config file itself.
    await writeFile(path.join(a.folder, name), file.text, { mode: 0o600, flag: 'wx' });
    existing.add(name);
    // Oldest first by name (the UTC stamp), then the counter; keep the newest `keep`.
    const order = (n: string) =>
      n.replace(/\.json$/, '').replace(/-(\d+)$/, (_m, d: string) => `-${d.padStart(6, '0')}`);
    const all = [...existing].sort((x, y) => (order(x) < order(y) ? -1 : 1));
    const drop = all.slice(0, Math.max(0, all.length - a.keep));
    for (const n of drop) await rm(path.join(a.folder, n), { force: true });
    return { result: 'ok', output: path.join(a.folder, name), truncated: false };
  } catch (err) {
    return fail('failed', 'backupFailed', { detail: (err as Error).message });
  }
}
