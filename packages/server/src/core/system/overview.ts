// Machine overview for /api/status: CPU, memory, load, uptime, process, sockets, interfaces.
// Linux numbers come from /proc; elsewhere node:os values (and 0 sockets) are used.
import { readFile } from 'node:fs/promises';
import os from 'node:os';

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

/**
 * /proc/net/sockstat and sockstat6 → socket totals. O(1) however many sockets
 * exist; /proc/net/tcp lists every socket and is megabytes on a busy box.
 */
export function parseSockstat(text: string): { tcpInUse: number; tcpTimeWait: number; udpInUse: number } {
  const field = (proto: string, name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${proto}:`));
    const m = line ? new RegExp(`\\b${name} (\\d+)`).exec(line) : null;
    return m ? Number(m[1]) : 0;
  };
  return {
    tcpInUse: field('TCP', 'inuse') + field('TCP6', 'inuse'),
    tcpTimeWait: field('TCP', 'tw'),
    udpInUse: field('UDP', 'inuse') + field('UDP6', 'inuse'),
  };
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
    const [v4, v6] = await Promise.all([readText(`${procRoot}/net/sockstat`), readText(`${procRoot}/net/sockstat6`)]);
    const totals = parseSockstat(`${v4 ?? ''}\n${v6 ?? ''}`);
    return { tcp: totals.tcpInUse, udp: totals.udpInUse };
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
