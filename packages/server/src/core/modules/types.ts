import type { Coded, FieldIssue, IssueKit, ModuleKey } from '@lucky/shared';
import type { ZodType } from 'zod';
import type { ServiceAuth } from '../auth/serviceAuth.js';
import type { ChallengeBoard } from '../certs/challenges.js';
import type { CertResolver } from '../certs/resolver.js';
import type { ModuleCertStore } from '../certs/store.js';
import type { DnsService } from '../dns/types.js';
import type { Routes } from '../http/registry.js';
import type { Logger } from '../logs/logger.js';
import type { ListenerLimits } from '../net/connGuard.js';
import type { HostFirewall } from '../net/firewall.js';
import type { PortClaim, PortRegistry } from '../net/portRegistry.js';
import type { ModuleSafe } from '../safe/types.js';
import type { StorageMount, StorageService } from '../storage/types.js';
import type { ModuleAction, ModuleActions } from './actions.js';

/** `disabled`: the module's switch (`enabled` in its slice) is off; it does not run. */
export type ModuleState = 'stopped' | 'starting' | 'running' | 'error' | 'disabled';

export interface ModuleStatus {
  key: ModuleKey;
  state: ModuleState;
  /** Why the module is in error, as code + params (the UI translates `modules.reasons.<code>`). */
  reason?: Coded;
  /** The same in English, for API users and logs. */
  error?: string;
  /** Module-specific live figures (rule counts, connections …). */
  details?: Record<string, unknown>;
}

/** The core services a module may use; it gets them here, never from a singleton or the environment. */
export interface ModuleServices {
  /** The certificate store, asked per TLS handshake (SNI) — ACME certificates land there too. */
  certs: CertResolver;
  /**
   * Writes to the certificate store for entries the module manages (ACME): put / replace the one
   * entry of an item (same store key on renewal), remove it. Bound to the module's key.
   */
  certStore: ModuleCertStore;
  /**
   * The HTTP-01 board (certs/challenges.ts): tokens set here are answered on plain HTTP by every
   * web-service rule and the admin console at /.well-known/acme-challenge/<token>.
   */
  challenges: ChallengeBoard;
  /** Opens host firewall ports for rules that ask for it (iptables / ip6tables). */
  firewall: HostFirewall;
  /** Every listener's port by owner (read-only for modules: the supervisor records their claims). */
  ports: Pick<PortRegistry, 'list'>;
  /** The base settings' connection caps and time-outs for a listener (read per connection). */
  webLimits: () => ListenerLimits;
  /** The DNS providers (A / AAAA for DDNS, TXT for ACME DNS-01); one service, so TXT changes of a name are serialised across modules. */
  dns: DnsService;
  /** The storages of storage management (local folders, remote WebDAV), for every file service. */
  storages: StorageService;
  /**
   * Password checks for the module's own users (WebDAV, FTP, share links): counted per address
   * before scrypt with the admin login's limits, run through the login's fair gate, and a
   * password that checked out remembered for minutes (auth/serviceAuth.ts). One per module.
   */
  auth: ServiceAuth;
  /**
   * The global IP lists and auto-ban (core/safe), bound to this module: `admits(ip)` at accept on
   * every listener, `failure(ip)` for every failed authentication of the module's users.
   */
  safe: ModuleSafe;
}

/** What the supervisor hands a module: all it may use; modules never import each other. */
export interface ModuleContext extends ModuleServices {
  key: ModuleKey;
  log: Logger;
  configDir: string;
  /** Aborted when the module is stopped. */
  signal: AbortSignal;
  /** Timers the supervisor clears on stop, so a module cannot leak one. */
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
  setInterval(fn: () => void, ms: number): NodeJS.Timeout;
  /** Validate → apply → save this module's slice of the config. */
  saveConfig(next: unknown): Promise<void>;
  /** What other modules offer (actions.ts): `invoke` answers a coded refusal, never throws. */
  actions: ModuleActions;
  /** The few program-wide things a scheduler needs (scheduled tasks); see ModuleProgram. */
  program: ModuleProgram;
}

/**
 * Program-wide services beyond one module's slice, kept small on purpose: the display time zone,
 * the module switch of the console, and the settings' backup. Scheduled tasks use them.
 */
export interface ModuleProgram {
  /** The base setting `timeZone` as an IANA name (the machine's zone when the setting is ''). */
  timeZone(): string;
  /**
   * Switch another module on or off exactly as `PUT /api/modules/<key>/enabled` does (validate →
   * apply → save). Throws an API failure (unknown module, `moduleSelf`, or what the save refused).
   */
  setModuleEnabled(key: string, enabled: boolean): Promise<void>;
  /** The whole config as the settings' backup download (`GET /api/configure`) writes it. */
  configBackup(): { fileName: string; text: string };
}

export interface ModuleRuntime<C> {
  /** Called only while the module's switch is on. */
  start(config: C): Promise<void>;
  stop(): Promise<void>;
  /** Apply a new config keeping what did not change; without it the supervisor stops and starts. */
  reload?(next: C, prev: C): Promise<void>;
  status(): Omit<ModuleStatus, 'key' | 'state'> & { state?: ModuleState };
}

/** Turns a stored slice of version N into version N + 1 (raw JSON, before the schema). */
export type ConfigMigration = (slice: Record<string, unknown>) => Record<string, unknown>;

/** What the validate stage sees of the rest of the program. */
export interface ValidateContext {
  /** Every other module's parsed slice (read-only). */
  configOf(key: ModuleKey): unknown;
}

export interface ModuleDefinition<C extends { enabled: boolean } = { enabled: boolean }> {
  key: ModuleKey;
  /** An empty object must parse to a working default; the slice's switch is `enabled`. */
  configSchema: ZodType<C>;
  /** The module's issue vocabulary: field problems and reasons are its codes (or the generic ones). */
  issues: IssueKit;
  /** Whole-value secrets of the slice (`rules.*.tls.key`): masked on every read, kept unless replaced. */
  secrets?: readonly string[];
  /**
   * Free-text fields that may hold secrets in parts (URLs, header lines, bodies), masked part by
   * part by shared/src/modules/secretText.ts rather than whole.
   */
  freeTextSecrets?: readonly string[];
  /**
   * A config that reaches every path of `secrets` (a list item under each `*`), for the guard test
   * that plants secrets there and reads every GET route back. Required when `secrets` is set.
   */
  sample?(): C;
  /** `migrations[n]` upgrades a stored slice of version n; the current version is their count. */
  migrations?: readonly ConfigMigration[];
  /** The ports its listeners will hold for a config (the supervisor refuses a clash with another owner). */
  ports?(config: C): PortClaim[];
  /**
   * The storages its config mounts (`owner`: the mount's or user's name), so storage management
   * can say who uses an entry before it is removed. Counted whether the module is on or off.
   */
  storageMounts?(config: C): Omit<StorageMount, 'module' | 'enabled'>[];
  /** Checks across modules before anything is applied or saved; the first problem refuses the save. */
  validate?(config: C, ctx: ValidateContext): FieldIssue<string> | undefined;
  createRuntime(ctx: ModuleContext): ModuleRuntime<C>;
  /**
   * The list of the slice whose items have their own switch (`key`, `name`, `enabled`: rules,
   * tasks, devices). The core offers `enableItem` / `disableItem` on it to other modules (a
   * scheduled task switching a forwarding rule on for the evening), saved like any change.
   */
  switchable?: { items: string };
  /** What other modules may ask of this one (`ctx.actions.invoke(key, name, input)`), by name. */
  actions?: Readonly<Record<string, ModuleAction<C, unknown>>>;
  /** REST routes under /api/<key>/…; `api.runtime()` is the live instance. */
  routes?(registry: Routes, api: ModuleApi<C>): void;
  /**
   * Pages the module serves on the console's listener to people without an admin login (share
   * links: `/s/`), asked per request while the module runs. A request under one of these prefixes
   * skips the security entrance, and the LAN-only gate too when `outsideLan` (also at accept: a
   * peer outside the LAN is let in while some module's prefix is open outside). The Host / Origin
   * checks and the force-HTTPS redirect still apply. The routes themselves are `access: 'public'`.
   */
  publicPaths?(config: C): PublicPath[];
}

/** A path prefix a module serves without an admin login (see ModuleDefinition.publicPaths). */
export interface PublicPath {
  /** Starts and ends with `/` (`/s/`). */
  prefix: string;
  /** Callers outside the LAN may reach it even with the console's internet access off. */
  outsideLan: boolean;
}

/** What a module's routes may do with their own module. */
export interface ModuleApi<C> {
  config(): C;
  /** The config directory (state files a route reads while the module is off). */
  configDir: string;
  /** Validate → apply → save; refusals are thrown as API failures naming the field. */
  saveConfig(next: C): Promise<void>;
  runtime(): ModuleRuntime<C> | undefined;
  /** The display time zone (ModuleProgram.timeZone), for routes that answer while the module is off. */
  timeZone(): string;
  /**
   * The storages and who mounts them: storage management's routes name the users of an entry
   * (and refuse its removal) while the module is off too, when there is no runtime to ask.
   */
  storages: StorageService;
}
