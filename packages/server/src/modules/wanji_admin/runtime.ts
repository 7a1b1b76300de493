import {
  summaryResponseSchema,
  WANJI_ADMIN_LIMITS,
  type WanjiAdminConfig,
  type WanjiAdminLogCode,
  type WanjiConsole,
  type WanjiConsoleState,
  type WanjiRemoteSummary,
  wanjiAdminLogText,
  wanjiAdminReason,
} from '@lucky/shared';
import { RuleLog, type RuleLogLevel } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { callPeer, jsonAnswer, PeerError } from './client.js';

const LOG_CAPACITY = 1000;

/** What makes a console another one for the poller (a change starts its checks afresh). */
const identity = (c: WanjiConsole) => JSON.stringify([c.url, c.token, c.tls, c.enabled]);

interface Watch {
  id: string;
  state: WanjiConsoleState;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

/** Wait after `failures` failed reads in a row: refreshSeconds doubled per failure, at most 5 min. */
export function backoffSeconds(refreshSeconds: number, failures: number): number {
  if (failures <= 0) return refreshSeconds;
  return Math.min(
    refreshSeconds * 2 ** Math.min(failures, 16),
    Math.max(refreshSeconds, WANJI_ADMIN_LIMITS.backoffMaxSeconds),
  );
}

/** Read one console's summary: the answer's shape checked (anything else is "not Lucky"). */
export async function readSummary(
  c: WanjiConsole,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<WanjiRemoteSummary> {
  const a = await callPeer(c, { method: 'GET', path: '/api/summary', timeoutMs, signal });
  // An older console or another program: no summary there.
  if (a.status === 404) throw new PeerError(wanjiAdminReason('notLucky'));
  const parsed = summaryResponseSchema.safeParse(jsonAnswer(a));
  if (!parsed.success) throw new PeerError(wanjiAdminReason('notLucky'));
  const { ret: _ret, ...summary } = parsed.data;
  return summary as WanjiRemoteSummary;
}

/**
 * The running module: polls every switched-on console's summary every refreshSeconds, each on its
 * own timer (a slow or dead console never holds up another), backing off on failures.
 */
export class WanjiAdminRuntime implements ModuleRuntime<WanjiAdminConfig> {
  private config: WanjiAdminConfig | undefined;
  private readonly watches = new Map<string, Watch>();
  readonly log: RuleLog;

  constructor(private readonly ctx: ModuleContext) {
    this.log = new RuleLog({ level: 4, capacity: LOG_CAPACITY, toConsole: true }, ctx.log);
  }

  async start(config: WanjiAdminConfig): Promise<void> {
    this.config = config;
    const on = config.consoles.filter((c) => c.enabled).length;
    if (on > 0) this.line(4, 'started', { consoles: on, seconds: config.refreshSeconds });
    this.reconcile();
  }

  async reload(next: WanjiAdminConfig): Promise<void> {
    const prev = this.config;
    this.config = next;
    // A shorter refresh applies now to the consoles that answer (not to those backing off).
    if (prev && next.refreshSeconds !== prev.refreshSeconds)
      for (const [key, w] of this.watches) if (w.state.failures === 0 && !w.running) this.schedule(key, 0);
    this.reconcile();
  }

  async stop(): Promise<void> {
    for (const w of this.watches.values()) clearTimeout(w.timer);
    this.watches.clear();
    this.config = undefined;
  }

  status() {
    const consoles = this.config?.consoles ?? [];
    const enabled = consoles.filter((c) => c.enabled);
    const reachable = enabled.filter((c) => this.watches.get(c.key)?.state.reachable).length;
    // Nothing switched on: the module is on but does nothing (the overview says stopped, not running).
    return {
      state: enabled.length > 0 ? ('running' as const) : ('stopped' as const),
      details: { consoles: consoles.length, enabled: enabled.length, reachable },
    };
  }

  /** A console's live state (notChecked before the first read, or while switched off). */
  stateOf(key: string): WanjiConsoleState {
    return this.watches.get(key)?.state ?? notChecked();
  }

  /** Read a console now (the refresh button); answers once the read is done. */
  async refreshNow(key: string): Promise<void> {
    const w = this.watches.get(key);
    if (!w) return;
    await (w.running ?? this.check(key));
  }

  private reconcile(): void {
    const config = this.config;
    if (!config) return;
    const wanted = new Map(config.consoles.filter((c) => c.enabled).map((c) => [c.key, c]));
    for (const [key, w] of this.watches) {
      const c = wanted.get(key);
      if (!c || identity(c) !== w.id) {
        clearTimeout(w.timer);
        this.watches.delete(key);
      }
    }
    for (const [key, c] of wanted) {
      if (this.watches.has(key)) continue;
      this.watches.set(key, { id: identity(c), state: notChecked() });
      this.schedule(key, 0);
    }
  }

  private schedule(key: string, seconds: number): void {
    const w = this.watches.get(key);
    if (!w) return;
    clearTimeout(w.timer);
    w.state.nextCheckAt = new Date(Date.now() + seconds * 1000).toISOString();
    w.timer = this.ctx.setTimeout(() => void this.check(key), seconds * 1000);
  }

  private check(key: string): Promise<void> {
    const w = this.watches.get(key);
    const c = this.config?.consoles.find((x) => x.key === key);
    if (!w || !c || !this.config) return Promise.resolve();
    if (w.running) return w.running;
    clearTimeout(w.timer);
    const settings = this.config;
    const run = (async () => {
      const at = new Date().toISOString();
      try {
        const summary = await readSummary(c, settings.timeoutMs, this.ctx.signal);
        if (this.watches.get(key) !== w) return;
        if (!w.state.reachable) this.line(4, 'reachable', { name: c.name, version: summary.version });
        w.state = { reachable: true, lastSeen: at, checkedAt: at, failures: 0, summary };
        this.schedule(key, settings.refreshSeconds);
      } catch (err) {
        if (this.watches.get(key) !== w || this.ctx.signal.aborted) return;
        const reason =
          err instanceof PeerError ? err.reason : wanjiAdminReason('networkFailed', { detail: String(err) });
        const failures = w.state.failures + 1;
        const wait = backoffSeconds(settings.refreshSeconds, failures);
        // Logged when a console stops answering or its reason changes, not at every retry.
        if (w.state.reachable || w.state.reason?.code !== reason.code)
          this.line(3, 'unreachable', { name: c.name, reason, seconds: wait });
        w.state = {
          ...w.state,
          reachable: false,
          reason,
          checkedAt: at,
          failures,
          ...(reason.code === 'fingerprintMismatch' ? { seenFingerprint: String(reason.params?.seen ?? '') } : {}),
        };
        if (reason.code !== 'fingerprintMismatch') delete w.state.seenFingerprint;
        this.schedule(key, wait);
      } finally {
        w.running = undefined;
      }
    })();
    w.running = run;
    return run;
  }

  line(level: RuleLogLevel, code: WanjiAdminLogCode, params: Record<string, unknown>): void {
    this.log.coded(level, code, params, wanjiAdminLogText(code, params));
  }
}

function notChecked(): WanjiConsoleState {
  return { reachable: false, reason: wanjiAdminReason('notChecked'), failures: 0 };
}
