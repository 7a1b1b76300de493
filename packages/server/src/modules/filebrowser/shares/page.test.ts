import { describe, expect, it } from 'vitest';
import { esc, formatSize, pageLang } from './page.js';
import { contentDisposition, parseRange } from './send.js';

describe('the share page’s pieces', () => {
  it('picks the language by the client’s preference, Chinese when it names neither', () => {
    expect(pageLang('en-US,en;q=0.9')).toBe('en');
    expect(pageLang('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh');
    expect(pageLang('de-DE,en;q=0.5,zh;q=0.4')).toBe('en');
    expect(pageLang('fr, zh-TW;q=0.3')).toBe('zh');
    expect(pageLang('en;q=0, zh;q=0.1')).toBe('zh');
    expect(pageLang(undefined)).toBe('zh');
    expect(pageLang('de')).toBe('zh');
  });

  it('escapes what HTML would read as markup', () => {
    expect(esc(`<img src=x onerror="a('b')">&`)).toBe('&#60;img src=x onerror=&#34;a(&#39;b&#39;)&#34;&#62;&#38;');
  });

  it('sizes in base 1000 with 3 significant digits', () => {
    expect(formatSize(999)).toBe('999 B');
    expect(formatSize(1000)).toBe('1.00 kB');
    expect(formatSize(300_000)).toBe('300 kB');
    expect(formatSize(1_234_567)).toBe('1.23 MB');
  });

  it('reads one byte range; several or junk mean the whole file', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=9-3', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(parseRange('items=0-1', 100)).toBeUndefined();
    expect(parseRange(undefined, 100)).toBeUndefined();
  });

  it('names a download in ASCII and in UTF-8', () => {
    expect(contentDisposition('attachment', 'note ü "x".txt')).toBe(
      `attachment; filename="note _ _x_.txt"; filename*=UTF-8''note%20%C3%BC%20%22x%22.txt`,
    );
  });
});
