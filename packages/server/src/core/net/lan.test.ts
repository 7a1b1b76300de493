import { afterEach, describe, expect, it } from 'vitest';
import {
  cidrContains,
  createIpMatcher,
  formatIp,
  ipInList,
  isLanAddress,
  isLoopbackAddress,
  parseCidr,
  parseIp,
  setCgnatIsLan,
  unmapIp,
} from './lan.js';

describe('parseIp', () => {
  it('parses IPv4', () => {
    expect(parseIp('0.0.0.0')).toEqual({ family: 4, value: 0n });
    expect(parseIp('255.255.255.255')).toEqual({ family: 4, value: 0xffffffffn });
    expect(parseIp('192.168.1.2')).toEqual({ family: 4, value: 0xc0a80102n });
    expect(parseIp(' 10.0.0.1 ')).toEqual({ family: 4, value: 0x0a000001n });
  });
  it('rejects bad IPv4', () => {
    for (const s of [
      '256.1.1.1',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '1.2.3.-1',
      '1..2.3',
      'a.b.c.d',
      '',
      '1.2.3.4/24',
      '0x1.2.3.4',
    ]) {
      expect(parseIp(s), s).toBeNull();
    }
  });
  it('parses IPv6 forms', () => {
    expect(parseIp('::')).toEqual({ family: 6, value: 0n });
    expect(parseIp('::1')).toEqual({ family: 6, value: 1n });
    expect(parseIp('1::')?.value).toBe(1n << 112n);
    expect(parseIp('2001:db8::1')?.value).toBe((0x20010db8n << 96n) | 1n);
    expect(parseIp('2001:DB8:0:0:0:0:0:1')?.value).toBe((0x20010db8n << 96n) | 1n);
    expect(parseIp('::ffff:192.168.1.2')?.value).toBe((0xffffn << 32n) | 0xc0a80102n);
    expect(parseIp('::ffff:c0a8:102')?.value).toBe((0xffffn << 32n) | 0xc0a80102n);
    expect(parseIp('1:2:3:4:5:6:1.2.3.4')?.value).toBe(
      (1n << 112n) | (2n << 96n) | (3n << 80n) | (4n << 64n) | (5n << 48n) | (6n << 32n) | 0x01020304n,
    );
    expect(parseIp('fe80::1%eth0')).toEqual({ family: 6, value: (0xfe80n << 112n) | 1n });
  });
  it('rejects bad IPv6', () => {
    for (const s of [
      ':::',
      '1:::2',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8::',
      '12345::',
      'g::1',
      ':1::',
      '::1.2.3',
      '1:2:3:4:5:6:7:1.2.3.4',
      'fe80::1%',
    ]) {
      expect(parseIp(s), s).toBeNull();
    }
  });
  it('unmaps IPv4-mapped addresses only', () => {
    expect(unmapIp(parseIp('::ffff:10.1.2.3')!)).toEqual(parseIp('10.1.2.3'));
    expect(unmapIp(parseIp('::10.1.2.3')!).family).toBe(6);
    expect(unmapIp(parseIp('::fffe:10.1.2.3')!).family).toBe(6);
  });
  it('formats canonically (RFC 5952)', () => {
    const f = (s: string) => formatIp(parseIp(s)!);
    expect(f('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(f('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(f('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(f('0:0:0:0:0:0:0:0')).toBe('::');
    expect(f('::1')).toBe('::1');
    expect(f('fe80::')).toBe('fe80::');
    expect(f('1.2.3.4')).toBe('1.2.3.4');
  });
});

describe('parseCidr', () => {
  it('parses and masks', () => {
    expect(parseCidr('192.168.1.5/24')).toEqual({ family: 4, network: 0xc0a80100n, prefix: 24 });
    expect(parseCidr('10.0.0.1')).toEqual({ family: 4, network: 0x0a000001n, prefix: 32 });
    expect(parseCidr('0.0.0.0/0')).toEqual({ family: 4, network: 0n, prefix: 0 });
    expect(parseCidr('2001:db8::1/32')).toEqual({ family: 6, network: 0x20010db8n << 96n, prefix: 32 });
    expect(parseCidr('::1')).toEqual({ family: 6, network: 1n, prefix: 128 });
  });
  it('turns mapped networks into IPv4 ones', () => {
    expect(parseCidr('::ffff:10.0.0.0/104')).toEqual({ family: 4, network: 0x0a000000n, prefix: 8 });
    expect(parseCidr('::ffff:0:0/96')).toEqual({ family: 4, network: 0n, prefix: 0 });
    expect(parseCidr('::ffff:0:0/95')?.family).toBe(6);
  });
  it('rejects bad input', () => {
    for (const s of [
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/',
      '10.0.0.0/-1',
      '10.0.0.0/08',
      '10.0.0/8',
      'x/8',
      '10.0.0.0/8/8',
      '',
    ]) {
      expect(parseCidr(s), s).toBeNull();
    }
  });
});

describe('cidrContains', () => {
  it('IPv4 borders', () => {
    expect(cidrContains('172.16.0.0/12', '172.16.0.0')).toBe(true);
    expect(cidrContains('172.16.0.0/12', '172.31.255.255')).toBe(true);
    expect(cidrContains('172.16.0.0/12', '172.15.255.255')).toBe(false);
    expect(cidrContains('172.16.0.0/12', '172.32.0.0')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '8.8.8.8')).toBe(true);
    expect(cidrContains('1.2.3.4', '1.2.3.4')).toBe(true);
    expect(cidrContains('1.2.3.4/32', '1.2.3.5')).toBe(false);
    expect(cidrContains('192.168.1.200/25', '192.168.1.128')).toBe(true);
    expect(cidrContains('192.168.1.200/25', '192.168.1.127')).toBe(false);
  });
  it('IPv6 borders', () => {
    expect(cidrContains('2001:db8::/32', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(cidrContains('2001:db8::/32', '2001:db9::')).toBe(false);
    expect(cidrContains('2001:db8::/32', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff')).toBe(false);
    expect(cidrContains('::/0', '2001:db8::1')).toBe(true);
    expect(cidrContains('2001:db8::1/128', '2001:db8::1')).toBe(true);
    expect(cidrContains('2001:db8::1/127', '2001:db8::0')).toBe(true);
    expect(cidrContains('2001:db8::1/127', '2001:db8::2')).toBe(false);
  });
  it('never mixes families except mapped addresses', () => {
    expect(cidrContains('10.0.0.0/8', '::ffff:10.9.9.9')).toBe(true);
    expect(cidrContains('::ffff:10.0.0.0/104', '10.9.9.9')).toBe(true);
    expect(cidrContains('::ffff:10.0.0.0/104', '::ffff:10.9.9.9')).toBe(true);
    expect(cidrContains('10.0.0.0/8', '::a09:909')).toBe(false);
    expect(cidrContains('::/0', '1.2.3.4')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '::1')).toBe(false);
  });
  it('is false on garbage', () => {
    expect(cidrContains('bogus', '1.2.3.4')).toBe(false);
    expect(cidrContains('10.0.0.0/8', 'bogus')).toBe(false);
  });
});

describe('ipInList / createIpMatcher', () => {
  const list = ['127.0.0.1', ' 10.0.0.0/8 ', '2001:db8::/48', '', 'not-an-ip', '::ffff:192.0.2.0/120'];
  it('matches IPs and CIDRs of both families', () => {
    expect(ipInList('127.0.0.1', list)).toBe(true);
    expect(ipInList('127.0.0.2', list)).toBe(false);
    expect(ipInList('::ffff:127.0.0.1', list)).toBe(true);
    expect(ipInList('10.255.255.255', list)).toBe(true);
    expect(ipInList('11.0.0.0', list)).toBe(false);
    expect(ipInList('2001:db8:0:ffff::1', list)).toBe(true);
    expect(ipInList('2001:db8:1::1', list)).toBe(false);
    expect(ipInList('192.0.2.77', list)).toBe(true);
    expect(ipInList('192.0.3.1', list)).toBe(false);
    expect(ipInList('fe80::1%eth0', ['fe80::/64'])).toBe(true);
  });
  it('empty list and garbage', () => {
    expect(ipInList('1.2.3.4', [])).toBe(false);
    expect(ipInList('', list)).toBe(false);
    expect(ipInList('not-an-ip', list)).toBe(false);
    const m = createIpMatcher(['0.0.0.0/0']);
    expect(m('203.0.113.9')).toBe(true);
    expect(m('2001:db8::1')).toBe(false);
  });
});

describe('isLanAddress', () => {
  const yes = [
    '127.0.0.1',
    '127.255.255.255',
    '10.0.0.0',
    '10.255.255.255',
    '172.16.0.0',
    '172.31.255.255',
    '192.168.0.0',
    '192.168.255.255',
    '169.254.0.1',
    '169.254.255.255',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fc00::',
    'fd12:3456:789a::1',
    'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '::ffff:192.168.1.2',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.1.1',
    '::ffff:ac10:1', // 172.16.0.1 in hex form
    '::FFFF:C0A8:0102',
  ];
  const no = [
    '126.255.255.255',
    '128.0.0.0',
    '9.255.255.255',
    '11.0.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '8.8.8.8',
    '0.0.0.0',
    '255.255.255.255',
    '::',
    '::2',
    '2001:db8::1',
    '2400:cb00::1',
    'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fec0::1',
    'fe00::',
    'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'ff02::1',
    '::ffff:8.8.8.8',
    '::ffff:172.15.255.255',
    '::ffff:100.128.0.0',
    '::192.168.1.2', // IPv4-compatible (deprecated) is not mapped
    '64:ff9b::192.168.1.2', // NAT64 of a private address is still a public route
    '',
    'localhost',
    '192.168.1',
    '192.168.1.256',
  ];
  it.each(yes)('%s is LAN', (ip) => expect(isLanAddress(ip)).toBe(true));
  it.each(no)('%s is not LAN', (ip) => expect(isLanAddress(ip)).toBe(false));

  // Carrier-grade NAT: other subscribers of the same ISP. LAN only when the admin opts in.
  const cgnat = ['100.64.0.0', '100.64.0.1', '100.127.255.255', '::ffff:100.64.0.1', '::ffff:6440:1'];
  afterEach(() => setCgnatIsLan(false));
  it.each(cgnat)('%s (CGNAT) is not LAN by default', (ip) => expect(isLanAddress(ip)).toBe(false));
  it.each(cgnat)('%s (CGNAT) is LAN with the cgnatIsLan setting', (ip) => {
    setCgnatIsLan(true);
    expect(isLanAddress(ip)).toBe(true);
    expect(isLanAddress(ip, { cgnat: false })).toBe(false);
    expect(isLanAddress('100.128.0.0')).toBe(false);
    expect(isLanAddress('8.8.8.8')).toBe(false);
  });
  it('an explicit option overrides the setting', () => {
    expect(isLanAddress('100.100.1.1', { cgnat: true })).toBe(true);
  });
});

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])('%s is loopback', (ip) =>
    expect(isLoopbackAddress(ip)).toBe(true),
  );
  it.each(['10.0.0.1', '::', '0.0.0.0', 'fe80::1', 'localhost', ''])('%s is not loopback', (ip) =>
    expect(isLoopbackAddress(ip)).toBe(false),
  );
});
