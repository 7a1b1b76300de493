import {
  isBackendUrl,
  isFrontDomain,
  reverseproxyConfigSchema,
  reverseproxyIssues,
  reverseproxyRuleInputSchema,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';

describe('reverseproxy schema', () => {
  it('an empty object parses to working defaults', () => {
    expect(reverseproxyConfigSchema.parse({})).toEqual({ enabled: true, rules: [] });
    const r = reverseproxyRuleInputSchema.parse({});
    expect(r).toMatchObject({ listenTypes: 'http', port: 16666, minTlsVersion: 'TLSv1.2', http2: true, http3: false });
    expect(r.defaultRule.cors.methods).toEqual(['POST', 'GET', 'PUT', 'OPTIONS', 'DELETE']);
    expect(r.defaultRule.log).toEqual({ capacity: 1000, level: 4, toConsole: false, showLatest: 10 });
  });

  it('validates listening address, domains and back ends with codes (English text: the spec messages)', () => {
    const issue = (input: unknown) => {
      const r = reverseproxyRuleInputSchema.safeParse(input);
      return r.error && reverseproxyIssues.fromZod(r.error.issues[0]);
    };
    expect(issue({ address: '300.1.1.1' })).toEqual({
      field: 'address',
      code: 'listenAddressInvalid',
      params: {},
      msg: 'invalid listening address format',
    });
    expect(reverseproxyRuleInputSchema.safeParse({ address: '::1' }).success).toBe(true);
    expect(issue({ subRules: [{ domains: [''], serviceType: 'text' }] })).toMatchObject({
      field: 'subRules.0.domains',
      code: 'domainRequired',
      msg: "the sub rule's domain name cannot be empty",
    });
    expect(issue({ subRules: [{ domains: ['a b.com'], serviceType: 'text' }] })).toMatchObject({
      field: 'subRules.0.domains.0',
      code: 'domainInvalid',
      params: { token: 'a b.com' },
    });
    expect(issue({ defaultRule: { requestHeaders: [{ name: 'X Y', value: '1' }] } })).toMatchObject({
      field: 'defaultRule.requestHeaders.0.name',
      code: 'headerInvalid',
      params: { token: 'X Y' },
    });
    expect(isFrontDomain('_dmarc.example.com')).toBe(true);
    expect(isFrontDomain('::1')).toBe(true);
    expect(isFrontDomain('*.::1')).toBe(false);
    expect(isFrontDomain('*.example.com')).toBe(true);
    expect(isFrontDomain('*.*.example.com')).toBe(false);
    expect(isFrontDomain('a b.com')).toBe(false);
    expect(isBackendUrl('https://[::1]:8443/base')).toBe(true);
    expect(isBackendUrl('http://host:0')).toBe(false);
    expect(isBackendUrl('ftp://host')).toBe(false);
  });
});
