// pebble (Let's Encrypt's test CA, Debian package `pebble`) and pebble-challtestsrv (its DNS
// peer: answers every A query with 127.0.0.1 and serves TXT records set over its management
// API), started by a test on free loopback ports with their config and TLS files in a temp dir.
// pebble's own ACME and management listeners speak TLS with a throw-away CA made here with
// openssl (`caCertPem`); the certificates it issues chain to a root it makes at each start
// (`roots()`). Validation of HTTP-01 goes to `httpPort` (the test's responder), never port 80.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freeDualPort, which } from './dns-peers.js';
import { nextEvent, waitFor } from './wait.js';

export interface PebbleOptions {
  /** External Account Binding required, with these key ids and their base64url HMAC keys. */
  eab?: Record<string, string>;
  /** Lifetime of issued certificates (pebble's default: 5 years). */
  validitySeconds?: number;
  /** Percentage of good nonces pebble rejects with badNonce (default 0 here; pebble's own default is 5). */
  nonceReject?: number;
  /** pebble's resolver (`host:port`); default: the challtestsrv started alongside. */
  dnsServer?: string;
  /** Where pebble validates HTTP-01 (default: a free port). */
  httpPort?: number;
  /** Extra roots pebble offers chains to (Link rel="alternate" on the certificate). */
  alternateRoots?: number;
}

export interface ChallTestSrv {
  dnsPort: number;
  managementPort: number;
  /** `_acme-challenge.<name>.` → value (replaces any earlier value of the host). */
  setTxt(host: string, value: string): Promise<void>;
  clearTxt(host: string): Promise<void>;
}

export interface PebblePeer {
  directoryUrl: string;
  acmePort: number;
  managementPort: number;
  /** The TLS root of pebble's ACME and management listeners (AcmeClient's `caCertPem`). */
  caCertPem: string;
  /** Where pebble connects for HTTP-01. */
  httpPort: number;
  /** The DNS peer, unless `dnsServer` pointed pebble elsewhere. */
  challtestsrv?: ChallTestSrv;
  /** The root that issued certificates chain to (new at each start). */
  roots(): Promise<string>;
  /** The intermediate between it and the leaves. */
  intermediates(): Promise<string>;
  /** pebble's record of an issued certificate by serial (hex, as X509Certificate.serialNumber). */
  certStatus(serialHex: string): Promise<{ status: string; reason?: number; body: unknown }>;
  stop(): Promise<void>;
}

/** Server certificate for pebble's listeners: a throw-away CA and a leaf for 127.0.0.1 / localhost. */
function makeTls(dir: string): { ca: string; cert: string; key: string } {
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run([
    'req',
    '-x509',
    ...ec,
    '-days',
    '2',
    '-subj',
    '/CN=pebble test TLS root',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  ]);
  run(['req', ...ec, '-subj', '/CN=localhost', '-keyout', 'key.pem', '-out', 'server.csr']);
  writeFileSync(
    path.join(dir, 'ext.cnf'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
    '-out',
    'cert.pem',
  ]);
  return { ca: path.join(dir, 'ca.pem'), cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem') };
}

/** A port free for TCP on 127.0.0.1. */
export async function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function httpsGet(url: string, ca: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, timeout: 5000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
  });
}

function httpPost(port: number, p: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method: 'POST', timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`challtestsrv ${p}: HTTP ${res.statusCode}`)),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from challtestsrv ${p}`)));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = nextEvent(child, 'exit', { timeout: 4000 }).catch(() => undefined);
  child.kill('SIGTERM');
  await gone;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function spawnLogged(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; log: () => string } {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let log = '';
  const keep = (d: Buffer) => {
    log = (log + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, log: () => log };
}

async function whenUp(child: ChildProcess, name: string, log: () => string, up: () => Promise<boolean>): Promise<void> {
  const state = await waitFor(async () => (child.exitCode !== null ? 'exited' : (await up()) ? 'up' : undefined), {
    timeout: 15_000,
    interval: 50,
    what: `${name} answering`,
  }).catch(async (err: Error) => {
    await stopChild(child);
    throw new Error(`${name} did not answer (${err.message}): ${log().slice(-2000)}`);
  });
  if (state === 'exited') throw new Error(`${name} exited: ${log().slice(-2000)}`);
}

const answers = (p: Promise<unknown>) =>
  p.then(
    () => true,
    () => false,
  );

/** Starts challtestsrv (unless `dnsServer` is given) and pebble; `stop()` ends both and removes the temp dir. */
export async function startPebble(o: PebbleOptions = {}): Promise<PebblePeer> {
  const pebble = which('pebble');
  const challtest = which('pebble-challtestsrv');
  if (!pebble || !challtest) throw new Error('pebble not installed (apt-get install pebble)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-pebble-'));
  const children: ChildProcess[] = [];
  const stopAll = async () => {
    await Promise.all(children.map(stopChild));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const tls = makeTls(dir);
    const caCertPem = readFileSync(tls.ca, 'utf8');
    let challtestsrv: ChallTestSrv | undefined;
    let dnsServer = o.dnsServer;
    if (!dnsServer) {
      const dnsPort = await freeDualPort();
      const managementPort = await freeTcpPort();
      // Only DNS and the management API: HTTP-01 is the test's own responder, on `httpPort`.
      const c = spawnLogged(challtest, [
        '-defaultIPv4',
        '127.0.0.1',
        '-defaultIPv6',
        '',
        '-dns01',
        `127.0.0.1:${dnsPort}`,
        '-http01',
        '',
        '-https01',
        '',
        '-tlsalpn01',
        '',
        '-management',
        `127.0.0.1:${managementPort}`,
      ]);
      children.push(c.child);
      await whenUp(c.child, 'pebble-challtestsrv', c.log, () =>
        answers(httpPost(managementPort, '/clear-txt', { host: 'lucky-probe.invalid.' })),
      );
      challtestsrv = {
        dnsPort,
        managementPort,
        setTxt: (host, value) => httpPost(managementPort, '/set-txt', { host, value }),
        clearTxt: (host) => httpPost(managementPort, '/clear-txt', { host }),
      };
      dnsServer = `127.0.0.1:${dnsPort}`;
    }
    const acmePort = await freeTcpPort();
    let managementPort = await freeTcpPort();
    while (managementPort === acmePort) managementPort = await freeTcpPort();
    const httpPort = o.httpPort ?? (await freeTcpPort());
    const config = {
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: tls.cert,
        privateKey: tls.key,
        httpPort,
        // TLS-ALPN-01 is not used; a port nothing listens on.
        tlsPort: await freeTcpPort(),
        ocspResponderURL: '',
        externalAccountBindingRequired: o.eab !== undefined,
        ...(o.eab ? { externalAccountMACKeys: o.eab } : {}),
        ...(o.validitySeconds ? { certificateValidityPeriod: o.validitySeconds } : {}),
      },
    };
    writeFileSync(path.join(dir, 'pebble.json'), JSON.stringify(config));
    const p = spawnLogged(pebble, ['-config', path.join(dir, 'pebble.json'), '-dnsserver', dnsServer], {
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_WFE_NONCEREJECT: String(o.nonceReject ?? 0),
      PEBBLE_AUTHZREUSE: '0',
      ...(o.alternateRoots ? { PEBBLE_ALTERNATE_ROOTS: String(o.alternateRoots) } : {}),
    });
    children.push(p.child);
    const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
    await whenUp(p.child, 'pebble', p.log, async () => {
      const dirUp = await httpsGet(directoryUrl, caCertPem).catch(() => undefined);
      const mgmtUp = await httpsGet(`https://127.0.0.1:${managementPort}/roots/0`, caCertPem).catch(() => undefined);
      return dirUp?.status === 200 && mgmtUp?.status === 200;
    });
    const management = async (p: string) => {
      const res = await httpsGet(`https://127.0.0.1:${managementPort}${p}`, caCertPem);
      if (res.status !== 200) throw new Error(`pebble management ${p}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
      return res.text;
    };
    return {
      directoryUrl,
      acmePort,
      managementPort,
      caCertPem,
      httpPort,
      challtestsrv,
      roots: () => management('/roots/0'),
      intermediates: () => management('/intermediates/0'),
      async certStatus(serialHex) {
        const body = JSON.parse(await management(`/cert-status-by-serial/${serialHex.toLowerCase()}`)) as {
          Status?: string;
          Reason?: number;
        };
        return { status: String(body.Status ?? ''), reason: body.Reason, body };
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
