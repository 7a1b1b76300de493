import type { BuiltModule, ClampedValue, Coded, FieldIssue, ModuleKey } from '@lucky/shared';
import { keepSecrets, parseStored } from '@lucky/shared';
import type { ServiceAuth } from '../auth/serviceAuth.js';
import type { CertStore } from '../certs/store.js';
import { configBackupFile } from '../config/backupFile.js';
import { type ConfigStore, clampedLine } from '../config/store.js';
import type { RouteRegistry } from '../http/registry.js';
import { ApiFailure, fieldFailure } from '../http/reply.js';
import type { Logger } from '../logs/logger.js';
import { clashReason, type PortRegistry } from '../net/portRegistry.js';
import type { SafeGate } from '../safe/types.js';
import type { StorageMount } from '../storage/types.js';
import { type ActionHost, moduleActions } from './actions.js';
import type {
  ModuleContext,
  ModuleDefinition,
  ModuleRuntime,
  ModuleServices,
  ModuleState,
  ModuleStatus,
  PublicPath,
} from './types.js';

const STOP_TIME_LIMIT_MS = 5000;

/** A valid config that the runtime could not apply (port taken …): a 409 for the API. Nothing was saved. */
export class ApplyError extends ApiFailure {
  constructor(
    message: string,
    readonly reason: Coded = { code: 'applyFailed', params: { detail: message } },
  ) {
    super(409, 1, message, undefined, { code: reason.code, params: reason.params });
  }
}

interface Slot {
  def: ModuleDefinition;
  runtime?: ModuleRuntime<unknown>;
  controller?: AbortController;
  timers: Set<NodeJS.Timeout>;
  config?: { enabled: boolean };
  state: ModuleState;
  reason?: Coded;
  error?: string;
}

/** A public path with the module serving it (its scope for the security lists). */
export type OpenPublicPath = PublicPath & { module: ModuleKey };

export interface SupervisorServices extends Omit<ModuleServices, 'ports' | 'auth' | 'safe' | 'certStore'> {
  ports: PortRegistry;
  /** The certificate store; each module gets it bound to its key (`forModule`). */
  certStore: Pick<CertStore, 'forModule'>;
  /** The global IP lists and auto-ban; each module gets it bound to its key. */
  safe: SafeGate;
  /** The password checker of module `key` (one per module for the process's life). */
  authFor(key: ModuleKey): ServiceAuth;
}

/**
 * Starts the modules of THE list in order, stops them in reverse, and applies config changes
 * module by module: parse → secrets kept → validate (the module's own cross-module checks, then
 * the port registry) → apply to the runtime → save. A change that fails to apply is rolled back
 * in the runtime and never reaches the file; other modules are untouched.
 */
export class ModuleSupervisor implements ActionHost {
  private slots = new Map<ModuleKey, Slot>();

  constructor(
    defs: readonly ModuleDefinition[],
    private readonly store: ConfigStore,
    private readonly log: Logger,
    private readonly configDir: string,
    private readonly services: SupervisorServices,
  ) {
    for (const def of defs) this.slots.set(def.key, { def, timers: new Set(), state: 'stopped' });
  }

  keys(): ModuleKey[] {
    return [...this.slots.keys()];
  }

  definition(key: ModuleKey): ModuleDefinition {
    return this.mustGet(key).def;
  }

  /**
   * The module's stored slice, migrated and parsed (an absent slice parses to the defaults). A
   * stored number outside a range narrowed since it was saved reads as the nearest bound (logged at
   * start); what the API writes is checked against the schema itself and refused when out of range.
   */
  configOf<C>(key: ModuleKey, onClamp?: (c: ClampedValue) => void): C {
    const def = this.mustGet(key).def;
    return parseStored(def.configSchema, migrate(def, this.store.get().modules[key]), onClamp) as C;
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
        extra = {
          error: (err as Error).message,
          reason: { code: 'statusFailed', params: { detail: (err as Error).message } },
        };
      }
      return {
        key: s.def.key,
        state: s.state === 'running' && extra.state ? extra.state : s.state,
        reason: s.reason ?? extra.reason,
        error: s.error ?? extra.error,
        details: extra.details,
      };
    });
  }

  /** Mount the module's REST routes; they reach their runtime through the supervisor, never directly. */
  registerRoutes(key: ModuleKey, registry: RouteRegistry): void {
    const slot = this.mustGet(key);
    slot.def.routes?.(registry.forModule(slot.def.issues), {
      config: () => this.configOf(key),
      configDir: this.configDir,
      saveConfig: (next) => this.saveConfig(key, next),
      runtime: () => slot.runtime,
      storages: this.services.storages,
      timeZone: () => this.timeZone(),
    });
  }

  /** Every module's storage mounts over its stored config (on or off), for StorageService.mountsOf. */
  storageMounts(): StorageMount[] {
    const out: StorageMount[] = [];
    for (const [key, slot] of this.slots) {
      if (!slot.def.storageMounts) continue;
      const config = this.configOf<{ enabled: boolean }>(key);
      for (const m of slot.def.storageMounts(config)) out.push({ ...m, module: key, enabled: config.enabled });
    }
    return out;
  }

  /**
   * The public path (ModuleDefinition.publicPaths) a request path falls under, from the config of
   * a running module; undefined for every other path (and while the module is off or starting).
   */
  publicPathOf(urlPath: string): OpenPublicPath | undefined {
    for (const p of this.openPublicPaths()) if (urlPath.startsWith(p.prefix)) return p;
    return undefined;
  }

  /** Whether some running module serves a public path to callers outside the LAN (the accept-time gate). */
  publicOutsideLan(): boolean {
    return this.openPublicPaths().some((p) => p.outsideLan);
  }

  /** The modules serving public paths now (the security lists' accept-time check asks their scopes). */
  publicModules(): ModuleKey[] {
    return [...new Set(this.openPublicPaths().map((p) => p.module))];
  }

  private openPublicPaths(): OpenPublicPath[] {
    const out: OpenPublicPath[] = [];
    for (const slot of this.slots.values())
      if (slot.def.publicPaths && slot.state === 'running' && slot.config)
        for (const p of slot.def.publicPaths(slot.config as never)) out.push({ ...p, module: slot.def.key });
    return out;
  }

  runtimeOf(key: ModuleKey): ModuleRuntime<unknown> | undefined {
    return this.slots.get(key)?.runtime;
  }

  /** The runtime while the module runs (not starting, stopped, off or in error): what an action runs on. */
  runningRuntime(key: ModuleKey): ModuleRuntime<unknown> | undefined {
    const slot = this.slots.get(key);
    return slot?.state === 'running' ? slot.runtime : undefined;
  }

  /** The display time zone: the base setting, or the machine's zone when it is ''. */
  timeZone(): string {
    return this.store.get().base.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  }

  /** Switch a module on or off (its slice's `enabled`), through the same path as every save. */
  async setEnabled(key: ModuleKey, enabled: boolean): Promise<void> {
    const current = this.configOf<{ enabled: boolean }>(key);
    await this.saveConfig(key, { ...current, enabled });
  }

  /**
   * Parse → keep secrets sent back masked → validate → apply → save. Throws an API failure naming
   * the field (nothing applied or saved) when the slice does not parse or a check refuses it, and
   * an ApplyError (rolled back, nothing saved) when the runtime cannot take it.
   */
  async saveConfig(key: ModuleKey, next: unknown): Promise<void> {
    const slot = this.mustGet(key);
    const def = slot.def;
    const prevStored = this.store.get().modules[key];
    const withSecrets = def.secrets?.length ? keepSecrets(next, migrate(def, prevStored), def.secrets) : next;
    const r = def.configSchema.safeParse(withSecrets);
    if (!r.success) throw fieldFailure(def.issues.fromZod(r.error.issues[0], def.configSchema));
    const parsed = r.data;
    const issue = this.validate(def, parsed);
    if (issue) throw fieldFailure(issue, issue.code === 'portTaken' ? 409 : 400);

    const prev = slot.config;
    await this.apply(slot, parsed);
    try {
      await this.store.update((draft) => {
        draft.modules[key] = def.migrations?.length ? { ...parsed, version: def.migrations.length } : parsed;
      });
    } catch (err) {
      // The file could not be written: the runtime goes back to what the file says.
      if (prev !== undefined) await this.apply(slot, prev).catch(() => {});
      throw err;
    }
  }

  /** The module's own cross-module checks, then its ports against every other owner's. */
  private validate(def: ModuleDefinition, config: { enabled: boolean }): FieldIssue<string> | undefined {
    const own = def.validate?.(config, { configOf: (k) => this.configOf(k) });
    if (own) return own;
    const claims = config.enabled && def.ports ? def.ports(config) : [];
    const clash = this.services.ports.clash(def.key, claims);
    if (!clash) return undefined;
    const reason = clashReason(clash);
    return { field: 'port', code: reason.code, params: reason.params ?? {}, msg: reason.text };
  }

  private recordPorts(slot: Slot, config: { enabled: boolean } | undefined): void {
    const claims = config?.enabled && slot.def.ports ? slot.def.ports(config) : [];
    this.services.ports.set(slot.def.key, claims);
  }

  private async apply(slot: Slot, next: { enabled: boolean }): Promise<void> {
    const key = slot.def.key;
    const prev = slot.config;
    if (!next.enabled) {
      await this.stop(key);
      slot.config = next;
      slot.state = 'disabled';
      this.recordPorts(slot, next);
      return;
    }
    if (!slot.runtime || slot.state !== 'running') {
      await this.startWith(slot, next);
      if (slot.state === 'error') {
        const reason = slot.error ?? 'could not start';
        // Back to what ran before (or stays stopped), and the file keeps the previous settings.
        if (prev?.enabled) await this.startWith(slot, prev);
        else {
          await this.stop(key);
          slot.config = prev;
          if (prev && !prev.enabled) slot.state = 'disabled';
        }
        throw new ApplyError(`the new settings could not be applied: ${reason}`, {
          code: 'applyFailed',
          params: { detail: reason },
        });
      }
      return;
    }
    try {
      if (slot.runtime.reload) await slot.runtime.reload(next, prev);
      else {
        await this.stop(key);
        await this.startWith(slot, next);
        if ((slot.state as ModuleState) === 'error') throw new Error(slot.error);
      }
      slot.config = next;
      slot.reason = undefined;
      slot.error = undefined;
      this.recordPorts(slot, next);
    } catch (err) {
      const detail = (err as Error).message;
      // Roll the runtime back so it runs what the file still says.
      if (prev !== undefined) {
        if (slot.runtime?.reload && slot.state === 'running') await slot.runtime.reload(prev, next).catch(() => {});
        else await this.startWith(slot, prev);
      }
      this.log.error(`[${key}] new settings could not be applied: ${detail}; the previous settings keep running`);
      throw new ApplyError(`the new settings could not be applied: ${detail}`, {
        code: 'applyFailed',
        params: { detail },
      });
    }
  }

  async start(key: ModuleKey): Promise<void> {
    const slot = this.mustGet(key);
    let config: { enabled: boolean };
    try {
      config = this.configOf(key, (c) => this.log.warn(clampedLine(`[${key}] modules.${key}.`, c)));
    } catch (err) {
      slot.state = 'error';
      slot.error = `config is invalid: ${(err as Error).message}`;
      slot.reason = { code: 'configInvalid', params: { detail: (err as Error).message } };
      this.log.error(`[${key}] ${slot.error}`);
      return;
    }
    if (!config.enabled) {
      slot.config = config;
      slot.state = 'disabled';
      this.recordPorts(slot, config);
      return;
    }
    await this.startWith(slot, config);
  }

  private context(slot: Slot): ModuleContext {
    const key = slot.def.key;
    const controller = new AbortController();
    slot.controller = controller;
    return {
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
      actions: moduleActions(this, key),
      program: {
        timeZone: () => this.timeZone(),
        setModuleEnabled: async (target, enabled) => {
          if (!this.slots.has(target as ModuleKey))
            throw new ApiFailure(404, 1, `unknown module ${target}`, undefined, {
              code: 'moduleNotFound',
              params: { module: target },
            });
          // A module switching itself off would stop the very run that asked.
          if (target === key)
            throw new ApiFailure(400, 1, 'a module cannot switch itself', undefined, {
              code: 'moduleSelf',
              params: {},
            });
          await this.setEnabled(target as ModuleKey, enabled);
        },
        configBackup: () => configBackupFile(this.store.get()),
      },
      certs: this.services.certs,
      certStore: this.services.certStore.forModule(key),
      challenges: this.services.challenges,
      firewall: this.services.firewall,
      ports: this.services.ports,
      webLimits: this.services.webLimits,
      dns: this.services.dns,
      storages: this.services.storages,
      auth: this.services.authFor(key),
      safe: {
        admits: (ip) => this.services.safe.admits(ip, key as BuiltModule),
        failure: (ip) => this.services.safe.failure(ip, key as BuiltModule),
        onChange: (cb) => {
          // Tied to this run of the module: stopping it (the signal) unsubscribes, so a module that
          // forgets cannot leak a subscription per start.
          if (controller.signal.aborted) return () => undefined;
          const off = this.services.safe.onChange(cb);
          const done = () => {
            controller.signal.removeEventListener('abort', done);
            off();
          };
          controller.signal.addEventListener('abort', done);
          return done;
        },
      },
    };
  }

  private async startWith(slot: Slot, config: { enabled: boolean }): Promise<void> {
    const key = slot.def.key;
    const ctx = this.context(slot);
    slot.state = 'starting';
    try {
      slot.runtime = slot.def.createRuntime(ctx);
      await slot.runtime.start(config);
      slot.config = config;
      slot.state = 'running';
      slot.error = undefined;
      slot.reason = undefined;
      this.recordPorts(slot, config);
    } catch (err) {
      slot.state = 'error';
      slot.error = (err as Error).message;
      slot.reason = (err as { reason?: Coded }).reason ?? { code: 'startFailed', params: { detail: slot.error } };
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
    this.services.ports.set(key, []);
  }

  private mustGet(key: ModuleKey): Slot {
    const slot = this.slots.get(key);
    if (!slot) throw new Error(`unknown module ${key}`);
    return slot;
  }
}

/** Runs the slice through the module's migrations from its stored version (absent = 0). */
function migrate(def: ModuleDefinition, raw: unknown): unknown {
  if (!def.migrations?.length || !raw || typeof raw !== 'object') return raw ?? {};
  let slice = raw as Record<string, unknown>;
  const from = typeof slice.version === 'number' ? slice.version : 0;
  for (let v = from; v < def.migrations.length; v++) slice = def.migrations[v](slice);
  return slice;
}
