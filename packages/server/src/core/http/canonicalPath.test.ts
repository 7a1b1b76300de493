import { describe, expect, it } from 'vitest';
import {
  canonicalPath,
  decisionPath,
  hostHeaderOk,
  PATH_REFUSALS,
  PathRefusal,
  sameSiteLocation,
  splitTarget,
} from './canonicalPath.js';

const reason = (p: string) => {
  const r = canonicalPath(p);
  return r instanceof PathRefusal ? r.reason : undefined;
};

describe('canonicalPath', () => {
  it('returns a plain path as the very same string', () => {
    for (const p of ['/', '/admin/', '/a/b.css', '/a-b_c~d/x.y', "/!$&'()*+,=:@x"]) expect(canonicalPath(p)).toBe(p);
  });

  it('decodes unreserved escapes and upper-cases the others', () => {
    expect(canonicalPath('/%61dmin/')).toBe('/admin/');
    expect(canonicalPath('/%41%7a%30%2D%2e%5F%7E')).toBe('/Az0-._~');
    expect(canonicalPath('/caf%c3%a9')).toBe('/caf%C3%A9');
    expect(canonicalPath('/a%20b%3bc%3F')).toBe('/a%20b%3Bc%3F');
  });

  it('merges slashes and resolves dot segments, keeping a trailing slash', () => {
    expect(canonicalPath('//admin/')).toBe('/admin/');
    expect(canonicalPath('/a///b//')).toBe('/a/b/');
    expect(canonicalPath('/x/../admin/')).toBe('/admin/');
    expect(canonicalPath('/x/%2e%2e/admin')).toBe('/admin');
    expect(canonicalPath('/x/%2E./admin')).toBe('/admin');
    expect(canonicalPath('/./admin/.')).toBe('/admin/');
    expect(canonicalPath('/admin/x/..')).toBe('/admin/');
    expect(canonicalPath('/..a/.b/...')).toBe('/..a/.b/...');
    expect(canonicalPath('/a/..')).toBe('/');
  });

  it('refuses what stays ambiguous', () => {
    expect(reason('/admin%2fx')).toBe(PATH_REFUSALS.slash.reason);
    expect(reason('/admin%2Fx')).toBe(PATH_REFUSALS.slash.reason);
    expect(reason('/admin%5cx')).toBe(PATH_REFUSALS.slash.reason);
    expect(reason('/admin\\x')).toBe(PATH_REFUSALS.backslash.reason);
    expect(reason('/admin%00')).toBe(PATH_REFUSALS.nul.reason);
    expect(reason('/a%zz')).toBe(PATH_REFUSALS.escape.reason);
    expect(reason('/a%4')).toBe(PATH_REFUSALS.escape.reason);
    expect(reason('/%c0%ae%c0%ae/')).toBe(PATH_REFUSALS.overlong.reason);
    expect(reason('/%e0%80%ae')).toBe(PATH_REFUSALS.overlong.reason);
    expect(reason('/%f0%80%80%ae')).toBe(PATH_REFUSALS.overlong.reason);
    expect(reason('/..')).toBe(PATH_REFUSALS.above.reason);
    expect(reason('/a/../../etc')).toBe(PATH_REFUSALS.above.reason);
    expect(reason('/%2e%2e/')).toBe(PATH_REFUSALS.above.reason);
    expect(reason('/admin/..;/x')).toBe(PATH_REFUSALS.dotParams.reason);
    expect(reason('/x/;y/../admin')).toBe(PATH_REFUSALS.dotParams.reason);
    expect(reason('/a b')).toBe(PATH_REFUSALS.byte.reason);
    expect(reason('/a\x7f')).toBe(PATH_REFUSALS.byte.reason);
    expect(reason('/caf\xe9')).toBe(PATH_REFUSALS.byte.reason);
    expect(reason('/a#b')).toBe(PATH_REFUSALS.byte.reason);
    expect(reason('admin')).toBe(PATH_REFUSALS.form.reason);
    expect(reason('*')).toBe(PATH_REFUSALS.form.reason);
  });

  it('keeps valid multi-byte escapes (E0 A0.., F0 90..) and other charsets’ bytes', () => {
    expect(canonicalPath('/%e0%a4%85')).toBe('/%E0%A4%85');
    expect(canonicalPath('/%f0%9f%98%80')).toBe('/%F0%9F%98%80');
    expect(canonicalPath('/%d6%d0')).toBe('/%D6%D0');
  });

  it('is linear on a very long path', () => {
    const long = `/${'%61/./'.repeat(20000)}`;
    const t = performance.now();
    expect(canonicalPath(long)).toBe(`/${'a/'.repeat(20000)}`);
    expect(performance.now() - t).toBeLessThan(500);
  });
});

describe('decisionPath', () => {
  it('cuts ; parameters from every segment and merges what they leave', () => {
    expect(decisionPath('/admin/x')).toBe('/admin/x');
    expect(decisionPath('/admin;jsessionid=1/x')).toBe('/admin/x');
    expect(decisionPath('/;x/admin')).toBe('/admin');
    expect(decisionPath('/app/;jsessionid=1')).toBe('/app/');
    expect(decisionPath('/app;x')).toBe('/app');
    expect(decisionPath('/;x')).toBe('/');
  });
});

describe('splitTarget', () => {
  it('takes origin form as it is, query kept as sent', () => {
    expect(splitTarget('/a?b=%2f&c', 'h')).toEqual({ path: '/a', query: '?b=%2f&c' });
    expect(splitTarget('/a', 'h')).toEqual({ path: '/a', query: '' });
  });

  it('takes absolute form when its host is the Host header’s', () => {
    expect(splitTarget('http://Example.com:8080/admin?x', 'example.com')).toEqual({ path: '/admin', query: '?x' });
    expect(splitTarget('https://example.com', 'example.com')).toEqual({ path: '/', query: '' });
    expect(splitTarget('http://example.com?q', 'example.com')).toEqual({ path: '/', query: '?q' });
    expect(splitTarget('http://[::1]:80/a', '::1')).toEqual({ path: '/a', query: '' });
  });

  it('refuses another host, userinfo, asterisk form and relative targets', () => {
    expect(splitTarget('http://evil.com/admin', 'example.com')).toBe(PATH_REFUSALS.host);
    expect(splitTarget('http://example.com@evil.com/', 'example.com')).toBe(PATH_REFUSALS.host);
    expect(splitTarget('http://x@example.com/', 'example.com')).toBe(PATH_REFUSALS.host);
    expect(splitTarget('*', 'example.com')).toBe(PATH_REFUSALS.form);
    expect(splitTarget('admin/x', 'example.com')).toBe(PATH_REFUSALS.form);
    expect(splitTarget('ftp://example.com/', 'example.com')).toBe(PATH_REFUSALS.form);
  });
});

describe('hostHeaderOk', () => {
  it('takes names, addresses and ports', () => {
    for (const h of ['', 'example.com', 'a.example.com:8443', '127.0.0.1:80', '[::1]:8080', '[fe80::1]', 'xn--fsq.com'])
      expect(hostHeaderOk(h), h).toBe(true);
  });
  it('refuses what would move a redirect elsewhere', () => {
    for (const h of ['good.com@evil.com', 'evil.com/x', 'evil.com\\x', 'a b', 'evil.com?', 'evil.com#', '[::1]x'])
      expect(hostHeaderOk(h), h).toBe(false);
  });
});

describe('sameSiteLocation', () => {
  it('never lets a path start with // or /\\', () => {
    expect(sameSiteLocation('//evil.com/')).toBe('/evil.com/');
    expect(sameSiteLocation('/\\evil.com/')).toBe('/evil.com/');
    expect(sameSiteLocation('/\\/\\evil.com')).toBe('/evil.com');
    expect(sameSiteLocation('/a/')).toBe('/a/');
    expect(sameSiteLocation('https://example.com//x')).toBe('https://example.com//x');
  });
});
