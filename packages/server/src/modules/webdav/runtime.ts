import path from 'node:path';
import {
  type CodedText,
  WEBDAV_REFUSAL_LOG,
  type WebdavConfig,
  type WebdavLogLine,
  type WebdavRefusal,
  type WebdavStatus,
  webdavLogText,
  webdavReason,
} from '@lucky/shared';
import { normalizeIp } from '../../core/http/clientIp.js';
import { RuleLog } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { type BindState, type BindTarget, PortBinder } from '../../core/net/bindPort.js';
import { reset } from '../../core/net/connGuard.js';
import { type ListsWatch, watchLists } from '../../core/safe/recheck.js';
import { HttpListener, type ListenerOptions } from '../../core/serve/listener.js';
import { TrafficMeter } from '../../core/serve/trafficMeter.js';
import { AddressRules, GatedGuard } from './addressRules.js';
import { createDavHandler, type DavHandler, LockManager } from './engine.js';
import { Front, type FrontState, foldName } from './front.js';

/** How often the live figures are taken. */
const SAMPLE_MS = 1000;
/** Lines kept in the server's log. */
const LOG_CAPACITY = 2000;
/** A refused address is logged once a minute at most, however often it knocks. */
const REFUSAL_LOG_MS = 60_000;
/** A request body that brings no byte for this long is cut. */
const BODY_IDLE_MS = 60_000;
/**
 * A request must be whole within this long: a day, not the toolkit's 5 minutes (1 GiB over a
 * 20 Mbit/s uplink takes 7); a body that stops arriving is cut after BODY_IDLE_MS instead.
 */
const REQUEST_MS = 24 * 3600_000;

/** What tests may shorten. */
export interface WebdavRuntimeOptions {
  bodyIdleMs?: number;
}

/**
 * The WebDAV server: one listener (HTTP, or HTTPS with h2 by ALPN) on the configured address and
 * port, bound through the PortBinder (a taken port is retried every 10 s with its reason). A
 * reload that changes only users, mounts, address rules, TLS or the prefix keeps the socket and
 * its connections; a new address, port or network binds anew. Locks and dead properties live as
 * long as the runtime (across reloads).
 */
export class WebdavRuntime implements ModuleRuntime<WebdavConfig> {
  private config!: WebdavConfig;
  private state!: FrontState;
  private listener?: HttpListener;
  private binder?: PortBinder;
  /** `address|port|network` the listener is for. */
  private bound?: string;
  private bind: { state: 'idle' } | BindState = { state: 'idle' };
  private loggedReason?: string;
  /** The last `listening` line's params (a reload that changes nothing of it says nothing). */
  private announced?: string;
  private meter = new TrafficMeter();
  private sampler?: NodeJS.Timeout;
  private readonly locks: LockManager;
  private engineFor?: { prefix: string; handler: DavHandler };
  private readonly front: Front;
  readonly log: RuleLog;
  private readonly guard: GatedGuard;
  private readonly refusalsLogged = new Map<string, number>();
  /** The security lists' changes reach the open connections (the guard holds every one of them). */
  private readonly lists: ListsWatch;

  constructor(
    private readonly ctx: ModuleContext,
    opts: WebdavRuntimeOptions = {},
  ) {
    // Dead properties (PROPPATCH) outlive a restart in one small JSON file per storage.
    this.locks = new LockManager({ propsDir: path.join(ctx.configDir, 'webdav', 'props') });
    this.log = new RuleLog({ level: 4, capacity: LOG_CAPACITY, toConsole: false }, ctx.log);
    this.guard = new GatedGuard(
      () => {
        const web = ctx.webLimits();
        return {
          perAddress: this.config.perAddressMaxConnections,
          total: this.config.maxConnections,
          handshakeMs: web.handshakeMs,
          headerMs: web.headerMs,
        };
      },
      (line) => ctx.log.warn(line),
      () => this.state.rules,
      (ip, why) => this.refused(ip, why),
    );
    this.front = new Front({
      state: () => this.state,
      bodyIdleMs: opts.bodyIdleMs ?? BODY_IDLE_MS,
      auth: ctx.auth,
      log: (level, code, params) => this.line(level, code, params),
      refused: (ip, why) => this.refused(ip, why),
      admits: (ip) => ctx.safe.admits(ip),
    });
    this.lists = watchLists(ctx.safe.onChange, {
      open: () => this.guard.sockets(),
      ipOf: (s) => (s.destroyed ? undefined : normalizeIp(s.remoteAddress)),
      admits: (ip) => ctx.safe.admits(ip),
      close: (s) => reset(s),
    });
  }

  async start(config: WebdavConfig): Promise<void> {
    await this.apply(config);
  }

  async reload(next: WebdavConfig, prev: WebdavConfig): Promise<void> {
    // Remembered passwords are only valid for the users they were checked against.
    if (JSON.stringify(next.users) !== JSON.stringify(prev.users)) this.ctx.auth.forget();
    await this.apply(next);
  }

  async stop(): Promise<void> {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = undefined;
    this.lists.stop();
    this.front.close();
    await this.closeListener();
    this.line(4, 'stopped', {});
  }

  private apply(config: WebdavConfig): Promise<void> {
    this.config = config;
    this.state = this.stateOf(config);
    const key = bindKey(config);
    if (this.listener && this.bound === key) {
      this.listener.configure(listenOptions(config));
      if (this.bind.state === 'bound') this.announce(this.bind.target);
      return Promise.resolve();
    }
    return this.rebind(config);
  }

  /** What the front and the engine read for this config (the engine is made anew only for a new prefix). */
  private stateOf(config: WebdavConfig): FrontState {
    if (this.engineFor?.prefix !== config.pathPrefix) {
      this.engineFor = {
        prefix: config.pathPrefix,
        handler: createDavHandler({
          prefix: config.pathPrefix,
          mounts: () => [...this.state.mounts.values()].map((m) => ({ name: m.name, storageKey: m.storage })),
          storage: (key) => this.ctx.storages.get(key),
          locks: this.locks,
        }),
      };
    }
    return {
      config,
      rules: new AddressRules(config),
      users: new Map(config.users.filter((u) => u.enabled).map((u) => [foldName(u.name), u])),
      mounts: new Map(config.mounts.filter((m) => m.enabled).map((m) => [m.name, m])),
      engine: this.engineFor.handler,
    };
  }

  private async closeListener(): Promise<void> {
    this.binder?.stop();
    const listener = this.listener;
    this.listener = undefined;
    this.binder = undefined;
    this.bound = undefined;
    this.bind = { state: 'idle' };
    this.loggedReason = undefined;
    this.announced = undefined;
    await listener?.close();
  }

  private async rebind(config: WebdavConfig): Promise<void> {
    await this.closeListener();
    const listener = new HttpListener(
      {
        onRequest: this.front.handle,
        onUpgrade: (_req, socket) => socket.destroy(),
        admits: (ip) => this.ctx.safe.admits(ip),
      },
      this.ctx.certs,
      listenOptions(config),
      undefined,
      this.guard,
    );
    let applied: Promise<void> = Promise.resolve();
    const binder = new PortBinder(
      bindTarget(config),
      async (t) => {
        await listener.listen(t.port, t.host, t.ipv6Only);
        // Stopped while the bind was under way: let the port go again.
        if (this.binder !== binder) {
          await listener.close();
          throw Object.assign(new Error('the server stopped'), { code: 'ESTOPPED' });
        }
      },
      (state) => {
        applied = this.bindState(binder, state);
      },
    );
    this.listener = listener;
    this.binder = binder;
    this.bound = bindKey(config);
    this.meter = new TrafficMeter();
    await binder.start();
    await applied;
  }

  private async bindState(binder: PortBinder, state: BindState): Promise<void> {
    if (this.binder !== binder) return;
    this.bind = state;
    if (state.state === 'bound') {
      this.loggedReason = undefined;
      this.sampler ??= this.ctx.setInterval(() => this.sample(), SAMPLE_MS);
      this.sampler.unref?.();
      this.announce(state.target);
      return;
    }
    if (state.state === 'failed') {
      const listener = this.listener;
      this.listener = undefined;
      this.binder = undefined;
      this.bound = undefined;
      await listener?.close();
    }
    if (this.loggedReason !== state.reason.code) {
      this.loggedReason = state.reason.code;
      const again = state.state === 'retrying' ? ' (tried again every 10 s)' : '';
      this.log.coded(2, state.reason.code, state.reason.params ?? {}, `${state.reason.text}${again}`);
      this.ctx.log.error(`${state.reason.text}${again}`);
    }
  }

  /** Says where and how it listens, once per change of address, scheme or prefix. */
  private announce(t: Required<BindTarget>): void {
    const params = {
      address: t.host.includes(':') ? `[${t.host}]:${t.port}` : `${t.host}:${t.port}`,
      scheme: this.config.tls.enabled ? 'https' : 'http',
      prefix: this.config.pathPrefix,
    };
    const id = JSON.stringify(params);
    if (id === this.announced) return;
    this.announced = id;
    this.line(4, 'listening', params);
  }

  private sample(): void {
    const listener = this.listener;
    if (!listener) return;
    this.meter.sample({ ...listener.traffic(), requests: this.front.requests });
  }

  private line(level: 2 | 3 | 4 | 5, code: WebdavLogLine, params: Record<string, unknown>): void {
    if (this.log.wants(level)) this.log.coded(level, code, params, webdavLogText(code, params));
  }

  /** A refused address, logged at most once a minute per address. */
  private refused(ip: string, why: WebdavRefusal): void {
    const now = Date.now();
    const last = this.refusalsLogged.get(ip);
    if (last !== undefined && now - last < REFUSAL_LOG_MS) return;
    if (this.refusalsLogged.size >= 10_000) {
      for (const [k, at] of this.refusalsLogged) if (now - at >= REFUSAL_LOG_MS) this.refusalsLogged.delete(k);
    }
    this.refusalsLogged.set(ip, now);
    this.line(3, WEBDAV_REFUSAL_LOG[why], { client: ip });
  }

  /** The server's live status: where it listens, its notes and figures. */
  view(): WebdavStatus {
    const c = this.config;
    const base = {
      warnings: this.warnings(),
      scheme: c.tls.enabled ? ('https' as const) : ('http' as const),
      pathPrefix: c.pathPrefix,
      ...this.meter.figures,
      refused: this.guard.refused,
    };
    const b = this.bind;
    if (b.state === 'bound') return { ...base, state: 'running', address: c.address, port: b.target.port };
    if (b.state === 'retrying') return { ...base, state: 'error', reason: b.reason, retryAt: b.retryAt, port: c.port };
    if (b.state === 'failed') return { ...base, state: 'error', reason: b.reason, port: c.port };
    return { ...base, state: 'stopped', port: c.port };
  }

  private warnings(): CodedText[] {
    const c = this.config;
    const w: CodedText[] = [];
    const users = c.users.some((u) => u.enabled);
    if (!c.tls.enabled && users) w.push(webdavReason('plainHttpPasswords'));
    if (c.tls.enabled && !this.ctx.certs.hasAny()) w.push(webdavReason('noCertificate'));
    if (!users && !c.anonymousReadOnly) w.push(webdavReason('noUsers'));
    const mounts = c.mounts.filter((m) => m.enabled);
    if (mounts.length === 0) w.push(webdavReason('noMounts'));
    for (const m of mounts)
      if (!this.ctx.storages.get(m.storage))
        w.push(webdavReason('storageUnavailable', { mount: m.name, storage: m.storage }));
    return w;
  }

  status() {
    const v = this.view();
    return {
      state: v.state === 'error' ? ('error' as const) : ('running' as const),
      reason: v.reason && { code: v.reason.code, params: v.reason.params },
      error: v.reason?.text,
      details: { port: v.port, connections: v.connections, requests: v.requests },
    };
  }
}

const bindKey = (c: WebdavConfig) => `${c.address}|${c.port}|${c.network}`;

/** HTTPS only when TLS is on (a password never crosses in the clear on a TLS server), h2 by ALPN. */
export function listenOptions(c: WebdavConfig): ListenerOptions {
  return {
    listenTypes: c.tls.enabled ? 'https' : 'http',
    minTlsVersion: 'TLSv1.2',
    http2: true,
    h2c: false,
    proxyProtocolFrom: [],
    defaultServerName: c.tls.certificate,
    requestMs: REQUEST_MS,
  };
}

/** Where the listener binds for its network type: as the web service's rules (reverseproxy bindTarget). */
function bindTarget(c: WebdavConfig): BindTarget {
  const host = c.address.replace(/^\[|\]$/g, '');
  if (host) return { host, port: c.port, ipv6Only: c.network === 'tcp6' };
  if (c.network === 'tcp4') return { host: '0.0.0.0', port: c.port };
  if (c.network === 'tcp6') return { host: '::', port: c.port, ipv6Only: true };
  return { host: '', port: c.port };
}
