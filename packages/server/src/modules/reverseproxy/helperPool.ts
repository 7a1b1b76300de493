import { type ChildProcess, fork } from 'node:child_process';
import type net from 'node:net';
import os from 'node:os';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { ReverseproxyRule } from '@lucky/shared';
import type { ChallengeBoard } from '../../core/certs/challenges.js';
import type { CertResolver } from '../../core/certs/resolver.js';
import { adminRelay } from '../../core/http/adminRelay.js';
import { normalizeIp } from '../../core/http/clientIp.js';
import type { Logger } from '../../core/logs/logger.js';
import type { FromHelper, HelperTraffic, RelayedLine, ToHelper } from './helperProtocol.js';

export interface HelperPoolOptions {
  /** Helper processes at most (0: every connection is served in the server process). */
  max: number;
  /** Start them with the first rule instead of when the server process gets busy (tests). */
  eager: boolean;
  log: Logger;
  certs?: CertResolver;
  /** The ACME HTTP-01 board: helpers answer its tokens as the server process does. */
  challenges?: ChallengeBoard;
  /** A log line a helper wrote for one of the rules' sites. */
  onLine(line: RelayedLine): void;
  /** Wrong basic-auth credentials a helper saw from this client address (the security lists' auto-ban). */
  onAuthFailure?(ip: string): void;
  /** The security lists (ctx.safe.admits): asked again for the helpers' connections on `recheck`. */
  admits?(ip: string): boolean;
  /** Connections the server process itself serves now (over all rules). */
  connectionsHere(): number;
  /** How busy things were since the last call (tests give their own; default: `loadMeter()`). */
  load?: () => Load;
  /** How long a helper may sit without connections before it exits (default a minute). */
  idleExitMs?: number;
}

export interface Load {
  /** Share of the time the server process's event loop was working (0–1). */
  busy: number;
  /** Idle CPU of the machine, in cores. */
  spareCores: number;
}

/** Measures the server process's event loop and the machine's idle CPU between two calls. */
export function loadMeter(): () => Load {
  let lastElu: EventLoopUtilization = performance.eventLoopUtilization();
  let lastCpu = cpuTimes();
  return () => {
    const elu = performance.eventLoopUtilization();
    const cpu = cpuTimes();
    const busy = performance.eventLoopUtilization(elu, lastElu).utilization;
    const spareCores = ((cpu.idle - lastCpu.idle) / Math.max(cpu.total - lastCpu.total, 1)) * cpu.cores;
    lastElu = elu;
    lastCpu = cpu;
    return { busy, spareCores };
  };
}

/** The pool's settings from the environment: LUCKY_WEB_HELPERS (count), LUCKY_WEB_HELPERS_START=eager. */
export function helperSettings(env = process.env): { max: number; eager: boolean } {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const given = Number.parseInt(env.LUCKY_WEB_HELPERS ?? '', 10);
  return {
    max: Number.isFinite(given) && given >= 0 ? Math.min(given, 16) : Math.min(Math.max(cores - 1, 0), 3),
    eager: env.LUCKY_WEB_HELPERS_START === 'eager',
  };
}

/**
 * V8's own young generation (16 MB) for helpers, not the server process's 2 MB: a helper runs only
 * while the site is busy, when a small young generation spends the time in scavenges (HTTP/2
 * through the proxy measured ~+35 %); the idle memory budget is the server process's.
 * LUCKY_HELPER_V8_FLAGS overrides.
 */
const HELPER_V8_FLAGS = (process.env.LUCKY_HELPER_V8_FLAGS ?? '--v8-pool-size=1').split(' ').filter(Boolean);

/**
 * New connections a helper gets for each one the server process keeps: the server process also
 * accepts and hands over every connection, runs the admin console and the other modules, and has
 * the small young generation (of 0:1, 1:1, 1:2 and 1:3, 1:2 served the most through the proxy on 2 cores).
 */
const HELPER_TURNS = 2;

const SAMPLE_MS = 500;
/** Share of the server process's time spent working (not waiting) that counts as busy. */
const BUSY = 0.75;
/**
 * Idle CPU the machine must have (in cores) for a helper to start: on a machine whose cores are
 * all busy (the clients or the back end run on it too) another process only competes for them.
 * Half a core, measured: on 2 cores with wrk and the back end on the machine, 0.2-0.4 of a core
 * stayed idle, and a helper started on that cut 10 KiB answers through the proxy from 57-72 % of
 * nginx's req/s to 44-58 % (its IPC, JIT and GC, and the context switches, cost more than it won).
 */
const SPARE_CORES = 0.5;
/**
 * Busy samples in a row (2 s) before a helper starts: a short burst does not start one, nor does
 * a machine whose idle CPU only now and then reaches SPARE_CORES. With the load generator and the
 * back end on the same 2 cores, single samples at 0.5-0.53 cores idle came up in a few of the
 * 500 ms samples (median 0.28, 9 in 10 below 0.4); two in a row started a helper in one of three
 * benchmark runs, which then cut the proxy's req/s by about a third.
 */
const BUSY_SAMPLES = 4;
/** A helper without connections for this long exits (its memory goes back to the system). */
const IDLE_EXIT_MS = 60_000;
/** A helper that dies this soon after starting holds further starts off for BACKOFF_MS. */
const EARLY_DEATH_MS = 10_000;
const BACKOFF_MS = 60_000;

interface Helper {
  child: ChildProcess;
  ready: boolean;
  leaving: boolean;
  startedAt: number;
  connections: number;
  /** Since when it has had no connections (0: it has some). */
  idleSince: number;
  /** Its figures per rule key, as last reported. */
  traffic: Record<string, HelperTraffic>;
}

/**
 * The web service's extra processes. Node serves JavaScript on one core; a site
 * busy enough to fill it gets helper processes (up to one per further core, at
 * most 3 by default), started when the server process stays busy while the machine has idle CPU, stopped
 * after a minute without connections, so an idle box pays nothing for them. The
 * server process keeps every listening socket and hands each new connection,
 * before reading from it, in turns to itself and the ready helpers; the helper runs the
 * same listener and handlers on the rule and certificates it was sent, and reports
 * its log lines back to the rule's logs here.
 */
export class HelperPool {
  private readonly helpers: Helper[] = [];
  private readonly rules = new Map<string, ReverseproxyRule>();
  /** Figures of helpers that have exited, per rule key (connections: 0). */
  private readonly retired = new Map<string, HelperTraffic>();
  private turn = 0;
  private timer: NodeJS.Timeout | undefined;
  private load: (() => Load) | undefined;
  private busySamples = 0;
  private holdUntil = 0;
  private readonly stopCertWatch: (() => void) | undefined;
  private readonly stopChallengeWatch: (() => void) | undefined;
  private closed = false;

  constructor(private readonly opts: HelperPoolOptions) {
    this.stopCertWatch = opts.certs?.onChange(() => this.broadcast(this.certMessage()));
    this.stopChallengeWatch = opts.challenges?.onChange(() => this.broadcast(this.challengeMessage()));
  }

  /** A rule that listens in the server process (added or changed). */
  setRule(rule: ReverseproxyRule): void {
    if (this.opts.max === 0 || this.closed) return;
    this.rules.set(rule.key, rule);
    this.broadcast({ t: 'rule', rule });
    if (this.opts.eager) while (this.running < this.opts.max) this.spawn();
    else this.watchLoad();
  }

  /**
   * Rule `key`'s figures in the helpers: bytes in, bytes out, requests (helpers gone included),
   * connections open now.
   */
  traffic(key: string): HelperTraffic {
    const sum: HelperTraffic = [...(this.retired.get(key) ?? [0, 0, 0, 0])];
    for (const h of this.helpers) {
      const t = h.traffic[key];
      if (t) for (let i = 0; i < 4; i++) sum[i] += t[i];
    }
    return sum;
  }

  /** The rule stopped listening: helpers close its connections. */
  dropRule(key: string): void {
    this.retired.delete(key);
    if (!this.rules.delete(key)) return;
    this.broadcast({ t: 'drop', key });
    if (this.rules.size) return;
    // Nothing left to serve: the helpers go now rather than after their idle minute.
    this.stopWatching();
    for (const h of this.helpers) void this.retire(h);
  }

  /** Give a just-accepted connection of rule `key` to a helper if it is one's turn; false: serve it here. */
  handOff(key: string, socket: net.Socket): boolean {
    if (!this.helpers.length || !this.rules.has(key)) return false;
    const ready = this.helpers.filter((h) => h.ready && !h.leaving && h.child.connected);
    if (!ready.length) return false;
    // Turns: one for this process, HELPER_TURNS for each helper.
    this.turn = (this.turn + 1) % (ready.length * HELPER_TURNS + 1);
    if (this.turn === 0) return false;
    const h = ready[(this.turn - 1) % ready.length];
    h.connections++;
    h.idleSince = 0;
    try {
      h.child.send({ t: 'conn', key } satisfies ToHelper, socket, { keepOpen: false }, (err) => {
        if (err) socket.destroy();
      });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The security lists changed: each helper names the client addresses it holds connections of,
   * and is told which of them the lists refuse now (it resets those). A connection still on its
   * way to a helper arrives before this message (one ordered channel), so it is among them.
   */
  recheck(): void {
    if (this.opts.admits) this.broadcast({ t: 'recheck' });
  }

  /** Helpers serving now (for the status and the tests). */
  get size(): number {
    return this.helpers.filter((h) => h.ready && !h.leaving).length;
  }

  /** Helpers started and not stopping (ready or not): what the start limit counts. */
  private get running(): number {
    return this.helpers.filter((h) => !h.leaving).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWatching();
    this.stopCertWatch?.();
    this.stopChallengeWatch?.();
    await Promise.all(this.helpers.map((h) => this.retire(h)));
  }

  private challengeMessage(): ToHelper {
    return { t: 'challenges', entries: this.opts.challenges?.entries() ?? [] };
  }

  private certMessage(): ToHelper {
    return { t: 'certs', certs: this.opts.certs?.records() ?? [] };
  }

  private broadcast(m: ToHelper): void {
    for (const h of this.helpers) if (h.child.connected && !h.leaving) h.child.send(m);
  }

  private spawn(): void {
    const here = fileURLToPath(import.meta.url);
    // From the TypeScript sources (tests, `npm run dev`) the helper needs tsx as the loader.
    const fromSource = here.endsWith('.ts');
    const entry = here.replace(/helperPool\.(ts|js)$/, `helperMain.$1`);
    const child = fork(entry, [], {
      execArgv: fromSource ? ['--conditions=development', '--import', 'tsx'] : HELPER_V8_FLAGS,
      env: { ...process.env, LUCKY_WEB_HELPER: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    const h: Helper = {
      child,
      ready: false,
      leaving: false,
      startedAt: Date.now(),
      connections: 0,
      idleSince: 0,
      traffic: {},
    };
    this.helpers.push(h);
    const relay = adminRelay();
    if (relay) child.send({ t: 'relay', port: relay.port, secret: relay.secret } satisfies ToHelper);
    child.send(this.certMessage());
    child.send(this.challengeMessage());
    for (const rule of this.rules.values()) child.send({ t: 'rule', rule } satisfies ToHelper);
    child.on('message', (m: FromHelper) => {
      if (m.t === 'ready') {
        h.ready = true;
        this.opts.log.info(`web service helper process ${child.pid} started`);
      } else if (m.t === 'peers') {
        const admits = this.opts.admits;
        const refused = admits ? m.ips.filter((ip) => !admits(normalizeIp(ip))) : [];
        if (refused.length && child.connected) child.send({ t: 'refused', ips: refused } satisfies ToHelper);
      } else if (m.t === 'report') {
        for (const line of m.lines) this.opts.onLine(line);
        for (const ip of m.authFailures ?? []) this.opts.onAuthFailure?.(ip);
        h.connections = m.connections;
        h.traffic = m.traffic ?? {};
        if (m.connections > 0) h.idleSince = 0;
        else if (!h.idleSince) h.idleSince = Date.now();
      }
    });
    child.on('error', (err) => this.opts.log.warn(`web service helper process: ${err.message}`));
    child.on('exit', (code, signal) => {
      const i = this.helpers.indexOf(h);
      if (i >= 0) this.helpers.splice(i, 1);
      // What it carried stays in the rules' totals.
      for (const [key, t] of Object.entries(h.traffic)) {
        if (!this.rules.has(key)) continue;
        const r = this.retired.get(key) ?? [0, 0, 0, 0];
        this.retired.set(key, [r[0] + t[0], r[1] + t[1], r[2] + t[2], 0]);
      }
      if (h.leaving) return;
      this.opts.log.warn(
        `web service helper process ${child.pid} ended (${signal ?? `code ${code}`}); its connections were closed`,
      );
      if (Date.now() - h.startedAt < EARLY_DEATH_MS) this.holdUntil = Date.now() + BACKOFF_MS;
    });
  }

  private retire(h: Helper): Promise<void> {
    h.leaving = true;
    if (h.child.exitCode !== null || h.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => h.child.kill('SIGKILL'), 5000);
      h.child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      if (h.child.connected) h.child.send({ t: 'exit' } satisfies ToHelper);
      else h.child.kill('SIGTERM');
    });
  }

  private watchLoad(): void {
    if (this.timer) return;
    this.load = this.opts.load ?? loadMeter();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  private stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.busySamples = 0;
  }

  private sample(): void {
    const { busy, spareCores } = (this.load as () => Load)();
    this.busySamples = busy >= BUSY && spareCores >= SPARE_CORES ? this.busySamples + 1 : 0;
    // Another process only helps when there are more connections than one process serves.
    if (
      this.busySamples >= BUSY_SAMPLES &&
      this.running < this.opts.max &&
      this.opts.connectionsHere() >= 2 &&
      !this.helpers.some((h) => !h.ready) &&
      Date.now() >= this.holdUntil
    ) {
      this.busySamples = 0;
      this.spawn();
    }
    for (const h of this.helpers)
      if (
        !h.leaving &&
        h.idleSince &&
        Date.now() - h.idleSince > (this.opts.idleExitMs ?? IDLE_EXIT_MS) &&
        busy < BUSY
      ) {
        this.opts.log.info(`web service helper process ${h.child.pid} without connections: stopping it`);
        void this.retire(h);
      }
  }
}

/** The machine's CPU time so far (all cores, ms): idle and total. */
function cpuTimes(): { idle: number; total: number; cores: number } {
  let idle = 0;
  let total = 0;
  const cpus = os.cpus();
  for (const c of cpus) {
    idle += c.times.idle;
    total += c.times.user + c.times.nice + c.times.sys + c.times.idle + c.times.irq;
  }
  return { idle, total, cores: cpus.length };
}
