// The DDNS scheduler: the first round once the first-check delay has passed since the program
// started, then a round every detection interval; each round checks every enabled task, a few in
// parallel, each one on its own (a failing task never holds up or stops the others). An added,
// edited or switched-on task is checked at once; "sync now" checks one task with the provider.
// The module switch is the supervisor's: this runs only while it is on (off, there is no runtime,
// no timer and no task state).
import { setMaxListeners } from 'node:events';
import {
  type ActionResult,
  type DdnsConfig,
  type DdnsLogsResponse,
  type DdnsSyncNowInput,
  type DdnsTask,
  type DdnsTaskState,
  type DdnsWebhookResult,
  ddnsIssues,
} from '@lucky/shared';
import { createDnsService, type DnsService } from '../../core/dns/index.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import type { NetInterfaces } from '../../core/net/interfaces.js';
import { HttpClients } from '../../core/outbound/client.js';
import { WebhookHistory } from '../../core/webhook/history.js';
import { suffixSet } from './domains.js';
import type { IpResult } from './ipSources/index.js';
import { TaskState } from './state.js';
import { refreshDomains, type SyncEnv, type SyncOptions, syncTask } from './taskSync.js';

/** Options for tests and the benchmark; none of them is a user setting. */
export interface DdnsModuleOptions {
  /** Provider API bases, e.g. `{ cloudflare: 'https://127.0.0.1:8443/client/v4' }`. */
  endpoints?: SyncEnv['endpoints'];
  /** Extra trusted CA (PEM) for those stubs. */
  ca?: string;
  /** Length of a "second" of the schedule (interval, first-check delay, webhook pauses). */
  secondMs?: number;
  /** Interface table instead of the machine's. */
  interfaces?: NetInterfaces;
  /** Tasks checked at the same time in a round. */
  concurrency?: number;
  /** Called before every provider call (benchmark counter). */
  onProviderCall?: SyncEnv['onProviderCall'];
  /** Clock for the force-sync interval and the timestamps (tests jump it forward). */
  now?: () => number;
  /**
   * When the program started (epoch ms): the first round waits the first-check delay from then, so
   * a module switched on later checks at once. Unset: from the runtime's start.
   */
  bootAt?: number;
}

export class DdnsRuntime implements ModuleRuntime<DdnsConfig> {
  private config!: DdnsConfig;
  private readonly states = new Map<string, TaskState>();
  private readonly webhooks = new WebhookHistory<DdnsWebhookResult>();
  /** The module's HTTP clients (the webhook test button calls through them while the module runs). */
  http!: HttpClients;
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;
  private roundStarted?: number;
  private nextRound?: number;
  private stopped = false;
  private readonly abort = new AbortController();
  /** Aborted when the module stops. */
  readonly signal = this.abort.signal;
  private readonly second: number;
  private readonly dns: DnsService;

  constructor(
    private readonly ctx: ModuleContext,
    private readonly options: DdnsModuleOptions = {},
  ) {
    this.second = options.secondMs ?? 1000;
    // The supervisor hands the core's service; a runtime made by hand (tests, bench) makes one.
    this.dns = ctx.dns ?? createDnsService();
    // Every request of a round listens for the stop: many listeners are expected here.
    setMaxListeners(0, this.abort.signal);
  }

  async start(config: DdnsConfig): Promise<void> {
    this.config = config;
    this.http = new HttpClients({ ca: this.options.ca });
    this.syncStates();
    // Program start: wait the first-check delay (the network may still be coming up); switched
    // on later, the delay has passed and the first round runs at once.
    const since = Date.now() - (this.options.bootAt ?? Date.now());
    this.schedule(Math.max(0, config.firstCheckDelay * this.second - since));
  }

  async reload(next: DdnsConfig, prev: DdnsConfig): Promise<void> {
    this.config = next;
    this.syncStates();
    if (next.interval !== prev.interval && this.timer && this.roundStarted !== undefined) {
      this.schedule(Math.max(0, this.roundStarted + next.interval * this.second - Date.now()));
    }
    const before = new Map(prev.tasks.map((t) => [t.key, JSON.stringify(t)]));
    const suffixesChanged = JSON.stringify(next.multiLevelSuffixes) !== JSON.stringify(prev.multiLevelSuffixes);
    for (const t of next.tasks) {
      const changed = before.get(t.key) !== JSON.stringify(t);
      if (!changed && !suffixesChanged) continue;
      this.state(t.key).invalidate();
      if (t.enabled && changed) void this.runTask(t.key, true);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    this.abort.abort();
    await Promise.allSettled([this.round, ...[...this.states.values()].map((s) => s.chain)]);
    await this.http?.close();
  }

  status() {
    const tasks = this.config?.tasks ?? [];
    return {
      details: {
        tasks: tasks.length,
        enabledTasks: tasks.filter((t) => t.enabled).length,
        running: [...this.states.values()].filter((s) => s.running).length,
        nextCheck: this.nextRound ? new Date(this.nextRound).toISOString() : undefined,
      },
    };
  }

  /** Live state of a task (domains in the task's order, statuses, histories). */
  view(key: string): DdnsTaskState {
    return this.state(key).view(this.webhooks.of(key));
  }

  /** A page of a task's log, newest first. */
  logs(key: string, page?: number, pageSize?: number): Pick<DdnsLogsResponse, 'total' | 'logs'> {
    return this.states.get(key)?.logs(page, pageSize) ?? { total: 0, logs: [] };
  }

  /**
   * Checks one task now. `forced` asks the provider for every record even when the IP did not
   * change; `address` replaces the task's IP source for this check. Runs of one task never
   * overlap: this waits for a running one.
   */
  runTask(key: string, forced = false, address?: SyncOptions['address']): Promise<void> {
    const st = this.state(key);
    const run = st.chain.then(async () => {
      const task = this.config.tasks.find((t) => t.key === key);
      if (!task?.enabled || this.stopped) return;
      await syncTask(task, st, this.env(), { forced, address });
      this.settle(key);
    });
    st.chain = run.catch(() => {});
    return run;
  }

  /**
   * The `syncNow` action: the task checked with its provider now (every record), with the given
   * address of its family instead of its IP source. Answers what came of it: a refusal when the
   * task is missing or off, the IP error or the first failed record's reason, else ok.
   */
  async syncNow(input: DdnsSyncNowInput, caller: string): Promise<ActionResult> {
    const task = this.config.tasks.find((t) => t.key === input.task);
    const refused = (code: 'taskNotFound' | 'taskDisabled'): ActionResult => ({
      ok: false,
      reason: { code, params: { task: input.task } },
      detail: `${ddnsIssues.describe(code)}: ${input.task}`,
    });
    if (!task) return refused('taskNotFound');
    if (!task.enabled) return refused('taskDisabled');
    const ip = task.recordType === 'A' ? input.ipv4 : input.ipv6;
    await this.runTask(task.key, true, ip ? { ip, module: caller } : undefined);
    const state = this.view(task.key);
    if (state.ipError) return { ok: false, reason: state.ipError, detail: state.ipError.text };
    const failed = state.domains.find((d) => d.status === 'failed');
    if (failed)
      return {
        ok: false,
        reason: failed.reason,
        detail: `${failed.fqdn || failed.line}: ${failed.reason?.text ?? 'failed'}`,
      };
    const n = state.domains.length;
    return { ok: true, detail: `${n === 1 ? '1 record holds' : `${n} records hold`} ${state.ip}` };
  }

  /** A whole round (also what the benchmark drives); resolves when every task is done. */
  async runRound(): Promise<void> {
    const cache = new Map<string, Promise<IpResult>>();
    const env = this.env(cache);
    const queue = this.config.tasks.filter((t) => t.enabled);
    const workers = Math.max(1, Math.min(this.options.concurrency ?? 16, queue.length));
    const next = (): DdnsTask | undefined => queue.shift();
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (let t = next(); t && !this.stopped; t = next()) {
          const st = this.state(t.key);
          // A task still busy (slow provider, manual sync) is left out of this round.
          if (st.running) continue;
          const task = t;
          const run = st.chain.then(async () => {
            await syncTask(task, st, env);
            this.settle(task.key);
          });
          st.chain = run.catch(() => {});
          await run;
        }
      }),
    );
  }

  private env(ipCache?: Map<string, Promise<IpResult>>): SyncEnv {
    return {
      http: this.http,
      dns: this.dns,
      log: this.ctx.log,
      suffixes: suffixSet(this.config.multiLevelSuffixes),
      globalWebhook: this.config.webhook,
      webhooks: this.webhooks,
      endpoints: this.options.endpoints,
      signal: this.abort.signal,
      ipCache,
      interfaces: this.options.interfaces,
      now: this.options.now ?? Date.now,
      delay: (ms) =>
        new Promise<void>((resolve) => {
          const signal = this.abort.signal;
          const done = () => {
            clearTimeout(t);
            signal.removeEventListener('abort', done);
            resolve();
          };
          const t = setTimeout(done, (ms / 1000) * this.second);
          signal.addEventListener('abort', done, { once: true });
        }),
      onProviderCall: this.options.onProviderCall,
    };
  }

  private state(key: string): TaskState {
    let s = this.states.get(key);
    if (!s) {
      s = new TaskState();
      this.states.set(key, s);
    }
    return s;
  }

  /** States follow the task list: removed tasks go, switched-off tasks show "stopped". */
  private syncStates(): void {
    const keys = new Set(this.config.tasks.map((t) => t.key));
    for (const k of this.states.keys()) if (!keys.has(k)) this.states.delete(k);
    this.webhooks.keep(keys);
    const suffixes = suffixSet(this.config.multiLevelSuffixes);
    const now = (this.options.now ?? Date.now)();
    for (const t of this.config.tasks) {
      const st = this.state(t.key);
      refreshDomains(t, st, suffixes);
      st.markAll(t.enabled ? 'waiting' : 'stopped', now);
    }
  }

  /** A task switched off while its check ran shows "stopped", not the late result. */
  private settle(key: string): void {
    const task = this.config.tasks.find((t) => t.key === key);
    if (!task?.enabled) this.states.get(key)?.markAll('stopped', (this.options.now ?? Date.now)());
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.nextRound = undefined;
  }

  private schedule(ms: number): void {
    this.clearTimer();
    if (this.stopped) return;
    this.nextRound = Date.now() + ms;
    this.timer = this.ctx.setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, ms);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.round) return;
    this.roundStarted = Date.now();
    this.nextRound = undefined;
    this.round = this.runRound().catch((err) => this.ctx.log.error(`check round failed: ${(err as Error).stack}`));
    await this.round;
    this.round = undefined;
    if (this.stopped || this.timer) return;
    // The next round an interval after this one started (at least a second later).
    const elapsed = Date.now() - this.roundStarted;
    this.schedule(Math.max(this.second, this.config.interval * this.second - elapsed));
  }
}
