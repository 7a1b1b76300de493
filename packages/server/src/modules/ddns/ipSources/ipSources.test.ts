// IP sources: echo URLs (fall-through, per-family connections, one fetch per round), the
// interface rule (core/net's selection), a command with a time limit, the odhcpd lease file.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClients } from '../../../core/outbound/client.js';
import { firstIp } from './extract.js';
import { getTaskIp, type IpResult } from './index.js';
import { macFromDuid, parseOdhcpdLeases, selectFromLeases } from './odhcpd.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../../test/fixtures/odhcpd.leases');

/** An echo page on the dual-stack wildcard that answers the caller's own address. */
let echo: http.Server;
let port = 0;
let hits = 0;
beforeAll(async () => {
  echo = http.createServer((req, res) => {
    hits++;
    if (req.url === '/fail') {
      res.writeHead(500).end('x');
      return;
    }
    if (req.url === '/noip') {
      res.end('hello');
      return;
    }
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/plain' }).end();
      return;
    }
    res.end(`<p>Your IP: ${req.socket.remoteAddress?.replace(/^::ffff:/, '')}</p>`);
  });
  await new Promise<void>((r) => echo.listen(0, '::', r));
  port = (echo.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => echo.close(() => r())));

// One test name with both families, so only the family option decides which one is used.
const lookup = ((host: string, opts: { family?: number; all?: boolean }, cb: (...a: unknown[]) => void) => {
  const all = [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ].filter((a) => host === 'dual.test' && (!opts.family || a.family === opts.family));
  if (all.length === 0) return cb(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
  if (opts.all) return cb(null, all);
  cb(null, all[0].address, all[0].family);
}) as never;
const clients = new HttpClients({ lookup });
afterAll(() => clients.close());
const env = (extra = {}) => ({ http: clients, timeoutMs: 2000, ...extra });
const url = (p: string, host = 'dual.test') => `http://${host}:${port}${p}`;

describe('echo URLs', () => {
  it('connect over the task’s family only', async () => {
    const v4 = await getTaskIp({ type: 'url', urls: [url('/plain')] } as never, 4, env());
    expect(v4).toMatchObject({ ok: true, ip: '127.0.0.1' });
    const v6 = await getTaskIp({ type: 'url', urls: [url('/plain')] } as never, 6, env());
    expect(v6).toMatchObject({ ok: true, ip: '::1' });
  });

  it('fall through failing URLs in order and say why when all fail', async () => {
    const r = await getTaskIp(
      { type: 'url', urls: [url('/fail'), url('/noip'), 'http://127.0.0.1:9/', url('/moved')] } as never,
      4,
      env(),
    );
    expect(r).toMatchObject({ ok: true, ip: '127.0.0.1', from: url('/moved') });
    const none = (await getTaskIp(
      { type: 'url', urls: [url('/fail'), url('/noip')] } as never,
      4,
      env(),
    )) as IpResult & { ok: false };
    expect(none).toMatchObject({ ok: false, reason: { code: 'allUrlsFailed' } });
    // Each URL's failure, in order, coded (the browser words them) and in English.
    expect(none.reason.params?.cause).toMatchObject([
      { code: 'urlHttpStatus', params: { url: url('/fail'), status: 500 } },
      { code: 'urlNoAddress', params: { url: url('/noip'), family: 4 } },
    ]);
    expect(none.reason.text).toMatch(/HTTP 500.*no IPv4 address in the answer/);
  });

  it('ask each URL once per round, shared by the tasks', async () => {
    const cache = new Map();
    const before = hits;
    await Promise.all(
      [1, 2, 3].map(() => getTaskIp({ type: 'url', urls: [url('/plain')] } as never, 4, env({ cache }))),
    );
    expect(hits - before).toBe(1);
  });

  it('find addresses in free text', () => {
    expect(firstIp('a 300.1.1.1 b 10.0.0.256 c 192.0.2.4.', 4)).toBe('192.0.2.4');
    expect(firstIp('ip=2001:DB8::1%eth0 or 2001:db8::2/64', 6)).toBe('2001:DB8::1');
    expect(firstIp('prefix 2001:db8::2/64 x', 6)).toBe('2001:db8::2');
    expect(firstIp('time 12:30:45', 6)).toBeUndefined();
  });
});

describe('network interface', () => {
  const interfaces = {
    IPv4NewInterfaces: [{ NetInterfaceName: 'wan', HardwareAddr: '', AddressList: ['198.51.100.7', '198.51.100.8'] }],
    IPv6NewInterfaces: [
      { NetInterfaceName: 'wan', HardwareAddr: '', AddressList: ['2001:db8::1', 'fd00::2', '2001:DB8:0:0::3'] },
    ],
  };
  const src = (netInterface: string, ipReg: string) => ({ type: 'netInterface', netInterface, ipReg }) as never;
  it('applies the selection rule: first, index, negative index, wildcard, regex', async () => {
    const e = env({ interfaces });
    expect(await getTaskIp(src('wan', ''), 4, e)).toMatchObject({ ip: '198.51.100.7' });
    expect(await getTaskIp(src('wan', '2'), 4, e)).toMatchObject({ ip: '198.51.100.8' });
    expect(await getTaskIp(src('wan', '-1'), 6, e)).toMatchObject({ ip: '2001:db8::3' });
    expect(await getTaskIp(src('wan', 'fd00:*'), 6, e)).toMatchObject({ ip: 'fd00::2' });
    expect(await getTaskIp(src('wan', '^2001:db8::1$'), 6, e)).toMatchObject({ ip: '2001:db8::1' });
  });
  it('names the problem: no match, unknown interface', async () => {
    const e = env({ interfaces });
    expect(await getTaskIp(src('wan', '9'), 4, e)).toMatchObject({ ok: false, reason: { code: 'ipSelectNoMatch' } });
    expect(await getTaskIp(src('eth9', ''), 4, e)).toMatchObject({
      ok: false,
      reason: { code: 'interfaceError', params: { cause: { code: 'interfaceMissing', params: { name: 'eth9' } } } },
    });
  });
});

describe('command', () => {
  const cmd = (command: string) => ({ type: 'command', command }) as never;
  it('takes the first address of the family from the output (pipes allowed)', async () => {
    expect(await getTaskIp(cmd("echo 'inet 192.0.2.44/24' | cut -d' ' -f2"), 4, env())).toMatchObject({
      ok: true,
      ip: '192.0.2.44',
    });
    expect(await getTaskIp(cmd('printf "a\\n2001:DB8:0::9/64\\n"'), 6, env())).toMatchObject({ ip: '2001:db8::9' });
  });
  it('fails with the exit code, a missing address or the time limit', async () => {
    const bad = await getTaskIp(cmd('echo boom >&2; exit 3'), 4, env());
    expect(bad).toMatchObject({ ok: false, reason: { code: 'commandFailed' } });
    expect((bad as IpResult & { ok: false }).reason.params?.cause).toEqual({
      code: 'commandExit',
      params: { exitCode: 3, detail: 'boom' },
      text: 'exit code 3: boom',
    });
    expect(await getTaskIp(cmd('echo none'), 4, env())).toMatchObject({
      ok: false,
      reason: { code: 'commandFailed', params: { cause: { code: 'commandNoAddress', params: { family: 4 } } } },
    });
    const t0 = Date.now();
    const slow = await getTaskIp(cmd('sleep 5; echo 192.0.2.1'), 4, env({ timeoutMs: 300 }));
    expect(slow).toMatchObject({
      ok: false,
      reason: { code: 'commandFailed', params: { cause: { code: 'commandTimeout' } } },
    });
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

describe('odhcpd lease file', () => {
  it('reads the leases odhcpd writes', async () => {
    const { readFile } = await import('node:fs/promises');
    const leases = parseOdhcpdLeases(await readFile(FIXTURE, 'utf8'));
    expect(leases).toHaveLength(7);
    expect(leases[0]).toMatchObject({
      family: 6,
      mac: 'a8a159c0ffee',
      hostname: 'nas',
      addresses: ['2001:db8:1::1a2b', 'fd00::1a2b'],
    });
    expect(leases[1]).toMatchObject({ family: 4, mac: 'a8a159c0ffee', addresses: ['192.168.1.100'] });
    expect(leases[6]).toMatchObject({ hostname: 'laptop', validUntil: -1, mac: 'deadbeef0001' });
    expect(macFromDuid('00030001112233445566')).toBe('112233445566');
    expect(macFromDuid('0004b1c2d3e4f5061728394a5b6c7d8e9f00')).toBe('');
  });

  const src = (o: object) =>
    ({ type: 'odhcpd', odhcpdFile: FIXTURE, odhcpdMacs: [], odhcpdHostnames: [], ipReg: '', ...o }) as never;
  it('finds a device by MAC (from its DUID) or host name, global address first', async () => {
    const e = env({ now: () => 1_800_000_000_000 });
    expect(await getTaskIp(src({ odhcpdMacs: ['A8:A1:59:C0:FF:EE'] }), 6, e)).toMatchObject({ ip: '2001:db8:1::1a2b' });
    expect(await getTaskIp(src({ odhcpdMacs: ['a8-a1-59-c0-ff-ee'] }), 4, e)).toMatchObject({ ip: '192.168.1.100' });
    expect(await getTaskIp(src({ odhcpdHostnames: ['TV'] }), 6, e)).toMatchObject({ ip: '2001:db8:1::77' });
    expect(await getTaskIp(src({ odhcpdMacs: ['11:22:33:44:55:66'] }), 6, e)).toMatchObject({ ip: '2001:db8:1::88' });
    expect(await getTaskIp(src({ odhcpdMacs: ['11:22:33:44:55:66'], ipReg: 'fd00*' }), 6, e)).toMatchObject({
      ip: 'fd00::88',
    });
    expect(await getTaskIp(src({ odhcpdHostnames: ['laptop'] }), 6, e)).toMatchObject({ ip: '2001:db8:1::55' });
  });
  it('skips expired leases and says so; a missing file is its own error', async () => {
    const e = env({ now: () => 1_800_000_000_000 });
    expect(await getTaskIp(src({ odhcpdHostnames: ['old-phone'] }), 6, e)).toMatchObject({
      ok: false,
      reason: { code: 'odhcpdNoLease', params: { family: 6 } },
    });
    expect(await getTaskIp(src({ odhcpdFile: '/nonexistent/odhcpd', odhcpdHostnames: ['nas'] }), 6, e)).toMatchObject({
      ok: false,
      reason: { code: 'odhcpdReadError', params: { file: '/nonexistent/odhcpd', detail: 'ENOENT' } },
    });
    expect(selectFromLeases([], { macs: [], hostnames: ['x'], rule: '', family: 4, nowSec: 0 })).toMatchObject({
      ok: false,
    });
  });
});
