import type { ModuleKey } from '@lucky/shared';
import { certResolverFor } from '../certs/resolver.js';
import { certStoreFor } from '../certs/store.js';
import type { ConfigStore } from '../config/store.js';
import { createDnsService } from '../dns/index.js';
import { webLimitsOf } from '../http/admission.js';
import type { RouteRegistry } from '../http/registry.js';
import type { Logger } from '../logs/logger.js';
import { HostFirewall } from '../net/firewall.js';
import type { ModuleContext, ModuleDefinition, ModuleRuntime, ModuleState, ModuleStatus } from './types.js';

const STOP_TIME_LIMIT_MS = 5000;

/** A valid config that the runtime could not apply (port taken …): a 409 for the API. */
export class ApplyError extends Error {
  readonly statusCode = 409;
}

interface Slot {
  def: ModuleDefinition;
  runtime?: ModuleRuntime<unknown>;
  controller?: AbortController;
  timers: Set<NodeJS.Timeout>;
  config?: unknown;
  state: ModuleState;
  error?: string;
}

/**
 * Starts the modules of THE list in order, stops them in reverse, and applies
 * config changes module by module. A module whose new config fails to apply
 * goes back to the previous config (and says why); other modules are untouched.
 */
export class ModuleSupervisor {
  private slots = new Map<ModuleKey, Slot>();

  constructor(
    defs: readonly ModuleDefinition[],
    private readonly store: ConfigStore,
    private readonly log: Logger,
    private readonly configDir: string,
  ) {
    for (const def of defs) this.slots.set(def.key, { def, timers: new Set(), state: 'stopped' });
  }

  private hostFirewall: HostFirewall | undefined;

  /** One DNS service for all modules (it serialises the TXT changes of a name across them). */
  private readonly dns = createDnsService();

  /**
   * One host firewall for all modules. LUCKY_FIREWALL_NETNS runs its iptables calls in that
   * network namespace (the tests' own, so they never touch the host's tables).
   */
  private firewall(): HostFirewall {
    const ns = process.env.LUCKY_FIREWALL_NETNS;
    this.hostFirewall ??= new HostFirewall(this.log.child('firewall'), ns ? ['ip', 'netns', 'exec', ns] : []);
    return this.hostFirewall;
  }

  keys(): ModuleKey[] {
    return [...this.slots.keys()];
  }

  /** The module's config slice, parsed (an absent slice parses to the defaults). */
  configOf<C>(key: ModuleKey): C {
    const slot = this.mustGet(key);
    return slot.def.configSchema.parse(this.store.get().modules[key] ?? {}) as C;
  }

  async startAll(): Promise<void> {
    for (const key of this.slots.keys()) await this.start(key);
  }

  async stopAll(): Promise<void> {
    for (const key of [...this.slots.keys()].reverse()) await this.stop(key);
  }

  status(): ModuleStatus[] {
    return [...this.slots.values()].map((s) => {
      let extra: ReturnType<ModuleRuntime<unknown>['status']> = {};
      try {
        extra = s.runtime?.status() ?? {};
      } catch (err) {
        extra = { error: (err as Error).message };
      }
      return {
        key: s.def.key,
        state: s.state === 'running' && extra.state ? extra.state : s.state,
        error: s.error ?? extra.error,
        details: extra.details,
      };
    });
  }

  /** Mount the module's REST routes; they reach their runtime through the supervisor, never directly. */
  registerRoutes(key: ModuleKey, registry: RouteRegistry): void {
    const slot = this.mustGet(key);
    slot.def.routes?.(registry, {
      config: () => this.configOf(key),
      saveConfig: (next) => this.saveConfig(key, next),
      runtime: () => slot.runtime,
    });
  }

  runtimeOf(key: ModuleKey): ModuleRuntime<unknown> | undefined {
    return this.slots.get(key)?.runtime;
  }

  /** Validate → save → apply. Throws (nothing saved) when the slice does not parse. */
  async saveConfig(key: ModuleKey, next: unknown): Promise<void> {
    const slot = this.mustGet(key);
    const parsed = slot.def.configSchema.parse(next);
    await this.store.update((draft) => {
      draft.modules[key] = parsed;
    });
    await this.apply(key, parsed);
  }

  private async apply(key: ModuleKey, next: unknown): Promise<void> {
    const slot = this.mustGet(key);
    const prev = slot.config;
    if (!slot.runtime || slot.state !== 'running') {
      await this.start(key);
      return;
    }
    try {
      if (slot.runtime.reload) await slot.runtime.reload(next, prev);
      else {
        await this.stop(key);
        await this.start(key);
        if ((slot.state as ModuleState) === 'error') throw new Error(slot.error);
        return;
      }
      slot.config = next;
      slot.error = undefined;
    } catch (err) {
      const reason = `new settings could not be applied: ${(err as Error).message}`;
      if (!slot.runtime?.reload && prev !== undefined) await this.startWith(slot, prev);
      // Keep saying why, next to the item, while the previous settings run.
      slot.error = reason;
      this.log.error(`[${key}] ${reason}; the previous settings keep running`);
      throw new ApplyError(reason);
    }
  }

  async start(key: ModuleKey): Promise<void> {
    const slot = this.mustGet(key);
    let config: unknown;
    try {
      config = this.configOf(key);
    } catch (err) {
      slot.state = 'error';
      slot.error = `config is invalid: ${(err as Error).message}`;
      this.log.error(`[${key}] ${slot.error}`);
      return;
    }
    await this.startWith(slot, config);
  }

  private async startWith(slot: Slot, config: unknown): Promise<void> {
    const key = slot.def.key;
    const controller = new AbortController();
    slot.controller = controller;
    const ctx: ModuleContext = {
      key,
      log: this.log.child(key),
      configDir: this.configDir,
      signal: controller.signal,
      setTimeout: (fn, ms) => {
        const t = setTimeout(() => {
          slot.timers.delete(t);
          fn();
        }, ms);
        slot.timers.add(t);
        return t;
      },
      setInterval: (fn, ms) => {
        const t = setInterval(fn, ms);
        slot.timers.add(t);
        return t;
      },
      saveConfig: (next) => this.saveConfig(key, next),
      certs: certResolverFor(certStoreFor(this.store)),
      firewall: this.firewall(),
      webLimits: () => webLimitsOf(this.store.get().base),
      dns: this.dns,
    };
    slot.state = 'starting';
    try {
      slot.runtime = slot.def.createRuntime(ctx);
      await slot.runtime.start(config);
      slot.config = config;
      slot.state = 'running';
      slot.error = undefined;
    } catch (err) {
      slot.state = 'error';
      slot.error = (err as Error).message;
      this.log.error(`[${key}] failed to start: ${slot.error}`);
    }
  }

  async stop(key: ModuleKey): Promise<void> {
    const slot = this.mustGet(key);
    slot.controller?.abort();
    for (const t of slot.timers) clearTimeout(t);
    slot.timers.clear();
    if (slot.runtime) {
      const runtime = slot.runtime;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          runtime.stop(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('did not stop in time')), STOP_TIME_LIMIT_MS);
          }),
        ]);
      } catch (err) {
        this.log.warn(`[${key}] stop: ${(err as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    }
    slot.runtime = undefined;
    slot.state = 'stopped';
  }

  private mustGet(key: ModuleKey): Slot {
    const slot = this.slots.get(key);
    if (!slot) throw new Error(`unknown module ${key}`);
    return slot;
  }
}
