import { describe, expect, it } from 'vitest';
import { type ListedEntry, lsLine, MLST_FACTS, mlstFeature, mlsxLine } from './listing.js';
import { formatReply, ftpTime, parseFtpTime, quotePath } from './reply.js';

const file: ListedEntry = {
  name: 'a b.txt',
  kind: 'file',
  size: 1234,
  mtimeMs: Date.UTC(2024, 0, 2, 3, 4, 5, 6),
  writable: true,
  id: 'S1:/a b.txt',
};
const dir: ListedEntry = {
  name: 'photos',
  kind: 'dir',
  size: 0,
  mtimeMs: Date.UTC(2020, 5, 7),
  writable: false,
  id: 'S1:/photos',
};

describe('listings', () => {
  it('writes ls -l lines: time within half a year, else the year', () => {
    const now = Date.UTC(2024, 1, 1);
    expect(lsLine(file, now)).toBe('-rw-r--r--    1 ftp      ftp              1234 Jan  2 03:04 a b.txt\r\n');
    expect(lsLine(dir, now)).toBe('dr-xr-xr-x    1 ftp      ftp              4096 Jun  7  2020 photos\r\n');
  });

  it('writes RFC 3659 facts with the chosen facts only, perm by access', () => {
    const all = new Set(MLST_FACTS);
    expect(mlsxLine(file, all)).toMatch(
      /^type=file;size=1234;modify=20240102030405\.006;perm=adfrw;unique=[0-9a-f]{16}; a b\.txt$/,
    );
    expect(mlsxLine(dir, all)).toMatch(/^type=dir;modify=20200607000000\.000;perm=el;unique=[0-9a-f]{16}; photos$/);
    expect(mlsxLine(file, new Set(['size'] as const))).toBe('size=1234; a b.txt');
    expect(mlstFeature(new Set(['type', 'size'] as const))).toBe('MLST type*;size*;modify;perm;unique;');
  });
});

describe('replies', () => {
  it('formats one line and several, and never lets CR or LF from a name start a new line', () => {
    expect(formatReply(200, 'ok')).toBe('200 ok\r\n');
    expect(formatReply(211, ['Features:', 'UTF8', 'End'])).toBe('211-Features:\r\n UTF8\r\n211 End\r\n');
    expect(formatReply(550, 'x\r\n230 fake')).toBe('550 x  230 fake\r\n');
  });

  it('quotes 257 paths and reads and writes FTP times', () => {
    expect(quotePath('/a "b"')).toBe('"/a ""b"""');
    expect(ftpTime(Date.UTC(2021, 4, 6, 7, 8, 9))).toBe('20210506070809');
    expect(parseFtpTime('20210506070809')).toBe(Date.UTC(2021, 4, 6, 7, 8, 9));
    expect(parseFtpTime('20210506070809.5')).toBe(Date.UTC(2021, 4, 6, 7, 8, 9, 500));
    expect(parseFtpTime('20211306070809')).toBeUndefined();
    expect(parseFtpTime('2021')).toBeUndefined();
  });
});
