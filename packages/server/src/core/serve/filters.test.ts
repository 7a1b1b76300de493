import { reverseproxyDefaultRuleSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { basicAuthFails, clientIpOf, corsHeaders, ipAllowed, peerIsTrusted, uaAllowed } from './filters.js';

const svc = (o: Record<string, unknown>) => reverseproxyDefaultRuleSchema.parse(o);
const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

describe('filters', () => {
  it('IP black and white lists with CIDRs', () => {
    const black = svc({ ipFilter: { mode: 'blacklist', list: ['10.0.0.0/8', '2001:db8::/32'] } });
    expect(ipAllowed(black, '10.1.2.3')).toBe(false);
    expect(ipAllowed(black, '2001:db8::1')).toBe(false);
    expect(ipAllowed(black, '192.168.1.1')).toBe(true);
    const white = svc({ ipFilter: { mode: 'whitelist', list: ['192.168.1.0/24'] } });
    expect(ipAllowed(white, '192.168.1.9')).toBe(true);
    expect(ipAllowed(white, '192.168.2.9')).toBe(false);
    expect(ipAllowed(svc({}), '1.2.3.4')).toBe(true);
  });

  it('UA filters are case-insensitive substrings; an empty list filters nothing', () => {
    expect(uaAllowed(svc({ uaFilter: { mode: 'blacklist', list: ['bot'] } }), 'GoodBOT/1')).toBe(false);
    expect(uaAllowed(svc({ uaFilter: { mode: 'whitelist', list: ['curl'] } }), 'Mozilla')).toBe(false);
    expect(uaAllowed(svc({ uaFilter: { mode: 'whitelist', list: [] } }), 'Mozilla')).toBe(true);
  });

  it('basic auth on its paths', () => {
    const s = svc({ basicAuth: { enabled: true, user: 'u', password: 'p:w', paths: ['/admin'] } });
    expect(basicAuthFails(s, '/public', undefined)).toBe(false);
    expect(basicAuthFails(s, '/admin/x', undefined)).toBe(true);
    expect(basicAuthFails(s, '/admin', basic('u', 'p:w'))).toBe(false);
    expect(basicAuthFails(s, '/admin', basic('u', 'p'))).toBe(true);
  });

  it('basic-auth paths are compared in the canonical form requests are', () => {
    const s = svc({ basicAuth: { enabled: true, user: 'u', password: 'p', paths: ['/%61dmin//area;x'] } });
    expect(basicAuthFails(s, '/admin/area/x', undefined)).toBe(true);
    expect(basicAuthFails(s, '/admin/other', undefined)).toBe(false);
  });

  it('client IP from headers only from trusted proxies', () => {
    const s = svc({ clientIp: { fromHeaders: true, trustedProxies: ['10.0.0.1'] } });
    expect(clientIpOf(s, '10.0.0.1', { 'x-forwarded-for': '1.1.1.1' })).toBe('1.1.1.1');
    expect(clientIpOf(s, '10.0.0.2', { 'x-forwarded-for': '1.1.1.1' })).toBe('10.0.0.2');
    expect(peerIsTrusted(s, '::ffff:10.0.0.1')).toBe(true);
    expect(clientIpOf(svc({}), '10.0.0.1', { 'x-forwarded-for': '1.1.1.1' })).toBe('10.0.0.1');
  });

  it('CORS: default methods, listed origins only', () => {
    const s = svc({ cors: { enabled: true, origins: ['https://a.test'] } });
    expect(corsHeaders(s, 'https://a.test')?.['access-control-allow-methods']).toBe('POST, GET, PUT, OPTIONS, DELETE');
    expect(corsHeaders(s, 'https://b.test')).toBeUndefined();
    expect(corsHeaders(svc({}), 'https://a.test')).toBeUndefined();
  });
});
