import type { ModuleKey } from '@lucky/shared';
import type { ZodType } from 'zod';
import type { CertResolver } from '../certs/resolver.js';
import type { DnsService } from '../dns/types.js';
import type { RouteRegistry } from '../http/registry.js';
import type { Logger } from '../logs/logger.js';
import type { ListenerLimits } from '../net/connGuard.js';
import type { HostFirewall } from '../net/firewall.js';

export type ModuleState = 'stopped' | 'starting' | 'running' | 'error';

export interface ModuleStatus {
  key: ModuleKey;
  state: ModuleState;
  error?: string;
  /** Module-specific live figures (rule counts, connections …). */
  details?: Record<string, unknown>;
}

/** What the supervisor hands a module: all it may use; modules never import each other. */
export interface ModuleContext {
  key: ModuleKey;
  log: Logger;
  configDir: string;
  /** Aborted when the module is stopped. */
  signal: AbortSignal;
  /** Timers the supervisor clears on stop, so a module cannot leak one. */
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
  setInterval(fn: () => void, ms: number): NodeJS.Timeout;
  /** Validate → save → reload this module's slice of the config. */
  saveConfig(next: unknown): Promise<void>;
  /** The core's certificate store, asked per TLS handshake (SNI); set by the supervisor. */
  certs?: CertResolver;
  /** Opens host firewall ports for rules that ask for it (iptables / ip6tables); set by the supervisor. */
  firewall?: HostFirewall;
  /** The web service's connection caps and time-outs from the base settings (read per connection). */
  webLimits?: () => ListenerLimits;
  /** The core's DNS providers (A / AAAA for DDNS, TXT for ACME DNS-01); set by the supervisor. */
  dns?: DnsService;
}

export interface ModuleRuntime<C> {
  start(config: C): Promise<void>;
  stop(): Promise<void>;
  /** Apply a new config keeping what did not change; without it the supervisor stops and starts. */
  reload?(next: C, prev: C): Promise<void>;
  status(): Omit<ModuleStatus, 'key' | 'state'> & { state?: ModuleState };
}

export interface ModuleDefinition<C = unknown> {
  key: ModuleKey;
  /** An empty object must parse to a working default. */
  configSchema: ZodType<C>;
  createRuntime(ctx: ModuleContext): ModuleRuntime<C>;
  /** REST routes under /api/<key>/…; `runtime` is the live instance. */
  routes?(registry: RouteRegistry, api: ModuleApi<C>): void;
}

/** What a module's routes may do with their own module. */
export interface ModuleApi<C> {
  config(): C;
  saveConfig(next: C): Promise<void>;
  runtime(): ModuleRuntime<C> | undefined;
}
