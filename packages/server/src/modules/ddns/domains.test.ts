import { describe, expect, it } from 'vitest';
import { parseDomainLine, parseDomains, splitRoot, suffixSet } from './domains.js';

const S = suffixSet();
const ok = (line: string, extra: string[] = []) => {
  const p = parseDomainLine(line, extra.length ? suffixSet(extra) : S);
  if (!p.ok) throw new Error(p.error);
  return p.domain;
};

describe('domain lines', () => {
  it('splits the root off the last two labels', () => {
    expect(ok('nas.example.com')).toMatchObject({ fqdn: 'nas.example.com', sub: 'nas', root: 'example.com' });
    expect(ok('a.b.example.com')).toMatchObject({ sub: 'a.b', root: 'example.com' });
    expect(ok('example.com')).toMatchObject({ sub: '', root: 'example.com', fqdn: 'example.com' });
  });

  it('knows multi-level suffixes, built in and the user’s own (longest wins)', () => {
    expect(ok('www.shop.com.cn')).toMatchObject({ sub: 'www', root: 'shop.com.cn' });
    expect(ok('x.y.eu.org')).toMatchObject({ sub: 'x', root: 'y.eu.org' });
    expect(ok('nas.home.dynv6.net')).toMatchObject({ sub: 'nas.home', root: 'dynv6.net' });
    expect(ok('nas.home.dynv6.net', ['dynv6.net'])).toMatchObject({ sub: 'nas', root: 'home.dynv6.net' });
    expect(ok('a.b.c.d.e', ['c.d.e', 'd.e'])).toMatchObject({ sub: 'a', root: 'b.c.d.e' });
    expect(splitRoot('com.cn', S)).toEqual({ sub: '', root: 'com.cn' });
  });

  it('takes an explicit sub:root split, with @ or nothing for the apex', () => {
    expect(ok('www.shop:example.co')).toMatchObject({
      sub: 'www.shop',
      root: 'example.co',
      fqdn: 'www.shop.example.co',
    });
    expect(ok('@:example.com')).toMatchObject({ sub: '', root: 'example.com', fqdn: 'example.com' });
    expect(ok(':a.b.example.com')).toMatchObject({ sub: '', root: 'a.b.example.com' });
    expect(ok('*:example.com')).toMatchObject({ sub: '*', fqdn: '*.example.com' });
  });

  it('reads ?key=value options, decoded', () => {
    expect(ok('nas.example.com?RecordId=123&line=%E7%94%B5%E4%BF%A1')).toMatchObject({
      fqdn: 'nas.example.com',
      params: { RecordId: '123', line: '电信' },
    });
    expect(ok('www:example.com?proxied=true').params).toEqual({ proxied: 'true' });
  });

  it('lower-cases and converts international names to ASCII', () => {
    expect(ok('NAS.Example.COM').fqdn).toBe('nas.example.com');
    expect(ok('家.例子.中国')).toMatchObject({
      fqdn: 'xn--fct.xn--fsqu00a.xn--fiqs8s',
      root: 'xn--fsqu00a.xn--fiqs8s',
    });
    expect(ok('*.example.com')).toMatchObject({ sub: '*', fqdn: '*.example.com' });
  });

  it('refuses what is not a name, and drops blank and repeated lines', () => {
    for (const bad of ['', 'nodot', 'a b.com', 'x..com', '-a.com', 'a:', 'sub:*.com', '?x=1']) {
      expect(parseDomainLine(bad, S).ok, bad).toBe(false);
    }
    const list = parseDomains(['a.example.com', '', 'A.example.com', 'a.example.com?x=1', 'bad'], S);
    expect(list.map((p) => (p.ok ? p.domain.line : `!${p.line}`))).toEqual([
      'a.example.com',
      'a.example.com?x=1',
      '!bad',
    ]);
  });
});
