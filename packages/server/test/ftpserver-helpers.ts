// An FTP server for the tests: the module's runtime on loopback with a real module context, local
// storages (createLocalStorage) published in a storage registry, users with scrypt hashes, and a
// test certificate in the store for FTPS. Layout:
//   storage S1 (read-write) <dir>/data, mounted as `files`
//   storage S2 (read-only storage) <dir>/ro, mounted as `readonly`
//   alice / alice-pw: files rw, readonly ro;  bob / bob-pw: files ro
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { type FtpserverConfig, ftpserverConfigSchema } from '@lucky/shared';
import { generate } from 'selfsigned';
import { hashPassword } from '../src/core/auth/password.js';
import { parseCertPair } from '../src/core/certs/parse.js';
import { CertResolver } from '../src/core/certs/resolver.js';
import type { LoadedCert } from '../src/core/certs/store.js';
import { createLogger } from '../src/core/logs/logger.js';
import type { ModuleContext } from '../src/core/modules/types.js';
import { createLocalStorage } from '../src/core/storage/local.js';
import { StorageRegistry } from '../src/core/storage/registry.js';
import type { Storage, StorageInfo } from '../src/core/storage/types.js';
import type { EngineLimits } from '../src/modules/ftpserver/ftp/types.js';
import { FtpserverRuntime } from '../src/modules/ftpserver/runtime.js';
import type { TestCert } from './certs-helpers.js';
import { tempDir } from './harness.js';
import { testModuleContext } from './module-context.js';
import { freePort } from './portforward-helpers.js';

export const USERS = { alice: 'alice-pw', bob: 'bob-pw' } as const;

export interface FtpLab {
  dir: string;
  /** The `files` mount's folder (storage S1). */
  data: string;
  /** The read-only storage's folder (S2, mounted as `readonly`). */
  ro: string;
  port: number;
  passive: { min: number; max: number };
  runtime: FtpserverRuntime;
  config(): FtpserverConfig;
  /** The test CA (the server's self-signed certificate) as PEM, and as a file for lftp / curl. */
  ca: string;
  caFile: string;
  storages: StorageRegistry;
  publish(extra?: Record<string, Storage>): void;
  reload(change: (c: FtpserverConfig) => unknown): Promise<void>;
  close(): Promise<void>;
}

let hashes: Promise<Record<string, string>> | undefined;
const userHashes = () => {
  hashes ??= (async () => ({ alice: await hashPassword(USERS.alice), bob: await hashPassword(USERS.bob) }))();
  return hashes;
};

let cert: Promise<TestCert> | undefined;

/** Self-signed for `localhost` and the IP 127.0.0.1 (clients check the address they dialled). */
async function ftpCert(): Promise<TestCert> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 86_400_000),
    notAfterDate: new Date(Date.now() + 30 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

function loaded(c: TestCert): LoadedCert {
  const parsed = parseCertPair(c.cert, c.key);
  return {
    record: {
      key: 'ftptest',
      enable: true,
      remark: '',
      certPem: c.cert,
      keyPem: c.key,
      addTime: new Date().toISOString(),
    },
    parsed,
    leaf: parsed.chain[0] as LoadedCert['leaf'],
  };
}

/**
 * A passive range of `size` ports from a random base, so parallel test files rarely meet, below
 * the kernel's ephemeral range: a port the OS hands out (a control port from freePort, a client's
 * source port) can then never fall inside it.
 */
export function passiveRange(size = 40): { min: number; max: number } {
  const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const top = Math.max(12_000 + size, (low || 32_768) - size);
  const slots = Math.max(1, Math.floor((top - 10_000) / size));
  const min = 10_000 + Math.floor(Math.random() * slots) * size;
  return { min, max: min + size - 1 };
}

export async function startFtpLab(
  opts: {
    config?: Record<string, unknown>;
    limits?: Partial<EngineLimits>;
    timeouts?: { loginMs?: number; idleMs?: number };
    passiveSize?: number;
    certs?: boolean;
    /** Services to replace in the module context (a counting password gate …). */
    services?: Partial<ModuleContext>;
  } = {},
): Promise<FtpLab> {
  const dir = await tempDir('lucky-ftp-');
  const data = path.join(dir, 'data');
  const ro = path.join(dir, 'ro');
  await fs.mkdir(data);
  await fs.mkdir(ro);
  await fs.writeFile(path.join(ro, 'readme.txt'), 'read only storage\n');
  cert ??= ftpCert();
  const c = await cert;
  const caFile = path.join(dir, 'ca.pem');
  await fs.writeFile(caFile, c.cert);
  const storages = new StorageRegistry(() => []);
  const base: Record<string, { info: StorageInfo; storage: Storage }> = {
    S1: {
      info: { key: 'S1', name: 'data', kind: 'local', readOnly: false },
      storage: createLocalStorage({ key: 'S1', root: data, readOnly: false }),
    },
    S2: {
      info: { key: 'S2', name: 'ro', kind: 'local', readOnly: true },
      storage: createLocalStorage({ key: 'S2', root: ro, readOnly: true }),
    },
  };
  const publish = (extra: Record<string, Storage> = {}) => {
    const all = new Map(Object.entries(base));
    for (const [k, s] of Object.entries(extra))
      all.set(k, { info: { key: k, name: k, kind: 'local', readOnly: s.readOnly }, storage: s });
    storages.publish(all);
  };
  publish();
  const certs = new CertResolver({ loaded: () => (opts.certs === false ? [] : [loaded(c)]), onChange: () => () => {} });
  const log = createLogger({ level: 'error', stdout: false });
  const ctx = testModuleContext('ftpserver', log, dir, { storages, certs, ...opts.services });
  const h = await userHashes();
  const port = await freePort();
  const passive = passiveRange(opts.passiveSize);
  let config = ftpserverConfigSchema.parse({
    enabled: true,
    port,
    address: '127.0.0.1',
    passive: { portMin: passive.min, portMax: passive.max },
    logLevel: 5,
    mounts: [
      { key: 'M1', name: 'files', storage: 'S1' },
      { key: 'M2', name: 'readonly', storage: 'S2' },
    ],
    users: [
      { key: 'U1', name: 'alice', password: h.alice, access: { M1: 'rw', M2: 'rw' } },
      { key: 'U2', name: 'bob', password: h.bob, access: { M1: 'ro' } },
    ],
    ...opts.config,
  });
  const runtime = new FtpserverRuntime(ctx, { limits: { failDelayMs: 50, ...opts.limits }, timeouts: opts.timeouts });
  await runtime.start(config);
  return {
    dir,
    data,
    ro,
    port,
    passive,
    runtime,
    config: () => config,
    ca: c.cert,
    caFile,
    storages,
    publish,
    async reload(change) {
      const draft = structuredClone(config);
      const next = ftpserverConfigSchema.parse(change(draft) ?? draft);
      const prev = config;
      config = next;
      await runtime.reload(next, prev);
    },
    async close() {
      await runtime.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
