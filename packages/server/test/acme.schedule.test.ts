// The ACME scheduler without a CA: a stub kit (orders valid at once, certificates made here) and a
// clock the test moves. ARI's window decides the renewal time and the renewal names the
// certificate it replaces; the CA's Retry-After stretches the back-off; the pure rules of due
// times (days before expiry, a third of a short life) and of back-off steps.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type AcmeCertificate, acmeConfigSchema } from '@lucky/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/core/logs/logger.js';
import type { CaKit, CaSession } from '../src/modules/acme/ca.js';
import { OrderFailure, reason } from '../src/modules/acme/reasons.js';
import { AcmeRuntime } from '../src/modules/acme/runtime.js';
import { BACKOFF_MAX_MS, backoffMs, renewalAt } from '../src/modules/acme/schedule.js';
import { makeCert } from './certs-helpers.js';
import { testModuleContext } from './module-context.js';
import { waitFor } from './wait.js';

const DAY = 86_400_000;
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

interface Stub {
  kit: CaKit;
  orders: { replaces?: string }[];
  fail?: OrderFailure;
  /** While set, new orders wait for it. */
  gate?: Promise<void>;
  ari?: { start: string; end: string; retryAfter?: number };
}

function stubKit(): Stub {
  const stub: Stub = { orders: [], kit: undefined as unknown as CaKit };
  const session: CaSession = {
    register: async () => 'https://ca.test/acct/1',
    newOrder: async (_ids, replaces) => {
      if (stub.fail) throw stub.fail;
      await stub.gate;
      stub.orders.push({ replaces });
      return { url: 'o', status: 'ready', authorizations: [], finalize: 'f' };
    },
    authorization: async () => {
      throw new Error('no authorizations in the stub');
    },
    ready: async () => {},
    settle: async () => {
      throw new Error('no authorizations in the stub');
    },
    finalize: async (order) => ({ ...order, status: 'valid', certificate: 'c' }),
    download: async () => (await makeCert(['stub.test'])).cert,
    revoke: async () => {},
    renewalInfo: async () => stub.ari,
    certId: () => 'aki.serial',
    keyAuthorization: (t) => `${t}.thumb`,
    dns01Value: (t) => t,
    close: async () => {},
  };
  stub.kit = {
    session: () => session,
    generateKey: async () => (await makeCert(['key.test'])).key,
    csr: () => Buffer.alloc(0),
    reasonOf: () => undefined,
  };
  return stub;
}

async function runtime(stub: Stub, now: () => number, names = ['stub.test']) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-acme-sched-'));
  dirs.push(dir);
  const store = new Map<string, string>();
  const ctx = testModuleContext('acme', silentLogger, dir, {
    certStore: {
      put: async (e) => {
        store.set(e.item, e.certPem);
        return 'StoreKey1';
      },
      remove: async (item) => store.delete(item),
      keyOf: (item) => (store.has(item) ? 'StoreKey1' : undefined),
      certPem: (item) => store.get(item),
    },
  });
  const rt = new AcmeRuntime(ctx, { kit: stub.kit, now });
  const config = acmeConfigSchema.parse({
    accounts: [
      { key: 'A', name: 'a', ca: 'custom', directoryUrl: 'https://ca.test/dir', accountKeyPem: 'k', accountUrl: 'u' },
    ],
    certificates: names.map((n, i) => ({ key: i ? `C${i}` : 'C', name: `c${i}`, account: 'A', names: [n] })),
  });
  return { rt, dir, config, cert: config.certificates[0] };
}

describe('ACME scheduler', () => {
  it('follows the ARI window and names the replaced certificate on renewal', async () => {
    const stub = stubKit();
    let offset = 0;
    const now = () => Date.now() + offset;
    stub.ari = {
      start: new Date(Date.now() + 10 * DAY).toISOString(),
      end: new Date(Date.now() + 11 * DAY).toISOString(),
      retryAfter: 3600,
    };
    const { rt, dir, config, cert } = await runtime(stub, now);
    await rt.start(config);
    try {
      const v = await waitFor(
        () => rt.view(cert),
        (x) => x.state === 'valid' && !!x.ariWindow,
      );
      expect(v.ariWindow).toEqual({ start: stub.ari.start, end: stub.ari.end });
      // 90-day certificate, 30 days before: day 60 — ARI's window (day 10-11) comes first.
      const at = Date.parse(v.nextRenewalAt ?? '');
      expect(at).toBeGreaterThanOrEqual(Date.parse(stub.ari.start));
      expect(at).toBeLessThanOrEqual(Date.parse(stub.ari.end));
      expect(stub.orders).toEqual([{ replaces: undefined }]);
      // Nothing is due before the picked time …
      offset = at - Date.now() - 60_000;
      rt.tick();
      expect(rt.view(cert).step).toBeUndefined();
      // … and at it the renewal runs, replacing the old certificate by its ARI id.
      offset = at - Date.now() + 1000;
      rt.tick();
      await waitFor(() => stub.orders.length === 2);
      expect(stub.orders[1]).toEqual({ replaces: 'aki.serial' });
      await rt.settled('C');
      const state = JSON.parse(await readFile(path.join(dir, 'acme', 'state.json'), 'utf8'));
      expect(state.C.failures).toBe(0);
      expect(state.C.lastIssuedAt).toBeTruthy();
    } finally {
      await rt.stop();
    }
  });

  it("backs off after a failure, at least as long as the CA's Retry-After, with the coded reason", async () => {
    const stub = stubKit();
    stub.fail = new OrderFailure(reason('rateLimited', { retryAfter: 'later' }), 3 * 3600_000);
    const { rt, config, cert } = await runtime(stub, Date.now);
    await rt.start(config);
    try {
      const v = await waitFor(
        () => rt.view(cert),
        (x) => x.state === 'failing',
      );
      expect(v.lastError?.code).toBe('rateLimited');
      expect(v.failures).toBe(1);
      const wait = Date.parse(v.nextRenewalAt ?? '') - Date.parse(v.lastAttemptAt ?? '');
      expect(wait).toBeGreaterThanOrEqual(3 * 3600_000 - 1000);
      expect(wait).toBeLessThan(3 * 3600_000 + 60_000);
    } finally {
      await rt.stop();
    }
  });

  it('runs at most two orders at once, one per certificate', async () => {
    const stub = stubKit();
    let open = () => {};
    stub.gate = new Promise((r) => {
      open = r;
    });
    const { rt, config } = await runtime(stub, Date.now, ['a.test', 'b.test', 'c.test']);
    await rt.start(config);
    try {
      const states = () => config.certificates.map((c) => rt.view(c).state);
      expect(states().filter((x) => x === 'ordering')).toHaveLength(2);
      expect(states().filter((x) => x === 'pending')).toHaveLength(1);
      expect(rt.issueNow('C')).toBe('busy');
      open();
      await waitFor(() => states().every((x) => x === 'valid'), { timeout: 5000 });
    } finally {
      await rt.stop();
    }
  });

  it('due times and back-off steps', () => {
    const cert = acmeConfigSchema.parse({
      certificates: [{ key: 'C', name: 'c', account: 'A', names: ['a.test'], renewDaysBefore: 30, useAri: false }],
    }).certificates[0] as AcmeCertificate;
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const iso = (ms: number) => new Date(ms).toISOString();
    const issued = { failures: 0, names: ['a.test'], notBefore: iso(t0) };
    // 90 days: 30 days before the end.
    expect(renewalAt(cert, { ...issued, notAfter: iso(t0 + 90 * DAY) })).toBe(t0 + 60 * DAY);
    // 6 days (short-lived): with a third of the life left, not at once.
    expect(renewalAt(cert, { ...issued, notAfter: iso(t0 + 6 * DAY) })).toBe(t0 + 4 * DAY);
    // Other names than issued: due now.
    expect(renewalAt(cert, { ...issued, names: ['b.test'], notAfter: iso(t0 + 90 * DAY) })).toBe(0);
    expect([1, 2, 3, 4].map((n) => backoffMs(n) / 60_000)).toEqual([5, 10, 20, 40]);
    expect(backoffMs(30)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(1, 7200_000)).toBe(7200_000);
  });
});
