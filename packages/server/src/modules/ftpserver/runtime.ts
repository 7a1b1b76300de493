// The running FTP server: the control listener (through the PortBinder: a taken port is retried
// with its reason), the engine with its sessions, the rule log. A reload keeps the listener and
// the sessions when only users, mounts or limits change; sessions whose user was removed,
// switched off or given a new password, or whose address is no longer allowed, are closed.
import net from 'node:net';
import type { Coded, FtpserverConfig, FtpserverStatusView } from '@lucky/shared';
import { RuleLog } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime, ModuleState } from '../../core/modules/types.js';
import { type BindState, type BindTarget, PortBinder } from '../../core/net/bindPort.js';
import { type ListsWatch, watchLists } from '../../core/safe/recheck.js';
import type { StorageInfo } from '../../core/storage/types.js';
import { FtpEngine } from './ftp/engine.js';
import type { FtpSession } from './ftp/session.js';
import type { EngineLimits } from './ftp/types.js';

export interface FtpRuntimeOptions {
  /** Protocol limits (the tests shorten the time-outs). */
  limits?: Partial<EngineLimits>;
  timeouts?: { loginMs?: number; idleMs?: number };
}

const logOptions = (c: FtpserverConfig) => ({ level: c.logLevel, capacity: c.logCapacity, toConsole: false });

export class FtpserverRuntime implements ModuleRuntime<FtpserverConfig> {
  private config: FtpserverConfig | undefined;
  private engine: FtpEngine | undefined;
  private binder: PortBinder | undefined;
  private server: net.Server | undefined;
  private bindState: BindState | undefined;
  /** The global security lists' changes close refused sessions, as the module's own lists do on a reload. */
  private lists: ListsWatch | undefined;
  readonly log: RuleLog;

  constructor(
    private readonly ctx: ModuleContext,
    private readonly opts: FtpRuntimeOptions = {},
  ) {
    this.log = new RuleLog({ level: 4, capacity: 1024, toConsole: false }, ctx.log);
  }

  private get live(): FtpserverConfig {
    if (!this.config) throw new Error('ftp server not started');
    return this.config;
  }

  async start(config: FtpserverConfig): Promise<void> {
    this.config = config;
    this.log.configure(logOptions(config));
    this.engine = new FtpEngine({
      config: () => this.live,
      storages: this.ctx.storages,
      auth: this.ctx.auth,
      admits: (ip) => this.ctx.safe.admits(ip),
      certs: this.ctx.certs,
      log: this.log,
      limits: this.opts.limits,
      timeouts: this.opts.timeouts,
    });
    const engine = this.engine;
    this.lists = watchLists(this.ctx.safe.onChange, {
      open: () => engine.sessions,
      // A PASS under check asks the lists itself right after its 530 (accessCommands.ts).
      ipOf: (s) => (s.isClosed || s.loginUnderWay ? undefined : s.ip),
      admits: (ip) => this.ctx.safe.admits(ip),
      close: (s) => engine.closeChanged(s),
    });
    await this.listen(config);
  }

  private async listen(config: FtpserverConfig): Promise<void> {
    const target: BindTarget = { host: config.address, port: config.port };
    const binder = new PortBinder(
      target,
      (t) => this.bind(t),
      (s) => this.bound(s, config),
    );
    this.binder = binder;
    await binder.start();
  }

  private async bind(t: Required<BindTarget>): Promise<void> {
    const server = net.createServer({ pauseOnConnect: true, noDelay: true });
    server.on('connection', (sock) => this.engine?.accept(sock));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: t.host, port: t.port, ipv6Only: t.ipv6Only, backlog: 511 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Accept errors (out of file descriptors) are not fatal: the listener keeps going.
    server.on('error', (err) => this.ctx.log.warn(`ftp listener: ${err.message}`));
    this.server = server;
  }

  private bound(s: BindState, config: FtpserverConfig): void {
    this.bindState = s;
    const params = {
      address: config.address || '*',
      port: config.port,
      portMin: config.passive.portMin,
      portMax: config.passive.portMax,
    };
    if (s.state === 'bound') this.engine?.log(4, 'listening', params);
    else this.engine?.log(2, 'listenFailed', { ...params, detail: s.reason.text });
  }

  private async closeListener(): Promise<void> {
    this.binder?.stop();
    this.binder = undefined;
    this.bindState = undefined;
    const server = this.server;
    this.server = undefined;
    // Stops accepting at once; the callback would wait for the accepted sessions, which are the
    // engine's and stay (a reload) or are closed by stop().
    server?.close();
  }

  async reload(next: FtpserverConfig, prev: FtpserverConfig): Promise<void> {
    this.config = next;
    this.log.configure(logOptions(next));
    const engine = this.engine;
    if (!engine) return;
    if (next.port !== prev.port || next.address !== prev.address) {
      await this.closeListener();
      await this.listen(next);
    }
    if (JSON.stringify(next.users) !== JSON.stringify(prev.users)) {
      // A changed or removed password must not keep working from the verified-password cache.
      this.ctx.auth.forget();
      const before = new Map(prev.users.map((u) => [u.key, u]));
      const stale = (s: FtpSession) => {
        if (!s.user || s.user.anonymous) return false;
        const now = next.users.find((u) => u.key === s.user?.key);
        return !now?.enabled || now.password !== before.get(now.key)?.password || now.name !== s.user.name;
      };
      engine.closeWhere(stale);
    }
    if (prev.anonymous.enabled && !next.anonymous.enabled) engine.closeWhere((s) => s.user?.anonymous === true);
    const lists = (c: FtpserverConfig) => JSON.stringify([c.lanOnly, c.allowList, c.blockList]);
    if (lists(next) !== lists(prev)) engine.closeWhere((s) => engine.refusal(s.ip) !== undefined);
  }

  async stop(): Promise<void> {
    this.lists?.stop();
    this.lists = undefined;
    this.engine?.closeAll();
    await this.closeListener();
    this.engine?.log(4, 'stopped', {});
    this.engine = undefined;
  }

  /** Why things are not as they should be: the listener, TLS without a certificate, storages gone, nobody able to log in. */
  private reasons(): Coded[] {
    const c = this.config;
    if (!c) return [];
    const out: Coded[] = [];
    const b = this.bindState;
    if (b && b.state !== 'bound') out.push({ code: b.reason.code, params: b.reason.params });
    if (c.tls.mode !== 'off' && this.engine && !this.engine.tlsReady())
      out.push({ code: c.tls.mode === 'required' ? 'noCertificateRequired' : 'noCertificate' });
    else if (c.tls.mode !== 'off' && c.tls.certificate && !this.ctx.certs.match(c.tls.certificate))
      out.push({ code: 'certificateMissing', params: { name: c.tls.certificate } });
    for (const m of c.mounts)
      if (m.enabled && !this.ctx.storages.get(m.storage))
        out.push({ code: 'storageUnavailable', params: { storage: m.storage } });
    const someone = c.users.some((u) => u.enabled && u.password !== '' && Object.keys(u.access).length > 0);
    if (!someone && !c.anonymous.enabled) out.push({ code: 'noUsers' });
    return out;
  }

  status(): { state?: ModuleState; reason?: Coded; error?: string; details: Record<string, unknown> } {
    const b = this.bindState;
    const details = { listening: b?.state === 'bound', sessions: this.engine?.sessions.size ?? 0 };
    if (b && b.state !== 'bound')
      return {
        state: 'error',
        reason: { code: b.reason.code, params: b.reason.params },
        error: b.reason.text,
        details,
      };
    return { details };
  }

  statusView(): FtpserverStatusView {
    const c = this.live;
    const e = this.engine;
    return {
      enabled: c.enabled,
      listening: this.bindState?.state === 'bound',
      reasons: this.reasons(),
      port: c.port,
      address: c.address,
      tlsReady: e?.tlsReady() ?? false,
      sessions: e ? [...e.sessions].map((s) => s.view()) : [],
      bytesIn: e?.counters.bytesIn ?? 0,
      bytesOut: e?.counters.bytesOut ?? 0,
      logins: e?.counters.logins ?? 0,
      failedLogins: e?.counters.failedLogins ?? 0,
    };
  }

  kick(id: string): boolean {
    return this.engine?.kick(id) ?? false;
  }

  /** The engine (tests read its counters and sessions). */
  get ftp(): FtpEngine | undefined {
    return this.engine;
  }

  /** What storage management publishes about a storage now (undefined: off, or no such entry). */
  storageInfo(key: string): StorageInfo | undefined {
    return this.ctx.storages.list().find((s) => s.key === key);
  }
}
