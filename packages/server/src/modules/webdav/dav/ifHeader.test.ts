import { describe, expect, it } from 'vitest';
import { DavError } from './errors.js';
import { parseIf, sameEtag, tokensOf } from './ifHeader.js';

describe('If header', () => {
  it('parses no-tag lists with Not, tokens and entity tags', () => {
    expect(parseIf('(<urn:uuid:a> ["e1"]) (Not <DAV:no-lock> [W/"e2"])')).toEqual([
      {
        tag: undefined,
        conditions: [
          { not: false, kind: 'token', value: 'urn:uuid:a' },
          { not: false, kind: 'etag', value: '"e1"' },
        ],
      },
      {
        tag: undefined,
        conditions: [
          { not: true, kind: 'token', value: 'DAV:no-lock' },
          { not: false, kind: 'etag', value: 'W/"e2"' },
        ],
      },
    ]);
  });

  it('parses tagged lists, each list under the tag before it', () => {
    const lists = parseIf('<http://h/dav/a> (<urn:1>) (<urn:2>) </dav/b> (Not ["x"])');
    expect(lists.map((l) => [l.tag, l.conditions.map((c) => c.value)])).toEqual([
      ['http://h/dav/a', ['urn:1']],
      ['http://h/dav/a', ['urn:2']],
      ['/dav/b', ['"x"']],
    ]);
    expect([...tokensOf(lists)]).toEqual(['urn:1', 'urn:2']);
  });

  it('refuses what does not follow the grammar', () => {
    for (const bad of [
      '',
      '()',
      '(<urn:x>',
      '<urn:x>',
      '<a> <b> (<c>)',
      '(urn:x)',
      '([unquoted])',
      '(Nope <urn:x>)',
      'junk',
    ]) {
      expect(() => parseIf(bad), bad).toThrow(DavError);
    }
  });

  it('refuses more lists than a client sends', () => {
    expect(() => parseIf('(<urn:x>) '.repeat(65))).toThrow(DavError);
    expect(parseIf('(<urn:x>) '.repeat(64))).toHaveLength(64);
  });

  it('compares entity tags weakly', () => {
    expect(sameEtag('W/"a"', '"a"')).toBe(true);
    expect(sameEtag('"a"', '"b"')).toBe(false);
  });
});
