import { describe, expect, it } from 'vitest';
import { DavError } from './errors.js';
import { hrefOf, placeOf, rawPathOf, rebase } from './wirePath.js';

describe('wire paths', () => {
  it('places a target under a prefix', () => {
    expect(placeOf('/dav', '/dav')).toEqual({ kind: 'root' });
    expect(placeOf('/dav', '/dav/')).toEqual({ kind: 'root' });
    expect(placeOf('/dav', '/')).toEqual({ kind: 'above', path: '/' });
    expect(placeOf('/dav/x', '/dav')).toEqual({ kind: 'above', path: '/dav' });
    expect(placeOf('/dav', '/davx/a')).toEqual({ kind: 'outside' });
    expect(placeOf('/dav', '/dav/m')).toEqual({ kind: 'mount', mount: 'm', path: '/' });
    expect(placeOf('/dav', '/dav/m/a%20b/%E2%82%AC?x=1')).toEqual({ kind: 'mount', mount: 'm', path: '/a b/€' });
    expect(placeOf('/', '/m/a')).toEqual({ kind: 'mount', mount: 'm', path: '/a' });
    expect(placeOf('/', '/')).toEqual({ kind: 'root' });
  });

  it('takes an absolute URL by its path only', () => {
    expect(rawPathOf('https://other.example:8443/dav/m/x?q#f')).toBe('/dav/m/x');
    expect(placeOf('/dav', 'http://h/dav/m/x')).toEqual({ kind: 'mount', mount: 'm', path: '/x' });
  });

  it('refuses what does not decode, and never resolves dot segments', () => {
    for (const t of ['/dav/m/../x', '/dav/m/%2e%2e/x', '/dav/m/a%2fb', '/dav/m/%00', '/dav/m/%c0%ae', 'relative']) {
      expect(() => placeOf('/dav', t), t).toThrow(DavError);
    }
  });

  it('encodes hrefs per segment, collections with a slash', () => {
    expect(hrefOf('/dav', 'm', '/a b/€#?', false)).toBe('/dav/m/a%20b/%E2%82%AC%23%3F');
    expect(hrefOf('/', 'm', '/', true)).toBe('/m/');
  });

  it('rebases paths', () => {
    expect(rebase('/a', '/b', '/a/x')).toBe('/b/x');
    expect(rebase('/', '/b', '/x')).toBe('/b/x');
    expect(rebase('/a', '/', '/a/x')).toBe('/x');
    expect(rebase('/a', '/b', '/a')).toBe('/b');
  });
});
