// Real DNS servers for the DNS provider and DDNS system tests, started by the tests themselves:
// PowerDNS Authoritative (sqlite backend + HTTP API) and BIND 9 (RFC 2136 + TSIG), each on
// loopback high ports with its config and data in a temp dir; never the system services or /etc.
// Debian packages: pdns-server pdns-backend-sqlite3 sqlite3 bind9 (scripts/ensure-system-deps.sh).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { nextEvent, waitFor } from './wait.js';

/** A port free for both TCP and UDP on 127.0.0.1 (DNS servers listen on both). */
export async function freeDualPort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20000 + Math.floor(Math.random() * 40000);
    const tcpOk = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (!tcpOk) continue;
    const udpOk = await new Promise<boolean>((resolve) => {
      const s = dgram.createSocket('udp4');
      s.once('error', () => resolve(false));
      s.bind(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (udpOk) return port;
  }
  throw new Error('no free port');
}

export function which(cmd: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    const p = path.join(dir, cmd);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Asks a DNS server directly (no cache, no system resolver). */
export async function query(
  port: number,
  name: string,
  type: 'A' | 'AAAA' = 'A',
  host = '127.0.0.1',
): Promise<string[]> {
  const r = new Resolver({ timeout: 1000, tries: 2 });
  r.setServers([`${host}:${port}`]);
  try {
    return type === 'A' ? await r.resolve4(name) : await r.resolve6(name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw err;
  }
}

/** TXT values of a name, asked of a DNS server directly (the strings of one record joined), sorted. */
export async function queryTxt(port: number, name: string): Promise<string[]> {
  const r = new Resolver({ timeout: 1000, tries: 2 });
  r.setServers([`127.0.0.1:${port}`]);
  try {
    return (await r.resolveTxt(name)).map((strings) => strings.join('')).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw err;
  }
}

/** Waits until `up()` holds, for at most 15 s; fails with the server's log when it exits first or never answers. */
async function whenUp(child: ChildProcess, name: string, log: () => string, up: () => Promise<boolean>): Promise<void> {
  const state = await waitFor(async () => (child.exitCode !== null ? 'exited' : (await up()) ? 'up' : undefined), {
    timeout: 15_000,
    interval: 100,
    what: `${name} answering`,
  }).catch(async (err: Error) => {
    await stopChild(child);
    throw new Error(`${name} did not answer (${err.message}): ${log().slice(-2000)}`);
  });
  if (state === 'exited') throw new Error(`${name} exited: ${log().slice(-2000)}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = nextEvent(child, 'exit', { timeout: 4000 }).catch(() => undefined);
  child.kill('SIGTERM');
  // A grace period for a clean exit, then the hard way.
  await gone;
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface BindPeer {
  port: number;
  zone: string;
  keyName: string;
  /** base64 hmac-sha256 secret */
  secret: string;
  stop(): Promise<void>;
}

const ZONE = `$TTL 300
@   IN SOA ns1.home.test. hostmaster.home.test. 1 3600 600 86400 60
    IN NS  ns1.home.test.
ns1 IN A   127.0.0.1
nas IN A   192.0.2.10
`;

/**
 * BIND 9 authoritative for home.test on 127.0.0.1:<port>, updates allowed with TSIG key
 * ddns-key; `extraRecords` are zone-file lines added to the zone.
 */
export async function startBind(extraRecords: string[] = []): Promise<BindPeer> {
  const named = which('named');
  if (!named) throw new Error('named not installed (apt-get install bind9)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-bind-'));
  const port = await freeDualPort();
  const secret = randomBytes(32).toString('base64');
  writeFileSync(path.join(dir, 'home.test.zone'), `${ZONE}${extraRecords.map((l) => `${l}\n`).join('')}`);
  writeFileSync(
    path.join(dir, 'named.conf'),
    `key "ddns-key" { algorithm hmac-sha256; secret "${secret}"; };
options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  allow-query { 127.0.0.1; };
  dnssec-validation no;
};
controls { };
zone "home.test" {
  type primary;
  file "${dir}/home.test.zone";
  update-policy { grant ddns-key zonesub ANY; };
};
`,
  );
  const child = spawn(named, ['-g', '-4', '-c', path.join(dir, 'named.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d) => {
    log += d;
  });
  await whenUp(
    child,
    'named',
    () => log,
    async () => (await query(port, 'nas.home.test')).length > 0,
  );
  return {
    port,
    zone: 'home.test',
    keyName: 'ddns-key',
    secret,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PdnsPeer {
  dnsPort: number;
  apiUrl: string;
  apiKey: string;
  /** Calls to the API by path, counted (the "no provider call when unchanged" check reads it). */
  api(method: string, p: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

/**
 * PowerDNS Authoritative (gsqlite3) with the HTTP API; zone home.test created through the API.
 * `address`: where DNS and the API listen (default 127.0.0.1; the STUN lab gives its management
 * veth's address, so a console inside a network namespace reaches it).
 */
export async function startPdns(opts: { address?: string } = {}): Promise<PdnsPeer> {
  const host = opts.address ?? '127.0.0.1';
  const pdns = which('pdns_server');
  if (!pdns) throw new Error('pdns_server not installed (apt-get install pdns-server pdns-backend-sqlite3)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-pdns-'));
  const dnsPort = await freeDualPort();
  let apiPort = await freeDualPort();
  while (apiPort === dnsPort) apiPort = await freeDualPort();
  const apiKey = randomBytes(12).toString('hex');
  const db = path.join(dir, 'pdns.sqlite3');
  execFileSync('sqlite3', [db], {
    input: execFileSync('cat', ['/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql']),
  });
  writeFileSync(
    path.join(dir, 'pdns.conf'),
    [
      'launch=gsqlite3',
      `gsqlite3-database=${db}`,
      `local-address=${host}`,
      `local-port=${dnsPort}`,
      'api=yes',
      `api-key=${apiKey}`,
      'webserver=yes',
      `webserver-address=${host}`,
      `webserver-port=${apiPort}`,
      `webserver-allow-from=127.0.0.0/8,${host}/32,10.0.0.0/8`,
      'daemon=no',
      'guardian=no',
      `socket-dir=${dir}`,
      'disable-syslog=yes',
      'loglevel=3',
      'security-poll-suffix=',
      'default-soa-content=ns1.@ hostmaster.@ 0 10800 3600 604800 3600',
      // Answers straight from the backend, so a test sees a change at once.
      'cache-ttl=0',
      'negquery-cache-ttl=0',
      'query-cache-ttl=0',
      'zone-cache-refresh-interval=0',
      '',
    ].join('\n'),
  );
  const child = spawn(pdns, [`--config-dir=${dir}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d) => {
    log += d;
  });
  const apiUrl = `http://${host}:${apiPort}`;
  const api: PdnsPeer['api'] = async (method, p, body) => {
    const res = await fetch(`${apiUrl}/api/v1/servers/localhost${p}`, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  await whenUp(
    child,
    'pdns_server',
    () => log,
    async () => (await api('GET', '')).status === 200,
  );
  const created = await api('POST', '/zones', { name: 'home.test.', kind: 'Native', nameservers: ['ns1.home.test.'] });
  if (created.status !== 201) throw new Error(`zone create: ${created.status} ${JSON.stringify(created.body)}`);
  return {
    dnsPort,
    apiUrl,
    apiKey,
    api,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
