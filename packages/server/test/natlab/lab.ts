// A NAT lab of network namespaces for tests that need a real router between the console and the
// internet (STUN traversal, UPnP / NAT-PMP / PCP):
//
//   [home]  192.168.77.2 (+ .3)  ─veth─  [router] 192.168.77.1 | WAN 11.22.33.x  ─veth─  [public] 11.22.33.100 + .101
//     │ mgmt veth (10.252.x.y/30)                NAT in nftables (natRules.ts),            coturn (STUN, RFC 5780)
//   [root namespace: the test process]           miniupnpd (UPnP IGD, NAT-PMP, PCP)
//
// 11.22.33.0/24 is a made-up "internet": miniupnpd refuses private and documentation ranges as its
// external address, and the namespaces have no route out, so nothing leaves the machine.
// Each lab claims a number (an `ip netns add` that fails when the name exists is the lock), so
// several test files can run labs at once; interface names stay within 15 characters. The root
// namespace gets only the management veth (an address and its /30 route): its firewall tables
// are never touched. A lab whose owner process died is swept by the next lab that meets it.
import { type ChildProcess, execFileSync, type SpawnOptions, spawn as spawnChild } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { type CoturnPeer, startCoturn } from '../stun-peers.js';
import { waitFor } from '../wait.js';
import { flushConeMaps, type NatMode, natRuleset } from './natRules.js';

export { NAT_MODES, type NatMode } from './natRules.js';

export interface UpnpLease {
  protocol: 'tcp' | 'udp';
  externalPort: number;
  internalClient: string;
  internalPort: number;
  /** Unix seconds when miniupnpd lets the mapping go (0: permanent). */
  expiresAt: number;
  description: string;
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Lab {
  readonly home: string;
  readonly router: string;
  readonly pub: string;
  readonly homeIp: '192.168.77.2';
  readonly routerLanIp: '192.168.77.1';
  /** The router's WAN address (changes on redial). */
  wanIp: string;
  /** Two addresses in the public namespace (coturn RFC 5780; outside clients). */
  readonly publicIps: [string, string];
  /** A veth between the root namespace and home (unique /30 per lab). */
  readonly mgmt: { hostIp: string; homeIp: string };
  readonly mode: NatMode;
  exec(ns: string, cmd: string, args: string[], opts?: { input?: string; timeoutMs?: number }): Promise<ExecResult>;
  /** A process in `ns`, killed by destroy(). */
  spawn(ns: string, cmd: string, args: string[], opts?: SpawnOptions): ChildProcess;
  /** Replaces the router's NAT rules (ports kept again: shiftPorts undone) and flushes conntrack. */
  setNat(mode: NatMode): Promise<void>;
  /** "WAN redial": a new WAN address, conntrack flushed; returns the address. */
  redial(): Promise<string>;
  /** Forgets every NAT mapping (conntrack and the cone maps). */
  flushConntrack(): Promise<void>;
  /** Masquerades into another port range (61000–61999, then 62000–62999, …) and flushes. */
  shiftPorts(): Promise<void>;
  /** coturn on both public addresses, port 3478 (alternate 3479), UDP and TCP. */
  startCoturn(): Promise<void>;
  /**
   * miniupnpd on the router: UPnP IGD on 192.168.77.1:5000, NAT-PMP / PCP on :5351 (unless
   * `natpmp: false`, a UPnP-only router), secure_mode.
   */
  startMiniupnpd(opts?: { natpmp?: boolean }): Promise<void>;
  /** Stops it and forgets its mappings (a router reboot). */
  stopMiniupnpd(): Promise<void>;
  /** miniupnpd's mappings (UPnP, NAT-PMP and PCP alike), from its lease file. */
  upnpMappings(): Promise<UpnpLease[]>;
  /** Kills every process, deletes the namespaces and the mgmt veth; idempotent. */
  destroy(): Promise<void>;
}

const HOME_IP = '192.168.77.2';
const HOME_IP_2 = '192.168.77.3';
const ROUTER_LAN_IP = '192.168.77.1';
const WAN_PREFIX = '11.22.33';
const PUBLIC_IPS: [string, string] = [`${WAN_PREFIX}.100`, `${WAN_PREFIX}.101`];
const STATE_ROOT = '/tmp/lucky-natlab';
const MAX_LABS = 1024;
const PORT_RANGES: Array<[number, number]> = [
  [61000, 61999],
  [62000, 62999],
];

/** Runs a command; never throws for an exit code, only for a time-out or a missing program. */
function run(cmd: string, args: string[], opts: { input?: string; timeoutMs?: number } = {}): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const child = spawnChild(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')}: no exit within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs ?? 30_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    child.stdin.on('error', () => {
      // the program may exit without reading its input
    });
    child.stdin.end(opts.input ?? '');
  });
}

async function must(cmd: string, args: string[], input?: string): Promise<string> {
  const r = await run(cmd, args, { input });
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.code}: ${r.stderr.trim()}`);
  return r.stdout;
}

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The command that runs a TypeScript file with this process's Node (the project's Node 24) and tsx. */
export function nodeCommand(file: string, args: string[] = []): [string, string[]] {
  return [process.execPath, ['--conditions=development', '--import', tsxLoader, file, ...args]];
}

/** Runs a TypeScript file in a namespace and returns its stdout parsed as JSON. */
export async function runInNs<T>(ns: string, file: string, args: string[], timeoutMs = 60_000): Promise<T> {
  const [node, nodeArgs] = nodeCommand(file, args);
  const r = await run('ip', ['netns', 'exec', ns, node, ...nodeArgs], { timeoutMs });
  if (r.code !== 0) throw new Error(`${file} in ${ns} exited with ${r.code}: ${r.stderr.trim().slice(-2000)}`);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`${file} in ${ns} printed no JSON: ${r.stdout.slice(0, 500)} ${r.stderr.slice(-1000)}`);
  }
}

interface Names {
  prefix: string;
  home: string;
  router: string;
  pub: string;
  homeLan: string;
  routerLan: string;
  routerWan: string;
  pubWan: string;
  mgmtHost: string;
  mgmtHome: string;
  dir: string;
}

const namesOf = (i: number): Names => {
  const prefix = `lkn${i}`;
  return {
    prefix,
    home: `${prefix}-home`,
    router: `${prefix}-router`,
    pub: `${prefix}-public`,
    homeLan: `${prefix}h0`,
    routerLan: `${prefix}rl`,
    routerWan: `${prefix}rw`,
    pubWan: `${prefix}p0`,
    mgmtHost: `${prefix}m`,
    mgmtHome: `${prefix}mh`,
    dir: `${STATE_ROOT}/${prefix}`,
  };
};

/** Synchronous tear-down (process exit, stale labs): kill what runs inside, delete everything. */
function teardownSync(n: Names, children: Iterable<ChildProcess> = []): void {
  for (const c of children) {
    try {
      c.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const ns of [n.home, n.router, n.pub]) {
    try {
      const pids = execFileSync('ip', ['netns', 'pids', ns], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      for (const pid of pids.split('\n').filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // exited meanwhile
        }
      }
    } catch {
      // no such namespace
    }
  }
  const quiet = { stdio: 'ignore' as const };
  try {
    execFileSync('ip', ['link', 'del', n.mgmtHost], quiet);
  } catch {
    // not there
  }
  for (const ns of [n.home, n.router, n.pub]) {
    try {
      execFileSync('ip', ['netns', 'del', ns], quiet);
    } catch {
      // not there
    }
  }
  rmSync(n.dir, { recursive: true, force: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Claims a free lab number: the first whose home namespace this call creates. */
async function claim(): Promise<Names> {
  for (let i = 0; i < MAX_LABS; i++) {
    const n = namesOf(i);
    let r = await run('ip', ['netns', 'add', n.home]);
    if (r.code !== 0 && /exists/i.test(r.stderr)) {
      let owner = 0;
      try {
        owner = Number(readFileSync(`${n.dir}/owner`, 'utf8'));
      } catch {
        // being set up by another process right now, or left without an owner: not ours to take
      }
      if (owner > 0 && !alive(owner)) {
        teardownSync(n);
        r = await run('ip', ['netns', 'add', n.home]);
      }
    }
    if (r.code === 0) {
      mkdirSync(n.dir, { recursive: true });
      writeFileSync(`${n.dir}/owner`, String(process.pid));
      return n;
    }
    if (!/exists/i.test(r.stderr)) {
      throw new Error(
        `NAT lab: cannot create a network namespace (ip netns add: ${r.stderr.trim() || `exit ${r.code}`}). ` +
          'The lab needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN) and iproute2, nftables, conntrack, iptables.',
      );
    }
  }
  throw new Error(`NAT lab: all ${MAX_LABS} lab numbers are taken (ip netns list)`);
}

class NatLab implements Lab {
  readonly home: string;
  readonly router: string;
  readonly pub: string;
  readonly homeIp = HOME_IP;
  readonly routerLanIp = ROUTER_LAN_IP;
  wanIp = `${WAN_PREFIX}.1`;
  readonly publicIps = PUBLIC_IPS;
  readonly mgmt: { hostIp: string; homeIp: string };
  mode: NatMode;
  private readonly children = new Set<ChildProcess>();
  private portRange: number | undefined;
  private redials = 0;
  private miniupnpd: ChildProcess | undefined;
  private coturn: CoturnPeer | undefined;
  private upnpChains = false;
  private destroyed: Promise<void> | undefined;
  private readonly onExit = () => teardownSync(this.n, this.children);

  constructor(
    private readonly n: Names,
    index: number,
    mode: NatMode,
  ) {
    this.home = n.home;
    this.router = n.router;
    this.pub = n.pub;
    this.mode = mode;
    // One /30 per lab number: 10.252.0.0/22 holds 1024 of them.
    const net = `10.252.${index >> 6}`;
    const last = (index & 63) * 4;
    this.mgmt = { hostIp: `${net}.${last + 1}`, homeIp: `${net}.${last + 2}` };
    process.on('exit', this.onExit);
  }

  /** Builds the namespaces, links, addresses, routes and the NAT. */
  async build(): Promise<void> {
    const n = this.n;
    const ip = (...args: string[]) => must('ip', args);
    await ip('netns', 'add', n.router);
    await ip('netns', 'add', n.pub);
    for (const ns of [n.home, n.router, n.pub]) await ip('-n', ns, 'link', 'set', 'lo', 'up');
    await ip('link', 'add', n.homeLan, 'netns', n.home, 'type', 'veth', 'peer', 'name', n.routerLan, 'netns', n.router);
    await ip('link', 'add', n.routerWan, 'netns', n.router, 'type', 'veth', 'peer', 'name', n.pubWan, 'netns', n.pub);
    await ip('link', 'add', n.mgmtHost, 'type', 'veth', 'peer', 'name', n.mgmtHome, 'netns', n.home);
    await ip('-n', n.home, 'addr', 'add', `${HOME_IP}/24`, 'dev', n.homeLan);
    await ip('-n', n.home, 'addr', 'add', `${HOME_IP_2}/24`, 'dev', n.homeLan);
    await ip('-n', n.home, 'addr', 'add', `${this.mgmt.homeIp}/30`, 'dev', n.mgmtHome);
    await ip('-n', n.router, 'addr', 'add', `${ROUTER_LAN_IP}/24`, 'dev', n.routerLan);
    await ip('-n', n.router, 'addr', 'add', `${this.wanIp}/24`, 'dev', n.routerWan);
    for (const a of PUBLIC_IPS) await ip('-n', n.pub, 'addr', 'add', `${a}/24`, 'dev', n.pubWan);
    await ip('addr', 'add', `${this.mgmt.hostIp}/30`, 'dev', n.mgmtHost);
    for (const [ns, dev] of [
      [n.home, n.homeLan],
      [n.home, n.mgmtHome],
      [n.router, n.routerLan],
      [n.router, n.routerWan],
      [n.pub, n.pubWan],
    ]) {
      await ip('-n', ns, 'link', 'set', dev, 'up');
    }
    await ip('link', 'set', n.mgmtHost, 'up');
    // The public side has no route back into the LAN: only NAT gets packets there.
    await ip('-n', n.home, 'route', 'add', 'default', 'via', ROUTER_LAN_IP);
    await this.inRouter('sysctl', '-qw', 'net.ipv4.ip_forward=1');
    // A closed port answers every probe with port-unreachable (no rate limit), so a test learns
    // "not let in" from the ICMP error instead of from waiting.
    await this.inRouter('sysctl', '-qw', 'net.ipv4.icmp_ratelimit=0');
    await this.setNat(this.mode);
  }

  private inRouter(cmd: string, ...args: string[]): Promise<string> {
    return must('ip', ['netns', 'exec', this.router, cmd, ...args]);
  }

  exec(ns: string, cmd: string, args: string[], opts?: { input?: string; timeoutMs?: number }): Promise<ExecResult> {
    return run('ip', ['netns', 'exec', ns, cmd, ...args], opts);
  }

  spawn(ns: string, cmd: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
    if (this.destroyed) throw new Error('NAT lab: spawn after destroy');
    const child = spawnChild('ip', ['netns', 'exec', ns, cmd, ...args], { stdio: 'pipe', ...opts });
    this.children.add(child);
    child.on('exit', () => this.children.delete(child));
    child.on('error', () => this.children.delete(child));
    return child;
  }

  async setNat(mode: NatMode): Promise<void> {
    this.portRange = undefined;
    await this.applyNat(mode);
  }

  private async applyNat(mode: NatMode): Promise<void> {
    const range = this.portRange === undefined ? undefined : PORT_RANGES[this.portRange];
    await must(
      'ip',
      ['netns', 'exec', this.router, 'nft', '-f', '-'],
      natRuleset(mode, { wan: this.n.routerWan, portRange: range }),
    );
    this.mode = mode;
    await this.flushConntrack();
  }

  async flushConntrack(): Promise<void> {
    const maps = flushConeMaps(this.mode);
    if (maps) await must('ip', ['netns', 'exec', this.router, 'nft', '-f', '-'], maps);
    await this.inRouter('conntrack', '-F');
  }

  async redial(): Promise<string> {
    const old = this.wanIp;
    this.redials++;
    const next = `${WAN_PREFIX}.${(this.redials % 99) + 1}`;
    await must('ip', ['-n', this.router, 'addr', 'del', `${old}/24`, 'dev', this.n.routerWan]);
    await must('ip', ['-n', this.router, 'addr', 'add', `${next}/24`, 'dev', this.n.routerWan]);
    this.wanIp = next;
    await this.flushConntrack();
    return next;
  }

  async shiftPorts(): Promise<void> {
    this.portRange = this.portRange === undefined ? 0 : (this.portRange + 1) % PORT_RANGES.length;
    await this.applyNat(this.mode);
  }

  /** Waits until `ns` has sockets matching every pattern of `ss -ln` (tcp and udp), or the process ends. */
  private async listening(ns: string, child: ChildProcess, patterns: RegExp[], log: string, what: string) {
    await waitFor(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}): ${readLog(log)}`);
        }
        const { stdout } = await this.exec(ns, 'ss', ['-lntu']);
        return patterns.every((p) => p.test(stdout));
      },
      { timeout: 10_000, what: `${what} listening` },
    ).catch((err: Error) => {
      throw new Error(`NAT lab: ${err.message}; log: ${readLog(log)}`);
    });
  }

  async startCoturn(): Promise<void> {
    if (this.coturn) return;
    this.coturn = await startCoturn({ addresses: [...PUBLIC_IPS], port: 3478, netns: this.pub });
  }

  /** miniupnpd-iptables drives the legacy iptables back end: its chains, as iptables_init.sh makes them. */
  private async upnpChainsOnce(): Promise<void> {
    if (this.upnpChains) return;
    const wan = this.n.routerWan;
    const ipt = (...args: string[]) => this.inRouter('iptables-legacy', '-w', ...args);
    await ipt('-t', 'nat', '-N', 'MINIUPNPD');
    await ipt('-t', 'nat', '-I', 'PREROUTING', '-i', wan, '-j', 'MINIUPNPD');
    await ipt('-t', 'mangle', '-N', 'MINIUPNPD');
    await ipt('-t', 'mangle', '-I', 'PREROUTING', '-i', wan, '-j', 'MINIUPNPD');
    await ipt('-t', 'filter', '-N', 'MINIUPNPD');
    await ipt('-t', 'filter', '-I', 'FORWARD', '-i', wan, '!', '-o', wan, '-j', 'MINIUPNPD');
    await ipt('-t', 'nat', '-N', 'MINIUPNPD-POSTROUTING');
    await ipt('-t', 'nat', '-I', 'POSTROUTING', '-o', wan, '-j', 'MINIUPNPD-POSTROUTING');
    this.upnpChains = true;
  }

  async startMiniupnpd(opts: { natpmp?: boolean } = {}): Promise<void> {
    const natpmp = opts.natpmp ?? true;
    if (this.miniupnpd) return;
    await this.upnpChainsOnce();
    const dir = this.n.dir;
    const conf = `${dir}/miniupnpd.conf`;
    writeFileSync(
      conf,
      [
        `ext_ifname=${this.n.routerWan}`,
        `listening_ip=${this.n.routerLan}`,
        'http_port=5000',
        `enable_natpmp=${natpmp ? 'yes' : 'no'}`,
        'enable_upnp=yes',
        'ipv6_disable=yes',
        // Mappings only for the address that asks (a request for .3 from .2 is refused with 718).
        'secure_mode=yes',
        'system_uptime=yes',
        'notify_interval=60',
        'clean_ruleset_interval=600',
        `lease_file=${dir}/upnp.leases`,
        `minissdpdsocket=${dir}/minissdpd.sock`,
        'uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b',
        'allow 1024-65535 192.168.77.0/24 1024-65535',
        'deny 0-65535 0.0.0.0/0 0-65535',
        '',
      ].join('\n'),
    );
    const log = `${dir}/miniupnpd.log`;
    const out = openSync(log, 'a');
    const child = this.spawn(this.router, 'miniupnpd', ['-f', conf, '-d', '-P', `${dir}/miniupnpd.pid`], {
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    this.miniupnpd = child;
    await this.listening(
      this.router,
      child,
      natpmp ? [/udp.*:5351\b/, /tcp.*:5000\b/] : [/tcp.*:5000\b/],
      log,
      'miniupnpd',
    );
  }

  async stopMiniupnpd(): Promise<void> {
    const child = this.miniupnpd;
    this.miniupnpd = undefined;
    if (child) await stopChild(child);
    if (this.upnpChains) {
      for (const [table, chain] of [
        ['nat', 'MINIUPNPD'],
        ['mangle', 'MINIUPNPD'],
        ['filter', 'MINIUPNPD'],
        ['nat', 'MINIUPNPD-POSTROUTING'],
      ]) {
        await this.inRouter('iptables-legacy', '-w', '-t', table, '-F', chain);
      }
    }
    rmSync(`${this.n.dir}/upnp.leases`, { force: true });
  }

  async upnpMappings(): Promise<UpnpLease[]> {
    let text = '';
    try {
      text = readFileSync(`${this.n.dir}/upnp.leases`, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        // PROTO:EXTERNAL_PORT:INTERNAL_CLIENT:INTERNAL_PORT:EXPIRY:DESCRIPTION (the description may hold ':')
        const [proto, ext, client, int, expiry, ...desc] = line.split(':');
        return {
          protocol: proto.toLowerCase() as 'tcp' | 'udp',
          externalPort: Number(ext),
          internalClient: client,
          internalPort: Number(int),
          expiresAt: Number(expiry),
          description: desc.join(':'),
        };
      });
  }

  destroy(): Promise<void> {
    this.destroyed ??= (async () => {
      await Promise.all([...[...this.children].map((c) => stopChild(c)), this.coturn?.stop()]);
      teardownSync(this.n, this.children);
      process.off('exit', this.onExit);
    })();
    return this.destroyed;
  }
}

const readLog = (file: string) => {
  try {
    return readFileSync(file, 'utf8').slice(-2000);
  } catch {
    return '(no log)';
  }
};

/** SIGTERM, then SIGKILL when the process has not exited within 3 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** Sets up a lab (default NAT: portRestrictedCone, i.e. plain Linux masquerade). */
export async function createLab(opts: { nat?: NatMode } = {}): Promise<Lab> {
  const n = await claim();
  const index = Number(n.prefix.slice(3));
  const lab = new NatLab(n, index, opts.nat ?? 'portRestrictedCone');
  try {
    await lab.build();
  } catch (err) {
    await lab.destroy();
    throw new Error(`NAT lab: set-up failed: ${(err as Error).message}`);
  }
  return lab;
}
