import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  countProcNetSockets,
  createOverviewSampler,
  parseMeminfo,
  parseProcNetDev,
  parseProcNetTcp,
  TCP_ESTABLISHED,
  TCP_LISTEN,
} from './overview.js';

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

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:4101 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 12345 1 0000000000000000 100 0 0 10 0
   1: 0100007F:4101 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 12346 1 0000000000000000 20 4 30 10 -1
   2: 0A01A8C0:0016 6401A8C0:D431 01 00000000:00000000 02:000A7B4D 00000000     0        0 12347 2 0000000000000000 20 4 31 10 -1
   3: 0A01A8C0:0050 6401A8C0:D432 06 00000000:00000000 03:00000ED1 00000000     0        0 0 3 0000000000000000
`;

const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:4101 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 22345 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000001000000:4101 00000000000000000000000001000000:C351 01 00000000:00000000 00:00000000 00000000     0        0 22346 1 0000000000000000 20 4 30 10 -1
   2: B80D0120000000000000000001000000:01BB 0000000000000000FFFF000064C8A8C0:E001 01 00000000:00000000 00:00000000 00000000     0        0 22347 1 0000000000000000 20 4 30 10 -1
`;

const UDP = `   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  123: 00000000:0044 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 3456 2 0000000000000000 0
  456: 0100007F:0035 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 3457 2 0000000000000000 0
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

describe('parseProcNetTcp', () => {
  it('decodes IPv4 sockets', () => {
    const s = parseProcNetTcp(TCP);
    expect(s).toHaveLength(4);
    expect(s[0]).toEqual({
      localAddress: '127.0.0.1',
      localPort: 16641,
      remoteAddress: '0.0.0.0',
      remotePort: 0,
      state: TCP_LISTEN,
    });
    expect(s[1]).toMatchObject({
      localPort: 0x4101,
      remoteAddress: '127.0.0.1',
      remotePort: 50000,
      state: TCP_ESTABLISHED,
    });
    expect(s[2]).toMatchObject({
      localAddress: '192.168.1.10',
      localPort: 22,
      remoteAddress: '192.168.1.100',
      state: 1,
    });
    expect(s[3].state).toBe(6);
  });
  it('decodes IPv6 sockets including mapped addresses', () => {
    const s = parseProcNetTcp(TCP6);
    expect(s).toHaveLength(3);
    expect(s[0]).toMatchObject({ localAddress: '::', state: TCP_LISTEN });
    expect(s[1]).toMatchObject({ localAddress: '::1', remoteAddress: '::1', remotePort: 0xc351, state: 1 });
    expect(s[2]).toMatchObject({
      localAddress: '2001:db8::1',
      localPort: 443,
      remoteAddress: '::ffff:c0a8:c864',
      remotePort: 0xe001,
    });
  });
  it('counts', () => {
    expect(countProcNetSockets(TCP, TCP_ESTABLISHED)).toBe(2);
    expect(countProcNetSockets(TCP6, TCP_ESTABLISHED)).toBe(2);
    expect(countProcNetSockets(TCP)).toBe(4);
    expect(countProcNetSockets(UDP)).toBe(2);
    expect(countProcNetSockets('')).toBe(0);
  });
});

describe('createOverviewSampler', () => {
  it('reads a fake /proc', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lucky-proc-'));
    try {
      mkdirSync(join(root, 'net'));
      writeFileSync(join(root, 'meminfo'), MEMINFO);
      writeFileSync(join(root, 'net/dev'), NET_DEV);
      writeFileSync(join(root, 'net/tcp'), TCP);
      writeFileSync(join(root, 'net/tcp6'), TCP6);
      writeFileSync(join(root, 'net/udp'), UDP);
      const o = await createOverviewSampler({ procRoot: root, platform: 'linux', firstWindowMs: 10 }).sample();
      expect(o.memory).toEqual({
        total: 8052720 * 1024,
        used: (8052720 - 5170084) * 1024,
        free: 5170084 * 1024,
        percent: 35.8,
      });
      expect(o.connections).toEqual({ tcp: 4, udp: 2 });
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
    if (!existsSync('/proc/net/tcp')) return;
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
    // both ends of the loopback connection are ESTABLISHED sockets
    expect(after).toBeGreaterThanOrEqual(2);
  });
});
