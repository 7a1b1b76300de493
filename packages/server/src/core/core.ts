import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { BuiltModule, ModuleKey } from '@lucky/shared';
import { baseSettingsSchema, safeConfigSchema } from '@lucky/shared';
import { modules as moduleList } from '../modules/index.js';
import { AuthState } from './auth/authState.js';
import { FairGate } from './auth/fairGate.js';
import { hashPassword } from './auth/password.js';
import { SecondFactor } from './auth/secondFactor.js';
import { ServiceAuth } from './auth/serviceAuth.js';
import { loadJwtSecret, SessionStore } from './auth/sessions.js';
import { LoginThrottle } from './auth/throttle.js';
import { ChallengeBoard } from './certs/challenges.js';
import { certResolverFor } from './certs/resolver.js';
import { certStoreFor } from './certs/store.js';
import { type AppConfig, CONFIG_SCHEMA_VERSION } from './config/schema.js';
import { ConfigStore } from './config/store.js';
import { createDnsService } from './dns/index.js';
import { webLimitsOf } from './http/admission.js';
import { AuditLog } from './logs/audit.js';
import { createLogger, type Logger } from './logs/logger.js';
import { LogRing } from './logs/ring.js';
import { ModuleSupervisor } from './modules/supervisor.js';
import type { ModuleDefinition } from './modules/types.js';
import { HostFirewall } from './net/firewall.js';
import { PortRegistry } from './net/portRegistry.js';
import { pruneExpired } from './safe/edit.js';
import { CoreSafeGate } from './safe/gate.js';
import { StorageRegistry } from './storage/registry.js';
import { readVersion } from './version.js';

export const DEFAULT_PASSWORD = '666';

export interface CoreOptions {
  configDir: string;
  /** `-p`: overrides the configured port for this run (not saved). */
  port?: number;
  host?: string;
  version?: string;
  /** Echo program log lines to stdout (off in tests). */
  stdoutLogs?: boolean;
  /** Called when the admin asks for a restart; the worker exits with code 100 by default. */
  onRestart?: () => void;
  /** Override THE module list (unit tests of the supervisor wiring). */
  modules?: ModuleDefinition[];
  /** How this process was started, for the system-service unit. */
  entry?: { execPath: string; args: string[] };
  /** Run the host firewall's iptables calls in this network namespace (tests; default LUCKY_FIREWALL_NETNS). */
  firewallNetns?: string;
  /** Epoch ms for the security lists (entry expiry, bans, knock): tests pass time without sleeping. */
  clock?: () => number;
}

/** Everything the admin routes and modules share; built once per process. */
export interface Core {
  version: string;
  configDir: string;
  startedAt: Date;
  opts: CoreOptions;
  store: ConfigStore;
  ring: LogRing;
  log: Logger;
  audit: AuditLog;
  sessions: SessionStore;
  throttle: LoginThrottle;
  /** Password checks (scrypt, libuv pool) run through here: a few at once, fair between addresses. */
  hashGate: FairGate;
  /** Last accepted TOTP step and API tokens' last use, persisted (auth-state.json). */
  authState: AuthState;
  /** The login's 2FA check: TOTP without replay, recovery codes spent once. */
  secondFactor: SecondFactor;
  modules: ModuleSupervisor;
  /** Every listener's port by owner: the admin port and each module's (a clash is refused at save time). */
  ports: PortRegistry;
  /** The ACME HTTP-01 board: the admin console answers its tokens on plain HTTP too. */
  challenges: ChallengeBoard;
  /** Pending 2FA secrets by session id, until confirmed with a code. */
  pendingTwoFA: Map<string, string>;
  /** The security lists of /safe: every listener's accept check, auto-ban, knock. */
  safe: CoreSafeGate;
  requestRestart(): void;
}

export async function defaultConfig(): Promise<AppConfig> {
  return {
    schemaVersion: CONFIG_SCHEMA_VERSION,
    base: baseSettingsSchema.parse({}),
    auth: {
      passwordHash: await hashPassword(DEFAULT_PASSWORD),
      passwordIsDefault: true,
      twoFA: { enabled: false, secret: '', recoveryCodes: [] },
      apiTokens: [],
    },
    modules: {},
    safe: safeConfigSchema.parse({}),
  };
}

export async function createCore(opts: CoreOptions): Promise<Core> {
  const configDir = path.resolve(opts.configDir);
  await fs.mkdir(configDir, { recursive: true, mode: 0o700 });
  const ring = new LogRing(2048);
  const log = createLogger({ ring, stdout: opts.stdoutLogs ?? true });
  // Defaults need a fresh scrypt hash: made only when there is no usable file.
  const store = new ConfigStore(configDir, defaultConfig, log.child('config'));
  const config = await store.load();
  ring.setCapacity(config.base.logMaxSize);
  store.onChange((next) => ring.setCapacity(next.base.logMaxSize));

  const audit = new AuditLog(configDir);
  await audit.load();
  const sessions = new SessionStore(configDir, await loadJwtSecret(configDir));
  await sessions.load();
  const throttleSettings = () => ({
    maxFailures: store.get().base.loginMaxFailures,
    lockMs: store.get().base.loginLockMinutes * 60_000,
  });
  const throttle = new LoginThrottle(throttleSettings);
  // Two of libuv's four threads: the rest stay free for file and DNS work. Shared with the file
  // services' password checks (ctx.auth), so their guesses cannot starve the admin login.
  const hashGate = new FairGate(2);
  const serviceAuths = new Map<ModuleKey, ServiceAuth>();
  const authState = new AuthState(configDir);
  await authState.load();
  const safe = new CoreSafeGate({
    config: () => store.get().safe,
    configDir,
    now: opts.clock,
    log: log.child('safe'),
    tick: () => {
      pruneExpired(store, safe.now()).catch((err: Error) =>
        log.warn(`safe: pruning expired entries failed: ${err.message}`),
      );
    },
  });
  await safe.start();
  // A saved change of the lists, exemptions, modes or the LAN rule may refuse what is open now:
  // listeners ask again (safe/recheck.ts). Every save deep-copies the config, so compare values.
  store.onChange((next, prev) => {
    if (next.base.cgnatIsLan !== prev.base.cgnatIsLan || !isDeepStrictEqual(next.safe, prev.safe)) safe.changed();
  });
  // The core services every module gets through its context (modules/types.ts ModuleServices).
  const ports = new PortRegistry();
  const challenges = new ChallengeBoard();
  const netns = opts.firewallNetns ?? process.env.LUCKY_FIREWALL_NETNS;
  const services = {
    certs: certResolverFor(certStoreFor(store)),
    certStore: certStoreFor(store),
    challenges,
    firewall: new HostFirewall(log.child('firewall'), netns ? ['ip', 'netns', 'exec', netns] : []),
    ports,
    webLimits: () => webLimitsOf(store.get().base),
    dns: createDnsService(),
    // Mounts are read from the supervisor, made just below; only called after start.
    storages: new StorageRegistry(() => core.modules.storageMounts()),
    safe,
    authFor: (key: ModuleKey) => {
      let auth = serviceAuths.get(key);
      if (!auth) {
        // A wrong password on a file service (WebDAV, FTP) is an auto-ban failure of that module.
        auth = new ServiceAuth(hashGate, throttleSettings, Date.now, (ip) => safe.failure(ip, key as BuiltModule));
        serviceAuths.set(key, auth);
      }
      return auth;
    },
  };
  const core: Core = {
    version: opts.version ?? readVersion(),
    configDir,
    startedAt: new Date(),
    opts,
    store,
    ring,
    log,
    audit,
    sessions,
    throttle,
    hashGate,
    authState,
    secondFactor: new SecondFactor(store, authState, log.child('auth')),
    modules: new ModuleSupervisor(opts.modules ?? moduleList, store, log, configDir, services),
    ports,
    challenges,
    pendingTwoFA: new Map(),
    safe,
    requestRestart: () => (opts.onRestart ?? defaultRestart)(),
  };
  return core;
}

function defaultRestart(): void {
  // Exit code 100 asks the supervising parent (main.ts) to start a new worker.
  process.exit(100);
}
