// coturn as a real STUN server for the STUN client's tests (Debian package coturn,
// scripts/ensure-system-deps.sh): STUN only, no TURN, no TLS, no CLI, its files in a temp dir.
// With two listening addresses it answers RFC 5780 (OTHER-ADDRESS, CHANGE-REQUEST), its alternate
// port being port + 1. Inside a network namespace when `netns` is given (the NAT lab).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { which } from './dns-peers.js';
import { nextEvent, waitFor } from './wait.js';

export interface CoturnPeer {
  /** The primary port (UDP and TCP); the alternate port is port + 1. */
  port: number;
  /** Everything coturn printed so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface CoturnOptions {
  /** Listening IPv4 addresses; two make it RFC 5780 capable. */
  addresses: string[];
  /** Fixed port (default: a free one, port + 1 free too). */
  port?: number;
  /** Run inside this network namespace (`ip netns exec`). */
  netns?: string;
}

/** Whether `port` can be bound on `address` for TCP and UDP (nothing of ours or another test's on it). */
async function freeOn(address: string, port: number): Promise<boolean> {
  const tcp = await new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, address, () => s.close(() => resolve(true)));
  });
  if (!tcp) return false;
  return new Promise<boolean>((resolve) => {
    const s = dgram.createSocket('udp4');
    s.once('error', () => {
      s.close();
      resolve(false);
    });
    s.bind(port, address, () => s.close(() => resolve(true)));
  });
}

/**
 * A port with port + 1 free on every address. Drawn at random below the kernel's ephemeral range
 * (32768+), so neither another test's coturn nor a client socket is likely to take it meanwhile;
 * coturn binds with SO_REUSEPORT, so a clash would not even fail, hence the spread.
 */
async function freePortPair(addresses: string[]): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const port = 20000 + 2 * Math.floor(Math.random() * 6000);
    let ok = true;
    for (const a of addresses) ok = ok && (await freeOn(a, port)) && (await freeOn(a, port + 1));
    if (ok) return port;
  }
  throw new Error('no free port pair for coturn');
}

/** Runs a command (inside `netns` when given); resolves whether it exited 0 within `timeoutMs`. */
function succeeds(netns: string | undefined, cmd: string[], timeoutMs: number): Promise<boolean> {
  const argv = netns ? ['ip', 'netns', 'exec', netns, ...cmd] : cmd;
  return new Promise((resolve) => {
    execFile(argv[0], argv.slice(1), { timeout: timeoutMs }, (err) => resolve(!err));
  });
}

export async function startCoturn(opts: CoturnOptions): Promise<CoturnPeer> {
  const turnserver = which('turnserver');
  if (!turnserver) throw new Error('turnserver not installed (apt-get install coturn)');
  if (opts.addresses.length === 0) throw new Error('coturn needs a listening address');
  // Outside a namespace the port is checked here; inside one the namespace is the test's own.
  const port =
    opts.port ?? (opts.netns ? 20000 + 2 * Math.floor(Math.random() * 6000) : await freePortPair(opts.addresses));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-coturn-'));
  const args = [
    '-n',
    ...opts.addresses.map((a) => `--listening-ip=${a}`),
    `--listening-port=${port}`,
    '--stun-only',
    '--no-cli',
    '--no-tls',
    '--no-dtls',
    '--log-file=stdout',
    '--simple-log',
    `--userdb=${path.join(dir, 'turndb')}`,
    `--pidfile=${path.join(dir, 'turnserver.pid')}`,
  ];
  // `ip netns exec` execs the program, so the child's pid is coturn's own and a signal reaches it.
  const child: ChildProcess = opts.netns
    ? spawn('ip', ['netns', 'exec', opts.netns, turnserver, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(turnserver, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer) => {
    // Bounded: a long test must not grow the log without end.
    log = (log + d.toString()).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = nextEvent(child, 'exit', { timeout: 5000 }).catch(() => undefined);
      child.kill('SIGTERM');
      // coturn takes 1–3 s to exit on SIGTERM; after 5 s it is killed.
      await gone;
      if (child.exitCode === null && child.signalCode === null) {
        const killed = nextEvent(child, 'exit', { timeout: 5000 }).catch(() => undefined);
        child.kill('SIGKILL');
        await killed;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  // Up when an independent client (coturn's own turnutils_stunclient) gets a UDP answer and
  // every address accepts TCP on the port.
  const up = async () => {
    if (!(await succeeds(opts.netns, ['turnutils_stunclient', '-p', String(port), opts.addresses[0]], 1000))) {
      return false;
    }
    for (const a of opts.addresses) {
      if (!(await succeeds(opts.netns, ['bash', '-c', `exec 3<>/dev/tcp/${a}/${port}`], 1000))) return false;
    }
    return true;
  };
  const state = await waitFor(async () => (child.exitCode !== null ? 'exited' : (await up()) ? 'up' : undefined), {
    timeout: 15_000,
    interval: 100,
    what: 'coturn answering',
  }).catch(async (err: Error) => {
    await stop();
    throw new Error(`coturn did not answer (${err.message}): ${log.slice(-2000)}`);
  });
  if (state === 'exited') {
    await stop();
    throw new Error(`coturn exited: ${log.slice(-2000)}`);
  }
  return { port, log: () => log, stop };
}
