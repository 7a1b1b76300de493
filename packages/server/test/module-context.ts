// A ModuleContext for unit tests of a module's runtime outside a server: the core services as
// the supervisor hands them over, with an empty certificate store, a port registry, the default
// listener limits and the real DNS service; no other module (every action answers
// moduleNotFound) unless the test hands the actions of a real server's supervisor. Timers default
// to the globals (fake or real).

import { baseSettingsSchema, type ModuleKey } from '@lucky/shared';
import { FairGate } from '../src/core/auth/fairGate.js';
import { ServiceAuth } from '../src/core/auth/serviceAuth.js';
import { ChallengeBoard } from '../src/core/certs/challenges.js';
import { CertResolver } from '../src/core/certs/resolver.js';
import { createDnsService } from '../src/core/dns/index.js';
import { webLimitsOf } from '../src/core/http/admission.js';
import type { Logger } from '../src/core/logs/logger.js';
import { type ActionHost, moduleActions } from '../src/core/modules/actions.js';
import type { ModuleContext } from '../src/core/modules/types.js';
import { HostFirewall } from '../src/core/net/firewall.js';
import { PortRegistry } from '../src/core/net/portRegistry.js';
import { StorageRegistry } from '../src/core/storage/registry.js';

/** A program with no other module. */
const alone: ActionHost = {
  keys: () => [],
  definition: (key) => {
    throw new Error(`no module ${key}`);
  },
  configOf: (key) => {
    throw new Error(`no module ${key}`);
  },
  runningRuntime: () => undefined,
  saveConfig: async (key) => {
    throw new Error(`no module ${key}`);
  },
};

export function testModuleContext(
  key: ModuleKey,
  log: Logger,
  configDir: string,
  overrides: Partial<ModuleContext> = {},
): ModuleContext {
  return {
    key,
    log,
    configDir,
    signal: new AbortController().signal,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    setInterval: (fn, ms) => setInterval(fn, ms),
    saveConfig: async () => {},
    actions: moduleActions(alone, key),
    program: {
      timeZone: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
      setModuleEnabled: async (target) => {
        throw new Error(`no module ${target} in a unit test`);
      },
      configBackup: () => ({ fileName: 'lucky_20260101000000.json', text: '{}\n' }),
    },
    certs: new CertResolver({ loaded: () => [], onChange: () => () => {} }),
    certStore: {
      put: async () => {
        throw new Error('no certificate store in a unit test');
      },
      remove: async () => false,
      keyOf: () => undefined,
      certPem: () => undefined,
    },
    challenges: new ChallengeBoard(),
    firewall: new HostFirewall(log),
    ports: new PortRegistry(),
    webLimits: () => webLimitsOf(baseSettingsSchema.parse({})),
    dns: createDnsService(),
    storages: new StorageRegistry(() => []),
    auth: new ServiceAuth(new FairGate(2), () => ({ maxFailures: 10, lockMs: 60_000 })),
    // No lists outside a server: everyone admitted, failures not counted (tests of core/safe use a real core).
    safe: { admits: () => true, failure: () => {}, onChange: () => () => undefined },
    ...overrides,
  };
}
