import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type os from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interfaceIsUp, ipv6Flags, listNetInterfaces, parseIfInet6 } from './interfaces.js';

type Info = os.NetworkInterfaceInfo;
const v4 = (address: string, mac: string, internal = false): Info => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac,
  internal,
  cidr: `${address}/24`,
});
const v6 = (address: string, mac: string, internal = false): Info => ({
  address,
  netmask: 'ffff:ffff:ffff:ffff::',
  family: 'IPv6',
  mac,
  internal,
  cidr: `${address}/64`,
  scopeid: 0,
});

const fixture = {
  lo: [v4('127.0.0.1', '00:00:00:00:00:00', true), v6('::1', '00:00:00:00:00:00', true)],
  eth0: [
    v4('192.168.1.10', '52:54:00:aa:bb:cc'),
    v4('192.168.1.11', '52:54:00:aa:bb:cc'),
    v6('240e:1::10', '52:54:00:aa:bb:cc'),
    v6('fe80::5054:ff:feaa:bbcc', '52:54:00:aa:bb:cc'),
    v6('fd00::10', '52:54:00:aa:bb:cc'),
  ],
  wg0: [v4('10.8.0.1', '00:00:00:00:00:00')],
  veth1: [v6('fe80::1', 'de:ad:be:ef:00:01')],
  apipa: [v4('169.254.3.4', '02:00:00:00:00:01')],
  down0: [v4('192.168.9.1', '02:00:00:00:00:02')],
  empty: [],
} satisfies NodeJS.Dict<Info[]>;

const source = () => fixture;
const isUp = (n: string) => n !== 'down0';

describe('listNetInterfaces', () => {
  it('default filtering (ancestor shape)', () => {
    const r = listNetInterfaces({ source, isUp });
    expect(r.IPv4NewInterfaces).toEqual([
      { NetInterfaceName: 'eth0', HardwareAddr: '52:54:00:aa:bb:cc', AddressList: ['192.168.1.10', '192.168.1.11'] },
      { NetInterfaceName: 'wg0', HardwareAddr: '', AddressList: ['10.8.0.1'] },
    ]);
    expect(r.IPv6NewInterfaces).toEqual([
      { NetInterfaceName: 'eth0', HardwareAddr: '', AddressList: ['240e:1::10', 'fd00::10'] },
    ]);
  });
  it('includeLinkLocal and includeLoopback', () => {
    const r = listNetInterfaces({ source, isUp, includeLinkLocal: true, includeLoopback: true });
    expect(r.IPv6NewInterfaces.map((i) => [i.NetInterfaceName, i.AddressList])).toEqual([
      ['lo', ['::1']],
      ['eth0', ['240e:1::10', 'fe80::5054:ff:feaa:bbcc', 'fd00::10']],
      ['veth1', ['fe80::1']],
    ]);
    expect(r.IPv4NewInterfaces.map((i) => i.NetInterfaceName)).toEqual(['lo', 'eth0', 'wg0', 'apipa']);
    expect(r.IPv6NewInterfaces.every((i) => i.HardwareAddr === '')).toBe(true);
  });
  it('upOnly can be switched off', () => {
    const r = listNetInterfaces({ source, isUp, upOnly: false });
    expect(r.IPv4NewInterfaces.map((i) => i.NetInterfaceName)).toContain('down0');
  });
  it('runs on this machine', () => {
    const r = listNetInterfaces({ includeLoopback: true });
    const lo = r.IPv4NewInterfaces.find((i) => i.NetInterfaceName === 'lo');
    expect(lo?.AddressList).toContain('127.0.0.1');
    for (const i of r.IPv6NewInterfaces) expect(i.HardwareAddr).toBe('');
  });
});

describe('interfaceIsUp', () => {
  it('reads IFF_UP from sysfs', () => {
    const root = mkdtempSync(join(tmpdir(), 'lucky-sys-'));
    try {
      mkdirSync(join(root, 'class/net/a'), { recursive: true });
      mkdirSync(join(root, 'class/net/b'), { recursive: true });
      writeFileSync(join(root, 'class/net/a/flags'), '0x1003\n');
      writeFileSync(join(root, 'class/net/b/flags'), '0x1002\n');
      expect(interfaceIsUp('a', root)).toBe(true);
      expect(interfaceIsUp('b', root)).toBe(false);
      expect(interfaceIsUp('missing', root)).toBe(true);
      expect(interfaceIsUp('../x', root)).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

const IF_INET6 = `00000000000000000000000000000001 01 80 10 80       lo
fe800000000000005054fffeaabbcc00 02 40 20 80     eth0
240e0001000200030000000000000010 02 40 00 00     eth0
240e00010002000312345678abcdef01 02 40 00 01     eth0
240e0001000200039999999999999999 02 40 00 21     eth0
fd000000000000000000000000000010 02 40 00 c0     eth0
20010db8000000000000000000000001 03 80 00 88      wg0
garbage line
`;

describe('parseIfInet6', () => {
  const r = parseIfInet6(IF_INET6);
  it('parses every valid line', () => {
    expect(r).toHaveLength(7);
    expect(r[0]).toMatchObject({
      address: '::1',
      ifname: 'lo',
      ifindex: 1,
      prefixLength: 128,
      scope: 'host',
      permanent: true,
    });
    expect(r[1]).toMatchObject({
      address: 'fe80::5054:fffe:aabb:cc00',
      scope: 'link',
      ifname: 'eth0',
      prefixLength: 64,
    });
  });
  it('decodes flags', () => {
    expect(r[2]).toMatchObject({
      address: '240e:1:2:3::10',
      scope: 'global',
      temporary: false,
      deprecated: false,
      tentative: false,
      permanent: false,
    });
    expect(r[3]).toMatchObject({ address: '240e:1:2:3:1234:5678:abcd:ef01', temporary: true, deprecated: false });
    expect(r[4]).toMatchObject({ temporary: true, deprecated: true, flags: 0x21 });
    expect(r[5]).toMatchObject({ address: 'fd00::10', tentative: true, permanent: true, dadFailed: false });
    expect(r[6]).toMatchObject({ address: '2001:db8::1', ifname: 'wg0', ifindex: 3, dadFailed: true, permanent: true });
  });
  it('reads the real file or returns []', async () => {
    const list = await ipv6Flags();
    expect(Array.isArray(list)).toBe(true);
    expect(await ipv6Flags('/nonexistent/if_inet6')).toEqual([]);
  });
});
