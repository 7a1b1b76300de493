import { reverseproxyDefaultRuleSchema, reverseproxySubRuleSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { hostOf, hostValid, RouteTable } from './router.js';

const sub = (key: string, domains: string[], pathPrefix = '/', enabled = true) =>
  reverseproxySubRuleSchema.parse({ key, domains, pathPrefix, enabled, serviceType: 'text' });

describe('router', () => {
  it('strips ports, brackets and trailing dots from the host', () => {
    expect(hostOf('Example.COM:8080')).toBe('example.com');
    expect(hostOf('[::1]:80')).toBe('::1');
    expect(hostOf('a.test.')).toBe('a.test');
    expect(hostOf(undefined)).toBe('');
  });

  it('exact host, then wildcard; longest prefix; disabled sub rules skipped; default for the rest', () => {
    const t = new RouteTable({
      defaultRule: reverseproxyDefaultRuleSchema.parse({}),
      subRules: [
        sub('root', ['a.test']),
        sub('api', ['a.test'], '/api'),
        sub('wild', ['*.a.test']),
        sub('off', ['off.test'], '/', false),
      ],
    });
    expect(t.match('a.test', '/x').key).toBe('root');
    expect(t.match('a.test', '/api/v1').key).toBe('api');
    expect(t.match('b.a.test', '/').key).toBe('wild');
    expect(t.match('c.b.a.test', '/').key).toBe('default');
    expect(t.match('off.test', '/').key).toBe('default');
  });

  it('compares configured prefixes in canonical form', () => {
    const t = new RouteTable({
      defaultRule: reverseproxyDefaultRuleSchema.parse({}),
      subRules: [sub('api', ['a.test'], '/%61pi')],
    });
    expect(t.match('a.test', '/api/v1').key).toBe('api');
  });

  it('checks the Host header for what would move a redirect to another site', () => {
    expect(hostValid('a.test:8080')).toBe(true);
    expect(hostValid('a.test@evil.test')).toBe(false);
    expect(hostValid('a.test@evil.test')).toBe(false);
    expect(hostValid('[::1]:80')).toBe(true);
  });
});
