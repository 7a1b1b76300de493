import { isBackendUrl, isFrontDomain, reverseproxyConfigSchema, reverseproxyRuleInputSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';

describe('reverseproxy schema', () => {
  it('an empty object parses to working defaults', () => {
    expect(reverseproxyConfigSchema.parse({})).toEqual({ rules: [] });
    const r = reverseproxyRuleInputSchema.parse({});
    expect(r).toMatchObject({ listenTypes: 'http', port: 16666, minTlsVersion: 'TLSv1.2', http2: true, http3: false });
    expect(r.defaultRule.cors.methods).toEqual(['POST', 'GET', 'PUT', 'OPTIONS', 'DELETE']);
    expect(r.defaultRule.log).toEqual({ capacity: 1000, level: 4, toConsole: false, showLatest: 10 });
  });

  it('validates listening address, domains and back ends with the spec messages', () => {
    const bad = reverseproxyRuleInputSchema.safeParse({ address: '300.1.1.1' });
    expect(bad.error?.issues[0].message).toBe('invalid listening address format');
    expect(reverseproxyRuleInputSchema.safeParse({ address: '::1' }).success).toBe(true);
    const noDomain = reverseproxyRuleInputSchema.safeParse({ subRules: [{ domains: [''], serviceType: 'text' }] });
    expect(noDomain.error?.issues[0].message).toBe("the sub rule's domain name cannot be empty");
    expect(isFrontDomain('*.example.com')).toBe(true);
    expect(isFrontDomain('*.*.example.com')).toBe(false);
    expect(isFrontDomain('a b.com')).toBe(false);
    expect(isBackendUrl('https://[::1]:8443/base')).toBe(true);
    expect(isBackendUrl('http://host:0')).toBe(false);
    expect(isBackendUrl('ftp://host')).toBe(false);
  });
});
