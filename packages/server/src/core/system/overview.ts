// Machine overview for /api/status: CPU, memory, load, uptime, process, sockets, interfaces.
// Linux numbers come from /proc; elsewhere node:os values (and 0 sockets) are used.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { formatIp } from '../net/lan.js';

export interface OverviewAddress {
  address: string;
  family: 'IPv4' | 'IPv6';
  cidr: string | null;
}

export interface OverviewInterface {
  name: string;
  mac: string;
  addresses: OverviewAddress[];
  /** Counters since boot from /proc/net/dev (0 where unavailable). */
  rxBytes: number;
  txBytes: number;
}

export interface Overview {
  cpu: { percent: number; cores: number; model: string };
  /** Bytes. `used` = total − MemAvailable on Linux; `free` = total − used. */
  memory: { total: number; used: number; free: number; percent: number };
  load: [number, number, number];
  /** Seconds. */
  uptime: { system: number; process: number };
  process: { rss: number; heapUsed: number; heapTotal: number; pid: number; nodeVersion: string };
  connections: { tcp: number; udp: number };
  interfaces: OverviewInterface[];
}

export interface OverviewSampler {
  sample(): Promise<Overview>;
}

export interface OverviewSamplerOptions {
  /** Default '/proc'. */
  procRoot?: string;
  /** Default '/sys' (MAC of interfaces that have no address). */
  sysRoot?: string;
  /** Default process.platform; /proc is read only on 'linux'. */
  platform?: NodeJS.Platform;
  /** CPU measuring window of the first sample, ms. Default 100. */
  firstWindowMs?: number;
}

// ---- /proc parsers (pure) -------------------------------------------------------------------

/** /proc/meminfo → values in bytes (the "kB" unit is KiB). */
export function parseMeminfo(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([\w()]+):\s+(\d+)(?:\s+(kB))?\s*$/.exec(line);
    if (m) out[m[1]] = Number(m[2]) * (m[3] ? 1024 : 1);
  }
  return out;
}

export interface NetDevCounters {
  name: string;
  rxBytes: number;
  rxPackets: number;
  txBytes: number;
  txPackets: number;
}

/** /proc/net/dev: two header lines, then `name: rx(8 fields) tx(8 fields)`. */
export function parseProcNetDev(text: string): NetDevCounters[] {
  const out: NetDevCounters[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.includes('|')) continue;
    const name = line.slice(0, colon).trim();
    const f = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    if (!name || f.length < 16 || f.some((n) => Number.isNaN(n))) continue;
    out.push({ name, rxBytes: f[0], rxPackets: f[1], txBytes: f[8], txPackets: f[9] });
  }
  return out;
}

export interface ProcNetSocket {
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
  /** Kernel state number: TCP 1 = ESTABLISHED, 10 = LISTEN; UDP 7 = unconnected, 1 = connected. */
  state: number;
}

export const TCP_ESTABLISHED = 0x01;
export const TCP_LISTEN = 0x0a;

/** Kernel hex address: IPv4 = one little-endian u32; IPv6 = four little-endian u32 words. */
function decodeProcAddress(hex: string): string {
  const words: bigint[] = [];
  for (let i = 0; i < hex.length; i += 8) {
    const w = hex.slice(i, i + 8);
    // little-endian bytes within each 32-bit word
    words.push(BigInt(`0x${w.slice(6, 8)}${w.slice(4, 6)}${w.slice(2, 4)}${w.slice(0, 2)}`));
  }
  if (words.length === 1) return formatIp({ family: 4, value: words[0] });
  return formatIp({ family: 6, value: words.reduce((acc, w) => (acc << 32n) | w, 0n) });
}

const SOCKET_LINE =
  /^\s*\d+:\s+([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})\s+([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})\s+([0-9A-Fa-f]{2})\s/;

/** /proc/net/{tcp,tcp6,udp,udp6} → sockets (the header line and malformed lines are skipped). */
export function parseProcNetTcp(text: string): ProcNetSocket[] {
  const out: ProcNetSocket[] = [];
  for (const line of text.split('\n')) {
    const m = SOCKET_LINE.exec(line);
    if (!m) continue;
    out.push({
      localAddress: decodeProcAddress(m[1]),
      localPort: Number.parseInt(m[2], 16),
      remoteAddress: decodeProcAddress(m[3]),
      remotePort: Number.parseInt(m[4], 16),
      state: Number.parseInt(m[5], 16),
    });
  }
  return out;
}

/** Fast count of socket lines, optionally only those in `state` (no address decoding). */
export function countProcNetSockets(text: string, state?: number): number {
  let n = 0;
  for (const line of text.split('\n')) {
    const m = SOCKET_LINE.exec(line);
    if (m && (state === undefined || Number.parseInt(m[5], 16) === state)) n++;
  }
  return n;
}

// ---- sampler ----------------------------------------------------------------------------------

interface CpuSnapshot {
  idle: number;
  total: number;
  at: number;
}

function cpuSnapshot(): CpuSnapshot {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total, at: Date.now() };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const clampPct = (n: number) => round1(Math.min(100, Math.max(0, n)));

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

export function createOverviewSampler(options: OverviewSamplerOptions = {}): OverviewSampler {
  const procRoot = options.procRoot ?? '/proc';
  const sysRoot = options.sysRoot ?? '/sys';
  const linux = (options.platform ?? process.platform) === 'linux';
  const firstWindowMs = options.firstWindowMs ?? 100;
  let prev: CpuSnapshot | null = null;
  let warmup: Promise<void> | null = null;
  let lastPercent = 0;

  async function cpuPercent(): Promise<number> {
    if (!prev || warmup) {
      // First sample: measure over a short window (concurrent first callers share it).
      warmup ??= (async () => {
        prev = cpuSnapshot();
        await new Promise((r) => setTimeout(r, firstWindowMs));
      })();
      await warmup;
      warmup = null;
    }
    if (!prev) return lastPercent;
    const now = cpuSnapshot();
    const dTotal = now.total - prev.total;
    // Too short a gap (two polls back to back) gives noise: answer the last value and keep the
    // older snapshot so the next call measures a longer window.
    if (dTotal <= 0 || now.at - prev.at < 50) return lastPercent;
    lastPercent = clampPct((1 - (now.idle - prev.idle) / dTotal) * 100);
    prev = now;
    return lastPercent;
  }

  async function memory(): Promise<Overview['memory']> {
    let total = os.totalmem();
    let available = os.freemem();
    if (linux) {
      const text = await readText(`${procRoot}/meminfo`);
      const mi = text ? parseMeminfo(text) : {};
      if (mi.MemTotal > 0) total = mi.MemTotal;
      if (mi.MemAvailable !== undefined) available = mi.MemAvailable;
      else if (mi.MemFree !== undefined) available = mi.MemFree + (mi.Buffers ?? 0) + (mi.Cached ?? 0);
    }
    const used = Math.max(0, total - available);
    return { total, used, free: total - used, percent: total > 0 ? clampPct((used / total) * 100) : 0 };
  }

  async function connections(): Promise<Overview['connections']> {
    if (!linux) return { tcp: 0, udp: 0 };
    const [t4, t6, u4, u6] = await Promise.all(
      ['tcp', 'tcp6', 'udp', 'udp6'].map((f) => readText(`${procRoot}/net/${f}`)),
    );
    const count = (t: string | null, state?: number) => (t ? countProcNetSockets(t, state) : 0);
    return {
      tcp: count(t4, TCP_ESTABLISHED) + count(t6, TCP_ESTABLISHED),
      udp: count(u4) + count(u6),
    };
  }

  async function interfaces(): Promise<OverviewInterface[]> {
    const counters = new Map<string, NetDevCounters>();
    if (linux) {
      const text = await readText(`${procRoot}/net/dev`);
      for (const c of text ? parseProcNetDev(text) : []) counters.set(c.name, c);
    }
    const out: OverviewInterface[] = [];
    for (const [name, infos] of Object.entries(os.networkInterfaces())) {
      if (!infos) continue;
      const c = counters.get(name);
      counters.delete(name);
      out.push({
        name,
        mac: infos[0]?.mac ?? '',
        addresses: infos.map((i) => ({
          address: i.address,
          family: String(i.family) === '4' || i.family === 'IPv4' ? 'IPv4' : 'IPv6',
          cidr: i.cidr,
        })),
        rxBytes: c?.rxBytes ?? 0,
        txBytes: c?.txBytes ?? 0,
      });
    }
    // Interfaces without any address (bridge ports, down links) still carry traffic.
    for (const c of counters.values()) {
      const mac = /^[\w.-]+$/.test(c.name) ? await readText(`${sysRoot}/class/net/${c.name}/address`) : null;
      out.push({ name: c.name, mac: mac?.trim() ?? '', addresses: [], rxBytes: c.rxBytes, txBytes: c.txBytes });
    }
    return out;
  }

  return {
    async sample(): Promise<Overview> {
      const [percent, mem, conns, ifs] = await Promise.all([cpuPercent(), memory(), connections(), interfaces()]);
      const cpus = os.cpus();
      const la = os.loadavg();
      const mu = process.memoryUsage();
      return {
        cpu: { percent, cores: cpus.length || os.availableParallelism(), model: cpus[0]?.model?.trim() ?? '' },
        memory: mem,
        load: [round2(la[0]), round2(la[1]), round2(la[2])],
        uptime: { system: Math.floor(os.uptime()), process: Math.floor(process.uptime()) },
        process: {
          rss: mu.rss,
          heapUsed: mu.heapUsed,
          heapTotal: mu.heapTotal,
          pid: process.pid,
          nodeVersion: process.version,
        },
        connections: conns,
        interfaces: ifs,
      };
    },
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
