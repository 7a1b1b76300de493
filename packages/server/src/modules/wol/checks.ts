// The online checks of a device: a TCP connect to the chosen port, an ICMP echo through the
// system's `ping` (iputils; no raw socket of our own), and the neighbour table (`ip neigh`), each
// bounded by the settings' time-out. What answered is reported, so the screen can say why.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

/** True when a TCP connection to host:port is accepted within `timeoutMs`. */
export function tcpProbe(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      socket.destroy();
      resolve(ok);
    };
    const abort = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    signal?.addEventListener('abort', abort, { once: true });
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const PING_PATHS = ['/usr/bin/ping', '/bin/ping'];
/** The system's ping, when iputils is installed (it answers echo without our own raw socket). */
export const pingPath = (): string | undefined => PING_PATHS.find((p) => existsSync(p));
export const sshPath = (): string | undefined => ['/usr/bin/ssh', '/bin/ssh'].find((p) => existsSync(p));

/** One ICMP echo (`ping -c1 -W<s>`); false when ping is missing or nothing answered. */
export function pingProbe(host: string, timeoutSec: number, signal?: AbortSignal): Promise<boolean> {
  const ping = pingPath();
  if (!ping) return Promise.resolve(false);
  return new Promise((resolve) => {
    execFile(
      ping,
      ['-c', '1', '-W', String(timeoutSec), '-n', '-q', host],
      { timeout: (timeoutSec + 2) * 1000, signal },
      (err) => resolve(!err),
    );
  });
}

export interface Neighbour {
  ip: string;
  mac: string;
  /** REACHABLE, STALE, DELAY, PROBE, FAILED, … */
  state: string;
  dev: string;
}

/** The kernel's neighbour table (ARP and NDP), from `ip -j neigh`; empty when it cannot be read. */
export function neighbours(signal?: AbortSignal): Promise<Neighbour[]> {
  return new Promise((resolve) => {
    execFile('ip', ['-j', 'neigh', 'show'], { timeout: 5000, signal, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) => {
      if (err) return resolve([]);
      try {
        const rows = JSON.parse(stdout) as { dst: string; lladdr?: string; state?: string[]; dev: string }[];
        resolve(
          rows
            .filter((r) => r.lladdr)
            .map((r) => ({ ip: r.dst, mac: (r.lladdr ?? '').toLowerCase(), state: r.state?.[0] ?? '', dev: r.dev })),
        );
      } catch {
        resolve([]);
      }
    });
  });
}

/** States of an entry that say the host answered recently. */
export const LIVE_NEIGHBOUR = new Set(['REACHABLE', 'STALE', 'DELAY', 'PROBE']);
