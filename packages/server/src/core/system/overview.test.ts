import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOverviewSampler, parseMeminfo, parseProcNetDev, parseSockstat } from './overview.js';

const MEMINFO = `MemTotal:        8052720 kB
MemFree:          391508 kB
MemAvailable:    5170084 kB
Buffers:          215392 kB
Cached:          4415636 kB
HugePages_Total:       0
Hugepagesize:       2048 kB
Active(anon):     123456 kB
`;

const NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo: 1234567    8901    0    0    0     0          0         0  1234567    8901    0    0    0     0       0          0
  eth0: 98765432109 7654321 1 2 0 0 0 3 12345678901 2345678 0 0 0 0 0 0
wlan0:0 0 0 0 0 0 0 0 42 1 0 0 0 0 0 0
 bad: 1 2 3
`;

const SOCKSTAT = `sockets: used 10
TCP: inuse 3 orphan 0 tw 70129 alloc 5 mem 1
UDP: inuse 2 mem 0
UDPLITE: inuse 0
`;
const SOCKSTAT6 = `TCP6: inuse 1
UDP6: inuse 4
UDPLITE6: inuse 0
`;

describe('parseMeminfo', () => {
  it('parses kB values to bytes and unitless values as is', () => {
    const m = parseMeminfo(MEMINFO);
    expect(m.MemTotal).toBe(8052720 * 1024);
    expect(m.MemAvailable).toBe(5170084 * 1024);
    expect(m.HugePages_Total).toBe(0);
    expect(m['Active(anon)']).toBe(123456 * 1024);
  });
  it('ignores garbage', () => {
    expect(parseMeminfo('nonsense\n\nX: abc kB')).toEqual({});
  });
});

describe('parseProcNetDev', () => {
  it('parses counters and skips headers and bad lines', () => {
    const d = parseProcNetDev(NET_DEV);
    expect(d.map((x) => x.name)).toEqual(['lo', 'eth0', 'wlan0']);
    expect(d[0]).toEqual({ name: 'lo', rxBytes: 1234567, rxPackets: 8901, txBytes: 1234567, txPackets: 8901 });
    expect(d[1]).toEqual({
      name: 'eth0',
      rxBytes: 98765432109,
      rxPackets: 7654321,
      txBytes: 12345678901,
      txPackets: 2345678,
    });
    expect(d[2]).toMatchObject({ name: 'wlan0', rxBytes: 0, txBytes: 42 });
  });
});

describe('parseSockstat', () => {
  it('adds IPv4 and IPv6 sockets in use and reads TIME_WAIT', () => {
    expect(parseSockstat(`${SOCKSTAT}${SOCKSTAT6}`)).toEqual({ tcpInUse: 4, tcpTimeWait: 70129, udpInUse: 6 });
  });
  it('missing lines count as 0', () => {
    expect(parseSockstat('garbage')).toEqual({ tcpInUse: 0, tcpTimeWait: 0, udpInUse: 0 });
  });
});

describe('createOverviewSampler', () => {
  it('reads a fake /proc', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lucky-proc-'));
    try {
      mkdirSync(join(root, 'net'));
      writeFileSync(join(root, 'meminfo'), MEMINFO);
      writeFileSync(join(root, 'net/dev'), NET_DEV);
      writeFileSync(join(root, 'net/sockstat'), SOCKSTAT);
      writeFileSync(join(root, 'net/sockstat6'), SOCKSTAT6);
      const o = await createOverviewSampler({ procRoot: root, platform: 'linux', firstWindowMs: 10 }).sample();
      expect(o.memory).toEqual({
        total: 8052720 * 1024,
        used: (8052720 - 5170084) * 1024,
        free: 5170084 * 1024,
        percent: 35.8,
      });
      expect(o.connections).toEqual({ tcp: 4, udp: 6 });
      expect(o.interfaces.find((i) => i.name === 'eth0')?.rxBytes).toBe(98765432109);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('non-Linux: no /proc, 0 sockets', async () => {
    const o = await createOverviewSampler({ platform: 'darwin', firstWindowMs: 10 }).sample();
    expect(o.connections).toEqual({ tcp: 0, udp: 0 });
    expect(o.memory.total).toBeGreaterThan(0);
    expect(o.interfaces.every((i) => i.rxBytes === 0)).toBe(true);
  });

  it('samples this machine twice with sane values', async () => {
    const sampler = createOverviewSampler();
    const t0 = Date.now();
    const [a, a2] = await Promise.all([sampler.sample(), sampler.sample()]);
    expect(Date.now() - t0).toBeLessThan(900);
    // Real time between the samples is the input here: the next call measures the CPU over it.
    await new Promise((r) => setTimeout(r, 120));
    const t1 = Date.now();
    const b = await sampler.sample();
    expect(Date.now() - t1).toBeLessThan(90); // no measuring window after the first call
    for (const o of [a, a2, b]) {
      expect(o.cpu.percent).toBeGreaterThanOrEqual(0);
      expect(o.cpu.percent).toBeLessThanOrEqual(100);
      expect(o.cpu.cores).toBeGreaterThanOrEqual(1);
      expect(typeof o.cpu.model).toBe('string');
      expect(o.memory.total).toBeGreaterThan(0);
      expect(o.memory.used).toBeGreaterThan(0);
      expect(o.memory.used + o.memory.free).toBe(o.memory.total);
      expect(o.memory.percent).toBeGreaterThan(0);
      expect(o.memory.percent).toBeLessThanOrEqual(100);
      expect(o.load).toHaveLength(3);
      for (const l of o.load) expect(l).toBeGreaterThanOrEqual(0);
      expect(o.uptime.system).toBeGreaterThan(0);
      expect(o.uptime.process).toBeGreaterThanOrEqual(0);
      expect(o.process.pid).toBe(process.pid);
      expect(o.process.nodeVersion).toBe(process.version);
      expect(o.process.rss).toBeGreaterThan(o.process.heapUsed / 2);
      expect(o.connections.tcp).toBeGreaterThanOrEqual(0);
      expect(o.connections.udp).toBeGreaterThanOrEqual(0);
      const lo = o.interfaces.find((i) => i.name === 'lo');
      expect(lo).toBeDefined();
      expect(lo?.rxBytes).toBeGreaterThanOrEqual(0);
      expect(lo?.txBytes).toBeGreaterThanOrEqual(0);
      expect(
        lo?.addresses.some((x) => x.address === '127.0.0.1' && x.family === 'IPv4' && x.cidr === '127.0.0.1/8'),
      ).toBe(true);
    }
    if (existsSync('/proc/net/dev')) {
      expect(b.interfaces.find((i) => i.name === 'lo')?.rxBytes).toBeGreaterThanOrEqual(
        a.interfaces.find((i) => i.name === 'lo')?.rxBytes ?? 0,
      );
    }
  });

  it('counts a real established TCP connection', async () => {
    if (!existsSync('/proc/net/sockstat')) throw new Error('this test needs Linux /proc');
    const net = await import('node:net');
    const server = net.createServer(() => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const sampler = createOverviewSampler({ firstWindowMs: 10 });
    const sock = net.connect(port, '127.0.0.1');
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const after = (await sampler.sample()).connections.tcp;
    sock.destroy();
    server.close();
    // the listener and both ends of the loopback connection are sockets in use
    expect(after).toBeGreaterThanOrEqual(3);
  });
});
