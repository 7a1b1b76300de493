// The process-wide gate of the security lists (types.ts SafeGate), in the decision order of
// shared/src/safe.ts. The config is read per call; its lists are compiled once per config object
// (and again when an entry's expiry passes), so a call at accept is a couple of binary searches.
import {
  fillTemplate,
  SAFE_LOG,
  type SafeBanView,
  type SafeConfig,
  type SafeEntry,
  type SafeFailureSource,
  type SafeLogCode,
  type SafeScope,
} from '@lucky/shared';
import type { Logger } from '../logs/logger.js';
import { isLanAddress } from '../net/lan.js';
import { BanList } from './bans.js';
import { type CompiledList, clientAddress, compileList } from './matcher.js';
import type { SafeDecision, SafeGate } from './types.js';

/** A refusal is logged at most once per address and this long. */
const REFUSAL_LOG_MS = 60_000;
/** Addresses remembered for that; beyond it the memory is dropped (a flood then logs a bit more). */
const REFUSAL_LOG_MAX = 10_000;
/** How often ended bans are dropped (and logged) without anyone asking. */
const PRUNE_MS = 60_000;

export interface SafeGateOptions {
  config: () => SafeConfig;
  /** Where bans persist (`<configDir>/safe-bans.json`); none keeps them in memory only. */
  configDir?: string;
  /** Epoch ms; tests pass time without sleeping. */
  now?: () => number;
  log: Logger;
  /** Called by the minute timer too (the core drops expired entries from the saved config). */
  tick?: () => void;
  /** The LAN rule (default: net/lan.ts, with the `cgnatIsLan` setting). */
  isLan?: (ip: string) => boolean;
}

export interface SafeDecisionDetail extends SafeDecision {
  /** The ban that decided (rule `ban`). */
  ban?: SafeBanView;
}

interface Compiled {
  allowSrc: readonly SafeEntry[];
  blockSrc: readonly SafeEntry[];
  allow: CompiledList;
  block: CompiledList;
  validUntil: number;
}

export class CoreSafeGate implements SafeGate {
  readonly bans: BanList;
  readonly now: () => number;
  private compiled: Compiled | undefined;
  private readonly subscribers = new Set<() => void>();
  private telling = false;
  private refusalLogged = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly isLan: (ip: string) => boolean;

  constructor(private readonly opts: SafeGateOptions) {
    this.now = opts.now ?? Date.now;
    this.isLan = opts.isLan ?? ((ip) => isLanAddress(ip));
    const settings = () => opts.config().autoBan;
    const events = {
      banned: (key: string, b: { until: number; failures: number; sources: SafeFailureSource[] }) =>
        this.line('warn', 'banned', {
          ip: key,
          minutes: Math.round((b.until - this.now()) / 60_000),
          failures: b.failures,
          sources: b.sources.join(', '),
        }),
      expired: (key: string) => this.line('info', 'banExpired', { ip: key }),
      changed: () => this.changed(),
    };
    this.bans = opts.configDir
      ? BanList.inDir(opts.configDir, settings, this.now, events)
      : new BanList(undefined, settings, this.now, events);
  }

  /** Read the saved bans and start the prune timer. */
  async start(): Promise<void> {
    await this.bans.load();
    this.timer ??= setInterval(() => {
      this.bans.prune();
      this.opts.tick?.();
    }, PRUNE_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.bans.flush();
  }

  /**
   * `cb` is called when a decision may have changed: the safe config saved with other lists,
   * exemptions or modes (the core calls `changed`), a ban added, lifted or ended. Called on the
   * next turn of the event loop, once for a burst of changes: the answer whose guess banned an
   * address is written before its connections are asked again.
   */
  onChange(cb: () => void): () => void {
    this.subscribers.add(cb);
    return () => {
      this.subscribers.delete(cb);
    };
  }

  /** Subscribed callbacks now (tests: no leak after modules stop). */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** A decision may have changed: tell the subscribers (deferred, coalesced). */
  changed(): void {
    if (this.telling || this.subscribers.size === 0) return;
    this.telling = true;
    setImmediate(() => {
      this.telling = false;
      for (const cb of [...this.subscribers]) {
        try {
          cb();
        } catch (err) {
          this.opts.log.warn(`safe: a listener failed to re-check its connections: ${(err as Error).message}`);
        }
      }
    });
  }

  decide(ip: string, scope: SafeScope): SafeDecisionDetail {
    const cfg = this.opts.config();
    return this.decideIn(cfg, this.lists(cfg), ip, scope);
  }

  /** The decision under a config not saved yet (the routes' lock-out check): compiled afresh. */
  decideWith(cfg: SafeConfig, ip: string, scope: SafeScope): SafeDecisionDetail {
    const now = this.now();
    return this.decideIn(cfg, { allow: compileList(cfg.allow, now), block: compileList(cfg.block, now) }, ip, scope);
  }

  private decideIn(
    cfg: SafeConfig,
    lists: { allow: CompiledList; block: CompiledList },
    ip: string,
    scope: SafeScope,
  ): SafeDecisionDetail {
    if (cfg.exempt.includes(scope)) return { allowed: true, rule: 'exempt' };
    const addr = clientAddress(ip);
    const blocked = addr ? lists.block.match(addr) : undefined;
    if (blocked) return { allowed: false, rule: 'block', entry: blocked };
    const ban = this.bans.banOf(ip);
    if (ban) return { allowed: false, rule: 'ban', ban: this.bans.view(ban.key, ban) };
    const allowed = addr ? lists.allow.match(addr) : undefined;
    if (allowed) return { allowed: true, rule: 'allow', entry: allowed };
    if (cfg.allowMode === 'off') return { allowed: true, rule: 'default' };
    if (cfg.allowMode === 'outsideLan' && this.isLan(ip)) return { allowed: true, rule: 'lan' };
    return { allowed: false, rule: 'notAllowed' };
  }

  admits(ip: string, scope: SafeScope): boolean {
    const d = this.decide(ip, scope);
    if (!d.allowed) this.logRefusal(ip, scope, d.rule);
    return d.allowed;
  }

  failure(ip: string, source: SafeFailureSource): void {
    const cfg = this.opts.config();
    if (!cfg.autoBan.enabled) return;
    // The knock URL lives on the admin listener: it is exempt with the admin console.
    const scope: SafeScope = source === 'knock' ? 'admin' : source;
    if (cfg.exempt.includes(scope)) return;
    if (!cfg.autoBan.banLan && this.isLan(ip)) return;
    this.bans.failure(ip, source);
  }

  /** Log line `code` of SAFE_LOG (English; the UI translates `safe.log_<code>`). */
  line(level: 'info' | 'warn', code: SafeLogCode, params: Record<string, unknown>): void {
    this.opts.log[level](fillTemplate(SAFE_LOG[code], params));
  }

  /** Log a refusal decided elsewhere (the admin listener's accept), at most once per address and minute. */
  logRefusal(ip: string, scope: SafeScope, rule: string): void {
    const now = this.now();
    const last = this.refusalLogged.get(ip);
    if (last !== undefined && now - last < REFUSAL_LOG_MS) return;
    if (this.refusalLogged.size >= REFUSAL_LOG_MAX) this.refusalLogged.clear();
    this.refusalLogged.set(ip, now);
    this.line('info', 'refused', { ip, scope, rule });
  }

  private lists(cfg: SafeConfig): Compiled {
    const now = this.now();
    const c = this.compiled;
    if (c && c.allowSrc === cfg.allow && c.blockSrc === cfg.block && now < c.validUntil) return c;
    const allow = compileList(cfg.allow, now);
    const block = compileList(cfg.block, now);
    this.compiled = {
      allowSrc: cfg.allow,
      blockSrc: cfg.block,
      allow,
      block,
      validUntil: Math.min(allow.validUntil, block.validUntil),
    };
    return this.compiled;
  }
}
