import { describe, expect, it } from 'vitest';
import { hostAllowed, hostOf, hostPolicy, originAllowed, ownHostNames, refusalPage } from './hostGuard.js';

const policy = hostPolicy([...ownHostNames('nas'), 'console.example.com', '*.lan', 'Upper.Example.']);

describe('hostOf', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.0.0.1:16601', '127.0.0.1'],
    ['[::1]:16601', '::1'],
    ['[::1]', '::1'],
    ['[FE80::1]', 'fe80::1'],
    ['NAS.Local.', 'nas.local'],
    ['nas:8080', 'nas'],
  ])('%s → %s', (value, host) => expect(hostOf(value)).toBe(host));
  it.each([
    '',
    '::1',
    '[::1',
    '[::1]x',
    '[::1]:',
    '[nas]:80',
    'nas:',
    'nas:80:80',
    'nas:abc',
    'nas:123456',
    'user@nas',
    'a b',
    'nas/x',
    'nas\\x',
    'x'.repeat(254),
  ])('%j is not a host', (value) => expect(hostOf(value)).toBeUndefined());
});

describe('hostAllowed', () => {
  it.each([
    undefined, // HTTP/1.0 without Host: not a browser
    '192.168.1.2',
    '192.168.1.2:16601',
    '[::1]:16601',
    '[fd00::5]',
    'localhost',
    'localhost:16601',
    'LOCALHOST.',
    'nas',
    'nas.local',
    'nas:16601',
    'console.example.com',
    'console.example.com:443',
    'box.lan',
    'upper.example',
  ])('%s is answered', (host) => expect(hostAllowed(host, policy)).toBe(true));
  it.each([
    'evil.example.com',
    'evil.example.com:16601',
    '127.0.0.1.nip.io',
    'localhost.evil.com',
    'nas.evil.com',
    'a.box.lan', // the wildcard covers one label
    'lan',
    'example.com',
    '',
    '::1',
    '1.2.3.4 evil',
  ])('%s is refused', (host) => expect(hostAllowed(host, policy)).toBe(false));
});

describe('originAllowed', () => {
  it('lets reads and requests without Origin through', () => {
    expect(originAllowed('GET', 'http://evil.example', 'nas', policy)).toBe(true);
    expect(originAllowed('POST', undefined, 'nas', policy)).toBe(true);
  });
  it('refuses a cross-site change', () => {
    expect(originAllowed('POST', 'http://evil.example', '192.168.1.2:16601', policy)).toBe(false);
    expect(originAllowed('PUT', 'null', '192.168.1.2:16601', policy)).toBe(false);
    expect(originAllowed('DELETE', 'file://x', '192.168.1.2:16601', policy)).toBe(false);
    expect(originAllowed('POST', 'not a url', '192.168.1.2:16601', policy)).toBe(false);
  });
  it('accepts the same origin and names the admin answers to', () => {
    expect(originAllowed('POST', 'http://192.168.1.2:16601', '192.168.1.2:16601', policy)).toBe(true);
    expect(originAllowed('POST', 'https://public.example.net', 'public.example.net', policy)).toBe(true);
    expect(originAllowed('POST', 'http://nas.local:16601', '192.168.1.2:16601', policy)).toBe(true);
  });
});

describe('refusalPage', () => {
  it('names the setting in both languages and escapes the host', () => {
    const page = refusalPage('<script>x</script>', 'host');
    expect(page).toContain('adminHostNames');
    expect(page).toContain('lang="zh-CN"');
    expect(page).toContain('lang="en"');
    expect(page).not.toContain('<script>');
  });
});
