import { describe, expect, it } from 'vitest';
import {
  baseName,
  checkPath,
  decodeUrlPath,
  isWithin,
  joinPath,
  parentOf,
  resolveVirtual,
} from '../../src/core/storage/paths.js';
import { StorageError } from '../../src/core/storage/types.js';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return e instanceof StorageError ? e.code : `not a StorageError: ${String(e)}`;
  }
};

describe('checkPath', () => {
  it('canonicalises separators', () => {
    expect(checkPath('/')).toBe('/');
    expect(checkPath('')).toBe('/');
    expect(checkPath('//a///b/')).toBe('/a/b');
    expect(checkPath('a/b')).toBe('/a/b');
    expect(checkPath('/a b/c.d/...')).toBe('/a b/c.d/...');
  });

  it('refuses dot segments, NUL, controls, backslashes and lone surrogates', () => {
    for (const p of [
      '/a/../b',
      '/..',
      '/.',
      '/a/.',
      '..',
      '/a\0b',
      '/a\nb',
      '/a\u007fb',
      '/a\u0085b',
      '/a\\b',
      '/\ud800',
      '/a\udc00b',
    ]) {
      expect(
        codeOf(() => checkPath(p)),
        JSON.stringify(p),
      ).toBe('badPath');
    }
    // A well-formed astral character is fine.
    expect(checkPath('/😀')).toBe('/😀');
  });

  it('limits names to 255 UTF-8 bytes and paths to 4096', () => {
    expect(checkPath(`/${'a'.repeat(255)}`)).toHaveLength(256);
    expect(codeOf(() => checkPath(`/${'a'.repeat(256)}`))).toBe('badPath');
    // 85 three-byte characters = 255 bytes; 86 = 258.
    expect(checkPath(`/${'中'.repeat(85)}`)).toBe(`/${'中'.repeat(85)}`);
    expect(codeOf(() => checkPath(`/${'中'.repeat(86)}`))).toBe('badPath');
    const deep = `/${'abcdefg/'.repeat(511)}x`; // 4090 bytes
    expect(checkPath(deep)).toBe(deep);
    expect(codeOf(() => checkPath(`${deep}/uvwxyz`))).toBe('badPath');
    expect(codeOf(() => checkPath('/a'.repeat(5000)))).toBe('badPath');
  });

  it('normalises to NFC but never folds compatibility characters', () => {
    const nfd = '/Cafe\u0301/re\u0301sume\u0301.txt';
    expect(checkPath(nfd)).toBe('/Caf\u00e9/r\u00e9sum\u00e9.txt');
    // Fullwidth dots and slash, one dot leader, division slash: literal names, not `..` or `/`.
    expect(checkPath('/\uff0e\uff0e\uff0f\uff0e\uff0e')).toBe('/\uff0e\uff0e\uff0f\uff0e\uff0e');
    expect(checkPath('/\u2024\u2024')).toBe('/\u2024\u2024');
    expect(checkPath('/..\u2215etc')).toBe('/..\u2215etc');
    expect(checkPath('/.\u0338.')).toBe('/.\u0338.');
  });
});

describe('decodeUrlPath', () => {
  it('decodes percent escapes as UTF-8 once', () => {
    expect(decodeUrlPath('/a%20b/%E4%B8%AD%e6%96%87')).toBe('/a b/中文');
    expect(decodeUrlPath('/%252e%252e/x')).toBe('/%2e%2e/x');
    expect(decodeUrlPath('/plain/path')).toBe('/plain/path');
    expect(decodeUrlPath('/Cafe%CC%81')).toBe('/Caf\u00e9');
    expect(decodeUrlPath('/raw/中文')).toBe('/raw/中文');
    expect(decodeUrlPath('/a;b/..;')).toBe('/a;b/..;');
  });

  it('refuses encoded separators, NUL, bad escapes, invalid UTF-8 and encoded dot segments', () => {
    for (const p of [
      '/a%2fb',
      '/a%2Fb',
      '/a%5cb',
      '/a%5Cb',
      '/a%00',
      '/%zz',
      '/%2',
      '/%',
      '/%c0%ae%c0%ae/x',
      '/%c0%af',
      '/%e0%80%ae',
      '/%ed%a0%80',
      '/%ff',
      '/%80',
      '/%2e%2e/x',
      '/.%2e/x',
      '/%2e',
      '/a%0ab',
      '/a\\b',
      '/x\ud800',
      `/${'%41'.repeat(4096)}`,
    ]) {
      expect(
        codeOf(() => decodeUrlPath(p)),
        p,
      ).toBe('badPath');
    }
  });
});

describe('helpers', () => {
  it('join, parent, base name, within', () => {
    expect(joinPath('/a', 'b', 'c/d')).toBe('/a/b/c/d');
    expect(joinPath('/', 'x')).toBe('/x');
    expect(codeOf(() => joinPath('/a', '..'))).toBe('badPath');
    expect(parentOf('/a/b')).toBe('/a');
    expect(parentOf('/a')).toBe('/');
    expect(parentOf('/')).toBe('/');
    expect(baseName('/a/b')).toBe('b');
    expect(baseName('/')).toBe('');
    expect(isWithin('/a', '/a/b')).toBe(true);
    expect(isWithin('/a', '/a')).toBe(true);
    expect(isWithin('/a', '/ab')).toBe(false);
    expect(isWithin('/', '/x')).toBe(true);
  });
});

describe('resolveVirtual', () => {
  it('resolves relative and absolute input, clamping at the root', () => {
    expect(resolveVirtual('/a/b', 'c')).toBe('/a/b/c');
    expect(resolveVirtual('/a/b', '../c')).toBe('/a/c');
    expect(resolveVirtual('/a/b', '/x/./y/')).toBe('/x/y');
    expect(resolveVirtual('/a/b', '..')).toBe('/a');
    expect(resolveVirtual('/a', '../../../../etc/passwd')).toBe('/etc/passwd');
    expect(resolveVirtual('/', '..')).toBe('/');
    expect(resolveVirtual('/a/b', '/../../x')).toBe('/x');
    expect(resolveVirtual('/a', '....//x')).toBe('/a/..../x');
    expect(resolveVirtual('/a', '%2e%2e')).toBe('/a/%2e%2e');
    expect(resolveVirtual('/', '')).toBe('/');
  });

  it('refuses what checkPath refuses', () => {
    for (const p of ['..\\..\\etc', 'a\0b', 'a\r\nb', 'x'.repeat(5000)]) {
      expect(
        codeOf(() => resolveVirtual('/a', p)),
        JSON.stringify(p.slice(0, 20)),
      ).toBe('badPath');
    }
  });
});
