// The running Wake-on-LAN module: every switched-on device's online state, refreshed every
// `refreshSec` (a webhook call when a known state flips), wakes with "wake and wait" progress,
// shutdowns, the relay and agent calls other consoles make, and the LAN scan.
import path from 'node:path';
import {
  type CodedText,
  WOL_LIMITS,
  type WolConfig,
  type WolDevice,
  type WolDeviceState,
  type WolLogCode,
  type WolRelayBody,
  type WolShutdownResponse,
  type WolWakeResponse,
  wolLogText,
  wolReason,
} from '@lucky/shared';
import { RuleLog, type RuleLogLevel } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { HttpClients } from '../../core/outbound/client.js';
import { callWebhook } from '../../core/webhook/call.js';
import { callView, WebhookHistory } from '../../core/webhook/history.js';
import { localTime } from '../../core/webhook/template.js';
import { LIVE_NEIGHBOUR, type Neighbour, neighbours, pingPath, pingProbe, tcpProbe } from './checks.js';
import { sendMagic, WakeError, type WakeTarget } from './magic.js';
import { callConsole, RemoteError } from './remote.js';
import { runLocal, sshCommand } from './shutdown.js';

/** Devices checked at once (a scan of 256 would otherwise open 256 connections at a time). */
const CHECK_CONCURRENCY = 16;
/** While waiting for a woken device: seconds between its checks. */
const WAIT_POLL_MS = 2000;
const LOG_CAPACITY = 1000;

/** A failure the routes answer as a field failure of the module's codes. */
export class WolRefusal extends Error {
  constructor(
    readonly code: 'deviceNotFound' | 'deviceDisabled' | 'agentDisabled' | 'relayDisabled' | 'shutdownNotConfigured',
    readonly params: Record<string, unknown> = {},
  ) {
    super(code);
  }
}

/** Runs `fn` over `items`, at most `n` at a time. */
async function eachLimited<T>(items: T[], n: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

export class WolRuntime implements ModuleRuntime<WolConfig> {
  config!: WolConfig;
  readonly log: RuleLog;
  readonly webhooks = new WebhookHistory();
  private readonly http = new HttpClients();
  private readonly states = new Map<string, WolDeviceState>();
  private refreshTimer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  /** Devices with a "wake and wait" running (their own faster checks). */
  private readonly waiting = new Set<string>();

  constructor(private readonly ctx: ModuleContext) {
    this.log = new RuleLog({ level: 4, capacity: LOG_CAPACITY, toConsole: true }, ctx.log);
    ctx.signal.addEventListener('abort', () => void this.http.close(), { once: true });
  }

  async start(config: WolConfig): Promise<void> {
    this.config = config;
    const on = config.devices.filter((d) => d.enabled).length;
    if (on > 0) this.line(4, 'started', { devices: on, seconds: config.refreshSec });
    this.schedule();
  }

  async reload(next: WolConfig, prev: WolConfig): Promise<void> {
    this.config = next;
    const keys = new Set(next.devices.map((d) => d.key));
    for (const k of this.states.keys()) if (!keys.has(k)) this.states.delete(k);
    if (next.refreshSec !== prev.refreshSec || JSON.stringify(next.devices) !== JSON.stringify(prev.devices))
      this.schedule();
  }

  async stop(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
    await this.http.close();
  }

  status() {
    const on = this.config?.devices.filter((d) => d.enabled) ?? [];
    const online = on.filter((d) => this.states.get(d.key)?.online === 'online').length;
    // Nothing to watch: the module is on but does nothing (the overview says stopped, not running).
    return {
      state: on.length > 0 ? ('running' as const) : ('stopped' as const),
      details: { devices: this.config?.devices.length ?? 0, enabled: on.length, online },
    };
  }

  /** A device's state (a fresh `unknown` one before its first check). */
  state(key: string): WolDeviceState {
    let s = this.states.get(key);
    if (!s) {
      s = { online: 'unknown', via: [] };
      this.states.set(key, s);
    }
    return s;
  }

  pingAvailable(): boolean {
    return pingPath() !== undefined;
  }

  /** A device by key, else by name (actions take either). */
  find(ref: string): WolDevice {
    const d = this.config.devices.find((x) => x.key === ref) ?? this.config.devices.find((x) => x.name === ref);
    if (!d) throw new WolRefusal('deviceNotFound', { device: ref });
    return d;
  }

  // ---- online checks ----------------------------------------------------------------------------

  /** Checks now and then every refreshSec (a new config restarts the cycle). */
  private schedule(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
    if (!this.config.devices.some((d) => d.enabled)) return;
    void this.checkAll();
    this.refreshTimer = this.ctx.setInterval(() => void this.checkAll(), this.config.refreshSec * 1000);
  }

  /** One round over every switched-on device (a round still running is not doubled). */
  checkAll(): Promise<void> {
    this.checking ??= (async () => {
      try {
        const table = await neighbours(this.ctx.signal);
        const devices = this.config.devices.filter((d) => d.enabled && !this.waiting.has(d.key));
        await eachLimited(devices, CHECK_CONCURRENCY, (d) => this.check(d, table));
      } finally {
        this.checking = undefined;
      }
    })();
    return this.checking;
  }

  /** Checks one device and records what changed. */
  private async check(d: WolDevice, table?: Neighbour[]): Promise<WolDeviceState> {
    const list = table ?? (await neighbours(this.ctx.signal));
    const entries = list.filter((n) => d.macs.includes(n.mac));
    const live = entries.find((n) => LIVE_NEIGHBOUR.has(n.state));
    const entry = live ?? entries[0];
    const host = d.check.host || entry?.ip || '';
    const timeout = this.config.checkTimeoutSec;
    const via: WolDeviceState['via'] = [];
    const tcp = host !== '' && d.check.tcpPort > 0;
    const ping = host !== '' && d.check.ping && this.pingAvailable();
    if (tcp && (await tcpProbe(host, d.check.tcpPort, timeout * 1000, this.ctx.signal))) via.push('tcp');
    if (ping && !via.includes('tcp') && (await pingProbe(host, timeout, this.ctx.signal))) via.push('ping');
    if (live) via.push('neigh');
    if (this.ctx.signal.aborted) return this.state(d.key);
    // A probe the device is set up for decides; without one, a live neighbour entry for its MAC.
    const online = tcp || ping ? via.some((v) => v !== 'neigh') : live ? true : entry ? false : undefined;
    const s = this.state(d.key);
    const next = online === undefined ? 'unknown' : online ? 'online' : 'offline';
    const now = new Date().toISOString();
    const prev = s.online;
    s.via = via;
    s.checkedAt = now;
    if (host) s.ip = host;
    if (entry) s.neigh = entry.state;
    else delete s.neigh;
    if (next !== prev) {
      s.online = next;
      s.since = now;
      if (next === 'online') this.line(4, 'online', { device: d.name, via: via.join(', ') });
      else if (next === 'offline') this.line(4, 'offline', { device: d.name });
      // A first result after start is not a change the webhook tells about.
      if (prev !== 'unknown' && next !== 'unknown') void this.notify(d, next, s);
    }
    return s;
  }

  private async notify(d: WolDevice, state: 'online' | 'offline', s: WolDeviceState): Promise<void> {
    const w = this.config.webhook;
    if (!w.enabled) return;
    const now = new Date();
    const outcome = await callWebhook(w, wolWebhookVars(d.name, state, s.ip ?? '', d.macs.join(','), now), {
      http: this.http,
      signal: this.ctx.signal,
      delay: (ms) => new Promise((r) => this.ctx.setTimeout(r, ms)),
    });
    this.webhooks.add('', callView(outcome, now));
    if (outcome.ok) this.line(4, 'webhookOk', { device: d.name, state, status: outcome.status ?? 0 });
    else this.line(3, 'webhookFailed', { device: d.name, state, reason: outcome.reason });
  }

  // ---- wake -------------------------------------------------------------------------------------

  /** Sends the packets (here or through the relay console); with `waitSec`, watches for the device. */
  async wake(ref: string, waitSec = 0, caller = 'api'): Promise<WolWakeResponse> {
    const d = this.find(ref);
    const s = this.state(d.key);
    const at = new Date();
    let out: { sent: number; target: string };
    try {
      out = d.relay.enabled ? await this.wakeByRelay(d) : await sendMagic(wakeTarget(d), this.ctx.signal);
    } catch (err) {
      const reason = failureReason(err);
      s.lastWake = { at: at.toISOString(), ok: false, reason };
      this.line(3, 'wakeFailed', { device: d.name, reason, caller });
      throw err;
    }
    s.lastWake = { at: at.toISOString(), ok: true };
    if (d.relay.enabled) this.line(4, 'relayed', { device: d.name, url: d.relay.url, caller });
    else
      this.line(4, 'woke', { device: d.name, macs: d.macs.join(', '), repeat: d.repeat, target: out.target, caller });
    const res: WolWakeResponse = { ret: 0, ...out };
    if (waitSec > 0) {
      s.wake = {
        phase: 'waiting',
        startedAt: at.toISOString(),
        deadline: new Date(at.getTime() + waitSec * 1000).toISOString(),
      };
      res.wake = { ...s.wake };
      this.watch(d.key, at.getTime(), waitSec);
    }
    return res;
  }

  private async wakeByRelay(d: WolDevice): Promise<{ sent: number; target: string }> {
    const body: WolRelayBody = {
      macs: d.macs,
      broadcast: d.broadcast,
      interface: d.interface,
      port: d.port,
      repeat: d.repeat,
      intervalMs: d.intervalMs,
      secureOn: d.secureOn,
    };
    const timeoutMs = (WOL_LIMITS.shutdownTimeoutSec.default + (d.repeat * d.intervalMs) / 1000) * 1000;
    const r = await callConsole<WolWakeResponse>(
      this.http,
      d.relay,
      '/api/wol/relay',
      body,
      { unreachable: 'relayUnreachable', refused: 'relayRefused' },
      timeoutMs,
      this.ctx.signal,
    );
    return { sent: r.sent, target: `${d.relay.url} → ${r.target}` };
  }

  /** Checks the device every WAIT_POLL_MS until it answers or the time is up. */
  private watch(key: string, started: number, waitSec: number): void {
    this.waiting.add(key);
    const deadline = started + waitSec * 1000;
    const round = async () => {
      const d = this.config.devices.find((x) => x.key === key);
      const s = this.states.get(key);
      if (!d || !s?.wake || this.ctx.signal.aborted) return void this.waiting.delete(key);
      await this.check(d);
      const seconds = Math.round((Date.now() - started) / 1000);
      if (s.online === 'online') {
        s.wake = { ...s.wake, phase: 'online', seconds };
        this.line(4, 'wakeOnline', { device: d.name, seconds });
        return void this.waiting.delete(key);
      }
      if (Date.now() >= deadline) {
        s.wake = {
          ...s.wake,
          phase: 'timeout',
          reason: wolReason('waitTimeout', { device: d.name, seconds: waitSec }),
        };
        this.line(3, 'wakeTimeout', { device: d.name, seconds: waitSec });
        return void this.waiting.delete(key);
      }
      this.ctx.setTimeout(() => void round(), Math.min(WAIT_POLL_MS, Math.max(deadline - Date.now(), 0)));
    };
    this.ctx.setTimeout(() => void round(), Math.min(WAIT_POLL_MS, waitSec * 1000));
  }

  /** POST /api/wol/relay: another console asks this one to send on its LAN. */
  async relay(body: WakeTarget, caller: string): Promise<WolWakeResponse> {
    if (!this.config.agent.relayEnabled) throw new WolRefusal('relayDisabled');
    const out = await sendMagic(body, this.ctx.signal);
    this.line(4, 'relayServed', { macs: body.macs.join(', '), target: out.target, caller });
    return { ret: 0, ...out };
  }

  // ---- shutdown ---------------------------------------------------------------------------------

  async shutdown(ref: string, caller = 'api'): Promise<WolShutdownResponse> {
    const d = this.find(ref);
    const s = this.state(d.key);
    const sd = d.shutdown;
    if (sd.method === 'none') throw new WolRefusal('shutdownNotConfigured', { device: d.name });
    const timeout = WOL_LIMITS.shutdownTimeoutSec.default;
    let result: WolShutdownResponse;
    if (sd.method === 'ssh') {
      const host = sd.ssh.host || d.check.host;
      const r = await sshCommand(
        { ...sd.ssh, host },
        path.join(this.ctx.configDir, 'wol', 'known_hosts'),
        timeout,
        this.ctx.signal,
      );
      result = r.ok
        ? { ret: 0, ok: true, output: r.output }
        : { ret: 0, ok: false, reason: r.reason, output: r.output };
    } else {
      try {
        await callConsole(
          this.http,
          sd.agent,
          '/api/wol/agent/shutdown',
          {},
          { unreachable: 'agentUnreachable', refused: 'agentRefused' },
          (timeout + 5) * 1000,
          this.ctx.signal,
        );
        result = { ret: 0, ok: true };
      } catch (err) {
        result = { ret: 0, ok: false, reason: failureReason(err) };
      }
    }
    s.lastShutdown = {
      at: new Date().toISOString(),
      ok: result.ok,
      ...(result.reason ? { reason: result.reason } : {}),
    };
    if (result.ok) this.line(4, 'shutdownSent', { device: d.name, method: sd.method, caller });
    else this.line(3, 'shutdownFailed', { device: d.name, reason: result.reason, caller });
    return result;
  }

  /** POST /api/wol/agent/shutdown: runs this console's own shutdown command for the caller. */
  async agentShutdown(caller: string): Promise<{ code: number; output: string }> {
    const a = this.config.agent;
    if (!a.shutdownEnabled) throw new WolRefusal('agentDisabled');
    const r = await runLocal(a.shutdownCommand, WOL_LIMITS.shutdownTimeoutSec.default * 1000, this.ctx.signal);
    this.line(r.code === 0 ? 4 : 3, 'agentShutdown', { caller, code: r.code });
    return { code: r.code, output: r.output };
  }

  // ---- helpers ----------------------------------------------------------------------------------

  line(level: RuleLogLevel, code: WolLogCode, params: Record<string, unknown>): void {
    this.log.coded(level, code, params, wolLogText(code, params));
  }

  httpClients(): HttpClients {
    return this.http;
  }
}

export function wakeTarget(d: WolDevice): WakeTarget {
  return {
    macs: d.macs,
    broadcast: d.broadcast,
    interface: d.interface,
    port: d.port,
    repeat: d.repeat,
    intervalMs: d.intervalMs,
    secureOn: d.secureOn,
  };
}

/** The coded reason of a failed wake / relay / shutdown call. */
export function failureReason(err: unknown): CodedText {
  if (err instanceof WakeError) return wolReason(err.code, err.params);
  if (err instanceof RemoteError) return err.reason;
  return wolReason('sendFailed', { target: '', detail: (err as Error).message });
}

/** Variables of the online/offline webhook (WOL_WEBHOOK_VARS). */
export function wolWebhookVars(name: string, state: string, ip: string, mac: string, now: Date) {
  return { name, state, ip, mac, time: localTime(now) };
}
