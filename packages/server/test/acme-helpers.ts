// Helpers for the ACME module's tests: a real server (THE module list) with pebble as the CA, and
// calls to the module's routes.
import { execFile } from 'node:child_process';
import type { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { PebblePeer } from './pebble.js';
import { type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field in the tests
type Json = any;

export interface AcmeServer extends Rp {
  /** An account at pebble's directory (its TLS root trusted); answers its key. */
  addAccount(pebble: PebblePeer, extra?: Record<string, unknown>): Promise<string>;
  addCertificate(body: Record<string, unknown>): Promise<string>;
  /** The certificate's view from GET /api/acme. */
  cert(key: string): Promise<Json>;
  /** Waits until the certificate's state is `state` (and no order runs). */
  until(key: string, state: string, timeout?: number): Promise<Json>;
}

export async function startAcmeServer(): Promise<AcmeServer> {
  const rp = await startRp();
  const s: AcmeServer = {
    ...rp,
    async addAccount(pebble, extra = {}) {
      const r = await rp.call('POST', '/api/acme/accounts', {
        name: `pebble${Math.random().toString(36).slice(2, 8)}`,
        email: 'owner@home.test',
        ca: 'custom',
        directoryUrl: pebble.directoryUrl,
        caCertPem: pebble.caCertPem,
        ...extra,
      });
      expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
      return r.body.account.key;
    },
    async addCertificate(body) {
      const r = await rp.call('POST', '/api/acme/certificates', body);
      expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
      return r.body.certificate.key;
    },
    async cert(key) {
      const r = await rp.call('GET', '/api/acme');
      return r.body.certificates.find((c: Json) => c.key === key);
    },
    until(key, state, timeout = 20_000) {
      // On time-out the error shows the last view (its state and lastError say why).
      return waitFor(
        () => s.cert(key),
        (c) => c?.status.state === state && !c.status.step,
        { timeout, interval: 100, what: `certificate ${key} ${state}` },
      );
    },
  };
  return s;
}

/** The leaf a TLS listener serves for `servername` (the chain verified against `rootPem`). */
export function servedLeaf(port: number, servername: string, rootPem: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const c = tls.connect({ port, host: '127.0.0.1', servername, ca: rootPem }, () => {
      const peer = c.getPeerX509Certificate();
      c.destroy();
      if (peer) resolve(peer);
      else reject(new Error('no peer certificate'));
    });
    c.on('error', reject);
  });
}

/** `curl --cacert <root> --resolve name:port:127.0.0.1 https://name:port/` → body. */
export async function curlWithRoot(name: string, port: number, rootPem: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-acme-curl-'));
  try {
    const root = path.join(dir, 'root.pem');
    await writeFile(root, rootPem);
    const { stdout } = await run('curl', [
      '-sS',
      '--max-time',
      '10',
      '--cacert',
      root,
      '--resolve',
      `${name}:${port}:127.0.0.1`,
      `https://${name}:${port}/`,
    ]);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether nothing listens on `port` of 127.0.0.1 (a listen there succeeds). */
export function freeTcpPortIs(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
