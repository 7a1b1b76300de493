import type {
  CronAction,
  CronConfig,
  CronLogCode,
  CronRun,
  CronRunResult,
  CronTask,
  CronTaskStatus,
  CronTrigger,
} from '@lucky/shared';
import { cronLogText, cronReasonText } from '@lucky/shared';
import { RuleLog, type RuleLogLevel } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { HttpClients } from '../../core/outbound/client.js';
import { runAction } from './actions.js';
import { type CompiledSchedule, compileSchedule } from './schedule.js';
import { type Clock, TaskScheduler } from './scheduler.js';
import { CronState, readState } from './state.js';

const LOG_CAPACITY = 1000;

export interface CronRuntimeOptions {
  /** Time and timers (tests pass a fake clock); the module context's timers by default. */
  clock?: Clock;
  /** Extra CA for HTTP actions (tests' local HTTPS peers). */
  ca?: string;
}

interface Live {
  task: CronTask;
  /** Runs going now. */
  running: number;
  /** One run waiting behind the running one (overlap `queue`). */
  queued?: CronTrigger;
  /** What the schedule was compiled from, to re-arm only what changed. */
  armedAs?: string;
}

export type RunNowOutcome = 'started' | 'queued' | 'skipped';

/**
 * The scheduler: arms each enabled task for its next due time in the display time zone, runs its
 * actions in order when due (overlap policy when the last run still goes), keeps each task's
 * history, and on start applies the missed-run policy to what fell while it was not running.
 */
export class CronRuntime implements ModuleRuntime<CronConfig> {
  readonly log: RuleLog;
  private config: CronConfig | undefined;
  private readonly clock: Clock;
  private readonly scheduler: TaskScheduler;
  private state!: CronState;
  private http!: HttpClients;
  private zone = '';
  private readonly live = new Map<string, Live>();
  private readonly runs = new Set<Promise<void>>();
  private zoneCheck: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: ModuleContext,
    private readonly options: CronRuntimeOptions = {},
  ) {
    this.log = new RuleLog({ level: 4, capacity: LOG_CAPACITY, toConsole: true }, ctx.log);
    this.clock = options.clock ?? {
      now: () => Date.now(),
      setTimeout: (fn, ms) => ctx.setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    };
    this.scheduler = new TaskScheduler(this.clock, (key, at) => this.due(key, at, 'schedule'));
  }

  async start(config: CronConfig): Promise<void> {
    const { state, problem } = readState(this.ctx.configDir);
    this.state = new CronState(this.ctx.configDir, state);
    if (problem) this.line(3, 'stateUnreadable', { detail: problem });
    this.http = new HttpClients({ ca: this.options.ca });
    this.zone = this.ctx.program.timeZone();
    this.config = config;
    this.arm(config);
    this.catchUp(config);
    // The display zone is a base setting: a change re-arms the expression tasks within a minute.
    this.zoneCheck = this.ctx.setInterval(() => {
      const zone = this.ctx.program.timeZone();
      if (zone === this.zone || !this.config) return;
      this.zone = zone;
      for (const l of this.live.values()) l.armedAs = undefined;
      this.arm(this.config);
    }, 60_000);
  }

  async reload(next: CronConfig): Promise<void> {
    this.config = next;
    this.arm(next);
    this.state.prune(new Set(next.tasks.map((t) => t.key)), next.historySize);
    await this.state.save();
  }

  async stop(): Promise<void> {
    if (this.zoneCheck) clearInterval(this.zoneCheck);
    this.scheduler.clear();
    // Every due time up to now was handled while it ran; what falls after is "missed".
    const now = this.clock.now();
    for (const t of this.config?.tasks ?? []) if (t.enabled) this.state.task(t.key).checkedAt = now;
    await Promise.allSettled([...this.runs]);
    await this.state.save().catch(() => {});
    await this.http.close();
    this.config = undefined;
  }

  status() {
    const on = (this.config?.tasks ?? []).filter((t) => t.enabled).length;
    let running = 0;
    for (const l of this.live.values()) running += l.running;
    // On with no task switched on, it looks after nothing: `stopped`, never "running".
    if (on === 0 && running === 0) return { state: 'stopped' as const, details: { tasks: 0, running: 0 } };
    return { details: { tasks: on, running } };
  }

  /** Run a task now, under its overlap policy. */
  runNow(key: string): RunNowOutcome | undefined {
    if (!this.live.has(key)) return undefined;
    return this.due(key, this.clock.now(), 'manual');
  }

  taskStatus(key: string): CronTaskStatus {
    const l = this.live.get(key);
    const next = this.scheduler.nextOf(key);
    const last = this.state.runs(key)[0];
    return {
      running: l?.running ?? 0,
      queued: l?.queued !== undefined,
      ...(next !== undefined ? { nextRun: new Date(next).toISOString() } : {}),
      ...(last ? { lastRun: { start: last.start, result: last.result } } : {}),
    };
  }

  history(key: string): CronRun[] {
    return this.state.runs(key);
  }

  /** Wait for every run going now (tests, stop). */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.allSettled([...this.runs]);
  }

  // ---- scheduling ---------------------------------------------------------------------------

  private compile(task: CronTask, anchor: number): CompiledSchedule | undefined {
    try {
      return compileSchedule(task.schedule, this.zone, anchor);
    } catch {
      // The routes refuse a bad expression; a stored one that croner no longer takes just never runs.
      return undefined;
    }
  }

  /** (Re)arm what changed; keep the live counters of tasks that stay. */
  private arm(config: CronConfig): void {
    const keys = new Set(config.tasks.map((t) => t.key));
    for (const key of [...this.live.keys()]) {
      if (keys.has(key)) continue;
      this.scheduler.remove(key);
      const l = this.live.get(key);
      if (l && l.running === 0) this.live.delete(key);
    }
    for (const task of config.tasks) {
      const l = this.live.get(task.key) ?? { task, running: 0 };
      l.task = task;
      this.live.set(task.key, l);
      // Intervals do not depend on the zone: a zone change must not restart their count.
      const zone = task.schedule.kind === 'cron' ? this.zone : '';
      const as = task.enabled && config.enabled ? JSON.stringify([task.schedule, zone]) : undefined;
      if (as === l.armedAs) continue;
      l.armedAs = as;
      const compiled = as ? this.compile(task, this.clock.now()) : undefined;
      if (compiled) {
        this.scheduler.set(task.key, compiled);
        // A task armed for the first time has missed nothing before now, even if the program dies
        // before its first run (a later start then sees what fell since).
        this.state.task(task.key).checkedAt ??= this.clock.now();
      } else this.scheduler.remove(task.key);
    }
  }

  /** The missed-run policy for what fell due between the last look and now. */
  private catchUp(config: CronConfig): void {
    const now = this.clock.now();
    for (const task of config.tasks) {
      if (!task.enabled) continue;
      const st = this.state.task(task.key);
      const since = st.checkedAt;
      st.checkedAt = now;
      if (since === undefined || since >= now) continue;
      const missed = this.compile(task, since)?.nextAfter(since);
      if (missed === undefined || missed > now) continue;
      const at = new Date(missed).toISOString();
      if (task.missed === 'runOnce') {
        this.line(3, 'missedRun', { task: task.name, at });
        this.due(task.key, now, 'missed');
      } else {
        this.line(4, 'missedSkipped', { task: task.name, at });
        this.record(
          task,
          { trigger: 'missed', start: at, durationMs: 0, result: 'skipped', actions: [] },
          'missedSkipped',
        );
      }
    }
    void this.state.save().catch(() => {});
  }

  private due(key: string, at: number, trigger: CronTrigger): RunNowOutcome {
    const l = this.live.get(key);
    if (!l) return 'skipped';
    if (trigger === 'schedule') this.state.task(key).checkedAt = at;
    if (l.running > 0) {
      if (l.task.overlap === 'queue' && l.queued === undefined) {
        l.queued = trigger;
        this.line(4, 'queued', { task: l.task.name });
        return 'queued';
      }
      if (l.task.overlap !== 'allow') {
        this.line(3, 'overlapSkipped', { task: l.task.name });
        const start = new Date(this.clock.now()).toISOString();
        this.record(l.task, { trigger, start, durationMs: 0, result: 'skipped', actions: [] }, 'overlapSkipped');
        void this.state.save().catch(() => {});
        return 'skipped';
      }
    }
    this.execute(l, trigger);
    return 'started';
  }

  private execute(l: Live, trigger: CronTrigger): void {
    l.running++;
    const p = this.runTask(l.task, trigger).finally(() => {
      this.runs.delete(p);
      l.running--;
      const queued = l.queued;
      if (queued !== undefined && l.running === 0 && this.config) {
        l.queued = undefined;
        this.execute(l, queued);
      }
    });
    this.runs.add(p);
  }

  private async runTask(task: CronTask, trigger: CronTrigger): Promise<void> {
    const started = this.clock.now();
    this.line(4, 'started', { task: task.name, trigger });
    const deps = { ctx: this.ctx, http: this.http, signal: this.ctx.signal, now: () => this.clock.now() };
    const results: CronRun['actions'] = [];
    let stopped = false;
    let result: CronRunResult = 'ok';
    for (const [i, action] of task.actions.entries()) {
      if (stopped) {
        results.push(skippedAction(action));
        continue;
      }
      const r = await runAction(action, deps);
      results.push(r);
      if (r.result === 'ok') continue;
      if (result === 'ok') result = r.result;
      this.line(r.result === 'timeout' ? 3 : 2, 'actionFailed', {
        task: task.name,
        index: i + 1,
        type: action.type,
        reason: r.reason?.text ?? r.result,
      });
      if (action.onFailure === 'stop') stopped = true;
    }
    for (const [i, r] of results.entries()) {
      if (r.result === 'ok' && r.type === 'backup') this.line(4, 'backupWritten', { task: task.name, path: r.output });
      if (r.result === 'ok' && r.type === 'module') {
        const a = task.actions[i] as Extract<CronAction, { type: 'module' }>;
        this.line(4, 'moduleSwitched', { task: task.name, module: a.module, state: a.enabled ? 'on' : 'off' });
      }
    }
    const durationMs = Math.max(0, this.clock.now() - started);
    this.record(task, { trigger, start: new Date(started).toISOString(), durationMs, result, actions: results });
    this.line(result === 'ok' ? 4 : 3, 'finished', { task: task.name, result, ms: durationMs });
    await this.state.save().catch(() => {});
  }

  private record(task: CronTask, run: Omit<CronRun, 'id'>, reason?: 'overlapSkipped' | 'missedSkipped'): void {
    const size = this.config?.historySize ?? 20;
    const full = reason ? { ...run, reason: { code: reason, params: {}, text: cronReasonText(reason, {}) } } : run;
    this.state.addRun(task.key, full, size);
  }

  private line(level: RuleLogLevel, code: CronLogCode, params: Record<string, unknown>): void {
    this.log.coded(level, code, params, cronLogText(code, params));
  }
}

function skippedAction(action: CronAction): CronRun['actions'][number] {
  return {
    type: action.type,
    result: 'skipped',
    durationMs: 0,
    output: '',
    truncated: false,
    reason: { code: 'earlierFailed', params: {}, text: cronReasonText('earlierFailed', {}) },
  };
}
