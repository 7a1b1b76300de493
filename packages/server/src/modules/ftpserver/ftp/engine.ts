// The FTP server behind a listener: admits connections (address lists, LAN-only, per-address and
// total caps — at accept, before a byte is read), runs a control session per connection, and
// answers the sessions' questions from the live config: users and their mounts, the storages,
// TLS, passive ports, the log. The listener itself belongs to the runtime (PortBinder).
import { lookup } from 'node:dns/promises';
import type net from 'node:net';
import {
  FTP_ANONYMOUS_NAMES,
  FTPSERVER_LOG,
  type FtpserverConfig,
  type FtpserverLogCode,
  fillTemplate,
} from '@lucky/shared';
import type { ServiceAuth } from '../../../core/auth/serviceAuth.js';
import type { CertResolver } from '../../../core/certs/resolver.js';
import type { RuleLog } from '../../../core/logs/ruleLog.js';
import { addressKey, ConnectionGuard, reset } from '../../../core/net/connGuard.js';
import { createIpMatcher, isLanAddress } from '../../../core/net/lan.js';
import type { StorageService } from '../../../core/storage/types.js';
import { PassivePorts } from './passive.js';
import { FtpSession } from './session.js';
import { TLS_MIN, type TlsSource } from './tls.js';
import {
  DEFAULT_ENGINE_LIMITS,
  type EngineLimits,
  type LoggedIn,
  type LoginResult,
  type LogLevel,
  type SessionHost,
  type SessionSettings,
} from './types.js';
import type { VisibleMount } from './virtualFs.js';

export interface EngineDeps {
  /** The module's config now (read at each use). */
  config(): FtpserverConfig;
  storages: Pick<StorageService, 'get'>;
  auth: Pick<ServiceAuth, 'check'>;
  /** The global security lists (ctx.safe.admits), asked at every accept before the module's own rules. */
  admits(ip: string): boolean;
  certs: Pick<CertResolver, 'contextFor'>;
  log: RuleLog;
  limits?: Partial<EngineLimits>;
  /** Shorter login / idle time-outs than the settings allow (the tests of slow peers). */
  timeouts?: { loginMs?: number; idleMs?: number };
}

export interface EngineCounters {
  bytesIn: number;
  bytesOut: number;
  logins: number;
  failedLogins: number;
  refused: number;
  dataTlsResumed: number;
}

/** A refusal of one address is logged once a minute, however many connections it opens. */
const REFUSAL_LOG_MS = 60_000;
const ANNOUNCE_CACHE_MS = 30_000;

export class FtpEngine implements SessionHost {
  readonly sessions = new Set<FtpSession>();
  readonly limits: EngineLimits;
  readonly passive: PassivePorts;
  readonly tls: TlsSource;
  readonly counters: EngineCounters = {
    bytesIn: 0,
    bytesOut: 0,
    logins: 0,
    failedLogins: 0,
    refused: 0,
    dataTlsResumed: 0,
  };
  private readonly guard: ConnectionGuard;
  private readonly refusalNoted = new Map<string, number>();
  private readonly announced = new Map<string, { ip: string | undefined; at: number }>();
  private lists: { key: string; allow: (ip: string) => boolean; block: (ip: string) => boolean } | undefined;

  constructor(private readonly deps: EngineDeps) {
    this.limits = { ...DEFAULT_ENGINE_LIMITS, ...deps.limits };
    const c = () => deps.config();
    this.passive = new PassivePorts(
      () => ({ min: c().passive.portMin, max: c().passive.portMax }),
      (ip) => deps.admits(ip),
    );
    this.tls = { certs: deps.certs, certificate: () => c().tls.certificate };
    this.guard = new ConnectionGuard(
      'ftp server',
      () => ({
        perAddress: c().perAddressMaxConnections,
        total: c().maxConnections,
        handshakeMs: this.limits.handshakeMs,
        headerMs: this.limits.handshakeMs,
      }),
      (ip) => this.isLan(ip),
      // The guard's own refusals (the total cap) are logged by accept() with their code.
      () => undefined,
    );
  }

  // ---- admission ----

  /** A new control connection (paused, nothing read). */
  accept(raw: net.Socket): void {
    raw.on('error', () => {});
    const ip = bare(raw.remoteAddress ?? '');
    const client = ip.includes(':') ? `[${ip}]:${raw.remotePort}` : `${ip}:${raw.remotePort}`;
    // The lists log their own refusals (once a minute per address); no line of ours on top.
    if (ip && !this.deps.admits(ip)) {
      this.counters.refused++;
      reset(raw);
      return;
    }
    const refusedBy = this.refusal(ip);
    if (refusedBy) {
      this.counters.refused++;
      this.noteRefusal(ip, refusedBy, { client });
      reset(raw);
      return;
    }
    const perAddress = this.deps.config().perAddressMaxConnections;
    if (this.guard.countOf(ip) >= perAddress) {
      this.counters.refused++;
      this.noteRefusal(ip, 'refusedAddressCap', { client, cap: perAddress });
      // A reply a client can show ("too many connections"), then the connection is gone.
      raw.end('421 Too many connections from your address\r\n');
      setTimeout(() => raw.destroy(), 1000).unref();
      return;
    }
    if (!this.guard.admit(raw, ip)) {
      this.counters.refused++;
      this.noteRefusal(ip, 'refusedCap', { client, cap: this.deps.config().maxConnections });
      return;
    }
    const session = new FtpSession(raw, this, (s) => this.ended(s));
    this.sessions.add(session);
    this.log(5, 'connected', { client });
    session.start();
  }

  /** Why `ip` may not connect under the current lists (undefined: it may). */
  refusal(ip: string): FtpserverLogCode | undefined {
    const c = this.deps.config();
    const key = JSON.stringify([c.allowList, c.blockList]);
    if (this.lists?.key !== key)
      this.lists = { key, allow: createIpMatcher(c.allowList), block: createIpMatcher(c.blockList) };
    if (this.lists.block(ip)) return 'refusedBlocked';
    if (c.allowList.length > 0) return this.lists.allow(ip) ? undefined : 'refusedBlocked';
    if (c.lanOnly && !this.isLan(ip)) return 'refusedLan';
    return undefined;
  }

  private noteRefusal(ip: string, code: FtpserverLogCode, params: Record<string, unknown>): void {
    const key = `${code}:${addressKey(ip)}`;
    const now = Date.now();
    const last = this.refusalNoted.get(key);
    if (last !== undefined && now - last < REFUSAL_LOG_MS) return;
    if (this.refusalNoted.size >= 10_000)
      for (const [k, at] of this.refusalNoted) if (now - at >= REFUSAL_LOG_MS) this.refusalNoted.delete(k);
    this.refusalNoted.set(key, now);
    this.log(3, code, params);
  }

  private ended(s: FtpSession): void {
    if (!this.sessions.delete(s)) return;
    this.log(5, 'disconnected', {
      client: s.client,
      user: s.userName,
      seconds: Math.round((Date.now() - s.since) / 1000),
      in: s.bytesIn,
      out: s.bytesOut,
    });
  }

  /** Close the sessions `drop` picks (users removed or changed, addresses no longer allowed). */
  closeWhere(drop: (s: FtpSession) => boolean): number {
    let n = 0;
    for (const s of [...this.sessions]) {
      if (!drop(s)) continue;
      this.closeChanged(s);
      n++;
    }
    return n;
  }

  /** Ends a session whose access changed (the module's lists, its user, the global security lists): a 421 line first. */
  closeChanged(s: FtpSession): void {
    s.reply(421, 'Closing: your access was changed');
    s.close();
  }

  kick(id: string): boolean {
    for (const s of this.sessions) {
      if (s.id !== id) continue;
      this.log(4, 'kicked', { client: s.client, user: s.userName });
      s.reply(421, 'Disconnected by the administrator');
      s.close();
      return true;
    }
    return false;
  }

  closeAll(): void {
    for (const s of [...this.sessions]) {
      s.reply(421, 'Server shutting down');
      s.close();
    }
  }

  // ---- SessionHost ----

  settings(): SessionSettings {
    const c = this.deps.config();
    return {
      tlsMode: c.tls.mode,
      idleTimeoutMs: this.deps.timeouts?.idleMs ?? c.idleTimeoutSec * 1000,
      loginTimeoutMs: this.deps.timeouts?.loginMs ?? c.loginTimeoutSec * 1000,
      announceAddress: c.passive.announceAddress,
      announceForLan: c.passive.announceForLan,
    };
  }

  async login(ip: string, name: string, password: string): Promise<LoginResult> {
    const c = this.deps.config();
    if ((FTP_ANONYMOUS_NAMES as readonly string[]).includes(name.toLowerCase()) && c.anonymous.enabled)
      return { ok: true, user: { key: '', name: 'anonymous', anonymous: true } };
    const hashOf = (n: string) => {
      const u = c.users.find((x) => x.name === n && x.enabled);
      return u?.password.startsWith('scrypt$') ? u.password : undefined;
    };
    const r = await this.deps.auth.check(ip, name, password, hashOf);
    if (!r.ok) return r;
    const user = this.deps.config().users.find((x) => x.name === name && x.enabled);
    if (!user) return { ok: false, reason: 'bad' };
    return { ok: true, user: { key: user.key, name: user.name, anonymous: false } };
  }

  mountsOf(user: LoggedIn): readonly VisibleMount[] {
    const c = this.deps.config();
    let access: Record<string, 'rw' | 'ro'>;
    if (user.anonymous) access = c.anonymous.enabled ? c.anonymous.access : {};
    else access = c.users.find((u) => u.key === user.key && u.enabled)?.access ?? {};
    const out: VisibleMount[] = [];
    for (const m of c.mounts) {
      const a = access[m.key];
      if (!m.enabled || !a) continue;
      out.push({ key: m.key, name: m.name, storage: m.storage, access: user.anonymous ? 'ro' : a });
    }
    return out;
  }

  storage(key: string) {
    return this.deps.storages.get(key);
  }

  tlsReady(): boolean {
    return (
      this.deps.certs.contextFor(this.deps.config().tls.certificate || undefined, { minVersion: TLS_MIN }) !== undefined
    );
  }

  isLan(ip: string): boolean {
    return isLanAddress(ip);
  }

  admits(ip: string): boolean {
    return this.deps.admits(ip);
  }

  async resolveAnnounce(host: string): Promise<string | undefined> {
    const now = Date.now();
    const hit = this.announced.get(host);
    if (hit && now - hit.at < ANNOUNCE_CACHE_MS) return hit.ip;
    const ip = await lookup(host, { family: 4 }).then(
      (r) => r.address,
      () => undefined,
    );
    if (this.announced.size > 16) this.announced.clear();
    this.announced.set(host, { ip, at: now });
    return ip;
  }

  log(level: LogLevel, code: string, params: Record<string, unknown>): void {
    if (!this.deps.log.wants(level)) return;
    const template = (FTPSERVER_LOG as Record<string, string>)[code] ?? code;
    this.deps.log.coded(level, code, params, fillTemplate(template, params));
  }

  countBytes(dir: 'in' | 'out', n: number): void {
    if (dir === 'in') this.counters.bytesIn += n;
    else this.counters.bytesOut += n;
  }

  loginCounted(ok: boolean): void {
    if (ok) this.counters.logins++;
    else this.counters.failedLogins++;
  }

  dataTlsResumed(): void {
    this.counters.dataTlsResumed++;
  }
}

const bare = (ip: string) => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);
