import { describe, expect, it } from 'vitest';
import type { NetInterfaces } from './interfaces.js';
import { ipregTest, NO_MATCH, selectIp, wildcardToRegExp } from './ipSelect.js';

const v6 = ['240e:1:2:3::10', '240e:1:2:3:aaaa:bbbb:cccc:dddd', 'fd00::5', '2001:db8::abcd'];
const v4 = ['192.168.1.10', '10.0.0.2', '100.64.3.4'];

describe('selectIp', () => {
  it('empty rule → first address', () => {
    expect(selectIp(v4, '')).toEqual({ ip: '192.168.1.10' });
    expect(selectIp(v4, '   ')).toEqual({ ip: '192.168.1.10' });
    expect(selectIp([], '')).toEqual({ error: NO_MATCH });
  });
  it('n-th address, 1-based', () => {
    expect(selectIp(v4, '1')).toEqual({ ip: '192.168.1.10' });
    expect(selectIp(v4, '2')).toEqual({ ip: '10.0.0.2' });
    expect(selectIp(v4, '3')).toEqual({ ip: '100.64.3.4' });
    expect(selectIp(v4, '+2')).toEqual({ ip: '10.0.0.2' });
    expect(selectIp(v4, ' 2 ')).toEqual({ ip: '10.0.0.2' });
    expect(selectIp(v4, '4')).toEqual({ error: NO_MATCH });
    expect(selectIp(v4, '0')).toEqual({ error: NO_MATCH });
    expect(selectIp(v4, '99999999999999999999')).toEqual({ error: NO_MATCH });
  });
  it('negative index counts from the end', () => {
    expect(selectIp(v4, '-1')).toEqual({ ip: '100.64.3.4' });
    expect(selectIp(v4, '-3')).toEqual({ ip: '192.168.1.10' });
    expect(selectIp(v4, '-4')).toEqual({ error: NO_MATCH });
    expect(selectIp(v6, '-2')).toEqual({ ip: 'fd00::5' });
    expect(selectIp([], '-1')).toEqual({ error: NO_MATCH });
  });
  it('wildcard: only * is special, whole-address match', () => {
    expect(selectIp(v6, '240e:*')).toEqual({ ip: '240e:1:2:3::10' });
    expect(selectIp(v6, '*:dddd')).toEqual({ ip: '240e:1:2:3:aaaa:bbbb:cccc:dddd' });
    expect(selectIp(v6, '*::abcd')).toEqual({ ip: '2001:db8::abcd' });
    expect(selectIp(v6, '240E:*:DDDD')).toEqual({ ip: '240e:1:2:3:aaaa:bbbb:cccc:dddd' });
    expect(selectIp(v6, 'fd00*')).toEqual({ ip: 'fd00::5' });
    expect(selectIp(v6, '*')).toEqual({ ip: '240e:1:2:3::10' });
    // whole-string: "240e*" must not match something that merely contains it
    expect(selectIp(['2001:240e::1'], '240e*')).toEqual({ error: NO_MATCH });
    // dots are literal in a wildcard, not "any character"
    expect(selectIp(['192x168x1x10'], '192.168.*')).toEqual({ error: NO_MATCH });
    expect(selectIp(v4, '192.168.*')).toEqual({ ip: '192.168.1.10' });
    expect(selectIp(v4, '10.0.*.2')).toEqual({ ip: '10.0.0.2' });
    // regex characters stay literal
    expect(selectIp(['a+b(1)'], 'a+b(*)')).toEqual({ ip: 'a+b(1)' });
    expect(selectIp(v4, '172.*')).toEqual({ error: NO_MATCH });
  });
  it('regular expressions', () => {
    expect(selectIp(v6, '^240e')).toEqual({ ip: '240e:1:2:3::10' });
    expect(selectIp(v6, 'dddd$')).toEqual({ ip: '240e:1:2:3:aaaa:bbbb:cccc:dddd' });
    expect(selectIp(v6, '^fd')).toEqual({ ip: 'fd00::5' });
    expect(selectIp(v4, '^10\\.')).toEqual({ ip: '10.0.0.2' });
    expect(selectIp(v4, '^100\\.(6[4-9]|[7-9]\\d|1[01]\\d|12[0-7])\\.')).toEqual({ ip: '100.64.3.4' });
    expect(selectIp(v4, '0\\.0')).toEqual({ ip: '10.0.0.2' });
    expect(selectIp(v4, '^172\\.')).toEqual({ error: NO_MATCH });
  });
  it('invalid regex → error naming it', () => {
    const r = selectIp(v4, '([a-');
    expect('error' in r && r.error).toMatch(/invalid regular expression "\(\[a-"/);
    const r2 = selectIp(v4, '?');
    expect('error' in r2 && r2.error).toMatch(/invalid regular expression "\?"/);
  });
  it('wildcardToRegExp', () => {
    expect(wildcardToRegExp('a.b*').source).toBe('^a\\.b.*$');
    expect(wildcardToRegExp('*/x').test('abc/x')).toBe(true);
  });
});

describe('ipregTest', () => {
  const interfaces: NetInterfaces = {
    IPv4NewInterfaces: [
      { NetInterfaceName: 'eth0', HardwareAddr: '52:54:00:12:34:56', AddressList: v4 },
      { NetInterfaceName: 'wg0', HardwareAddr: '', AddressList: ['10.8.0.1'] },
    ],
    IPv6NewInterfaces: [{ NetInterfaceName: 'eth0', HardwareAddr: '', AddressList: v6 }],
  };
  it('selects per family', () => {
    expect(ipregTest('IPv4', 'eth0', '2', { interfaces })).toEqual({ ip: '10.0.0.2' });
    expect(ipregTest('IPv6', 'eth0', '240e:*:dddd', { interfaces })).toEqual({ ip: '240e:1:2:3:aaaa:bbbb:cccc:dddd' });
    expect(ipregTest('IPv4', 'wg0', '', { interfaces })).toEqual({ ip: '10.8.0.1' });
  });
  it('unknown interface or family without addresses → clear error', () => {
    const r = ipregTest('IPv4', 'eth9', '', { interfaces });
    expect('error' in r && r.error).toMatch(/network interface "eth9" not found/);
    const r2 = ipregTest('IPv6', 'wg0', '', { interfaces });
    expect('error' in r2 && r2.error).toMatch(/"wg0".*IPv6/);
    const r3 = ipregTest('IPv4', '', '', { interfaces });
    expect('error' in r3).toBe(true);
  });
  it('bad iptype', () => {
    const r = ipregTest('IPv5' as 'IPv4', 'eth0', '', { interfaces });
    expect('error' in r && r.error).toMatch(/iptype/);
  });
  it('passes rule errors through', () => {
    expect(ipregTest('IPv4', 'eth0', '9', { interfaces })).toEqual({ error: NO_MATCH });
  });
  it('works on this machine (lo with loopback included)', () => {
    const r = ipregTest('IPv4', 'lo', '1', { includeLoopback: true });
    expect(r).toEqual({ ip: '127.0.0.1' });
    const r2 = ipregTest('IPv4', 'lo', '1');
    expect('error' in r2).toBe(true);
  });
});
