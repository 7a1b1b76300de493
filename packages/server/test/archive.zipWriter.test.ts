// The streaming zip writer (core/archive/zipWriter.ts) checked by other readers: Debian's `unzip -t`
// and `zipinfo`, and Python's zipfile. A tree with empty and nested folders, Chinese names, a
// 0-byte file and an in-memory file; a file over 4 GiB (sparse, the ZIP64 entry and end records);
// more than 65,535 entries (the ZIP64 count); and the failures: a source that errors or gives the
// wrong number of bytes destroys the output, and destroying the output closes the open source.
import { execFile } from 'node:child_process';
import { createReadStream, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ZipEntry, zipWriter } from '../src/core/archive/zipWriter.js';

const run = promisify(execFile);
const utc = { ...process.env, TZ: 'UTC', LC_ALL: 'C.UTF-8' };
const GiB = 1024 ** 3;

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'zipwriter-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/**
 * The archive written to `file`, all-zero chunks as holes: a 4 GiB sparse source then costs no
 * disk (readers that go over its bytes read them from the holes).
 */
async function save(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, file: string): Promise<void> {
  const h = await fs.open(file, 'w');
  const zeros = Buffer.alloc(1024 * 1024);
  // Bytes not yet written (small records gathered into one write) and where they start.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let at = 0;
  const flush = async () => {
    if (pendingBytes > 0) await h.write(Buffer.concat(pending), 0, pendingBytes, at);
    at += pendingBytes;
    pending = [];
    pendingBytes = 0;
  };
  try {
    await pipeline(
      zipWriter(entries),
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          if (chunk.length <= zeros.length && chunk.length > 4096 && chunk.equals(zeros.subarray(0, chunk.length))) {
            flush().then(() => {
              at += chunk.length;
              cb();
            }, cb);
            return;
          }
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= zeros.length) flush().then(() => cb(), cb);
          else cb();
        },
        final(cb) {
          flush().then(() => cb(), cb);
        },
      }),
    );
    await h.truncate(at);
  } finally {
    await h.close();
  }
}

/** Python's zipfile view: CRCs checked (`testzip`) and each entry's name, size, DOS time, mode, flags. */
async function python(
  file: string,
  test = true,
): Promise<{ bad: string | null; entries: [string, number, number[], number, number][] }> {
  const script = `
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
bad = z.testzip() if sys.argv[2] == '1' else None
print(json.dumps({'bad': bad, 'entries': [[i.filename, i.file_size, list(i.date_time), i.external_attr >> 16, i.flag_bits] for i in z.infolist()]}))
`;
  const { stdout } = await run('python3', ['-c', script, file, test ? '1' : '0'], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout);
}

/** A date's DOS fields as the writer's time zone sees them (seconds in steps of two). */
const dos = (d: Date) => [
  d.getFullYear(),
  d.getMonth() + 1,
  d.getDate(),
  d.getHours(),
  d.getMinutes(),
  d.getSeconds() & ~1,
];

describe('a tree of folders and files', () => {
  const t1 = new Date('2021-03-04T05:06:07Z');
  const t2 = new Date('2024-12-31T23:59:59Z');
  const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));
  const entries = (): ZipEntry[] => [
    { kind: 'dir', name: 'trip/', mtime: t1 },
    { kind: 'dir', name: 'trip/empty', mtime: t1, mode: 0o40755 },
    { kind: 'dir', name: 'trip/照片/', mtime: t2 },
    {
      kind: 'file',
      name: 'trip/照片/海边.jpg',
      mtime: t2,
      mode: 0o100644,
      size: body.length,
      open: async () => Readable.from([body.subarray(0, 1000), body.subarray(1000)]),
    },
    { kind: 'file', name: 'trip/zero.bin', mtime: t1, mode: 0o100600, size: 0, open: async () => Readable.from([]) },
    { kind: 'dir', name: 'trip/a/b/c/', mtime: t1 },
    {
      kind: 'file',
      name: 'trip/a/b/c/deep.txt',
      mtime: t1,
      size: 4,
      open: async () => Readable.from([Buffer.from('deep')]),
    },
    { kind: 'file', name: 'results.json', mtime: t2, data: Buffer.from('{"ok":true}\n') },
  ];
  let file: string;
  beforeAll(async () => {
    file = path.join(dir, 'tree.zip');
    await save(entries(), file);
  });

  it('passes unzip -t and unpacks to the same bytes', async () => {
    expect((await run('unzip', ['-t', file], { env: utc })).stdout).toContain('No errors detected');
    const dest = path.join(dir, 'tree');
    await run('unzip', ['-q', file, '-d', dest], { env: utc });
    expect(await fs.readFile(path.join(dest, 'trip/照片/海边.jpg'))).toEqual(body);
    expect((await fs.stat(path.join(dest, 'trip/zero.bin'))).size).toBe(0);
    expect((await fs.stat(path.join(dest, 'trip/empty'))).isDirectory()).toBe(true);
    expect(await fs.readFile(path.join(dest, 'trip/a/b/c/deep.txt'), 'utf8')).toBe('deep');
    expect(await fs.readFile(path.join(dest, 'results.json'), 'utf8')).toBe('{"ok":true}\n');
    // unzip sets the mtime from the extended timestamp (UTC, whatever the zone).
    expect((await fs.stat(path.join(dest, 'trip/照片/海边.jpg'))).mtimeMs).toBe(t2.getTime());
  });

  it('is read by Python with UTF-8 names, sizes, DOS times and Unix modes', async () => {
    const z = await python(file);
    expect(z.bad).toBeNull();
    expect(z.entries).toEqual([
      ['trip/', 0, dos(t1), 0o40775, 0x800],
      ['trip/empty/', 0, dos(t1), 0o40755, 0x800],
      ['trip/照片/', 0, dos(t2), 0o40775, 0x800],
      // Streamed files carry bit 3: CRC and sizes in the descriptor after the bytes.
      ['trip/照片/海边.jpg', 300_000, dos(t2), 0o100644, 0x808],
      ['trip/zero.bin', 0, dos(t1), 0o100600, 0x808],
      ['trip/a/b/c/', 0, dos(t1), 0o40775, 0x800],
      ['trip/a/b/c/deep.txt', 4, dos(t1), 0o100664, 0x808],
      ['results.json', 12, dos(t2), 0o100664, 0x800],
    ]);
  });

  it('is listed by zipinfo with the sizes, modes and mtimes', async () => {
    const { stdout } = await run('zipinfo', ['-T', file], { env: utc });
    const rows = stdout
      .split('\n')
      .filter((l) => /^[-d]/.test(l))
      .map((l) => {
        const f = l.trim().split(/\s+/);
        return [f[0], f[3], f[6], f.slice(7).join(' ')];
      });
    expect(rows).toEqual([
      ['drwxrwxr-x', '0', '20210304.050607', 'trip/'],
      ['drwxr-xr-x', '0', '20210304.050607', 'trip/empty/'],
      ['drwxrwxr-x', '0', '20241231.235959', 'trip/照片/'],
      ['-rw-r--r--', '300000', '20241231.235959', 'trip/照片/海边.jpg'],
      ['-rw-------', '0', '20210304.050607', 'trip/zero.bin'],
      ['drwxrwxr-x', '0', '20210304.050607', 'trip/a/b/c/'],
      ['-rw-rw-r--', '4', '20210304.050607', 'trip/a/b/c/deep.txt'],
      ['-rw-rw-r--', '12', '20241231.235959', 'results.json'],
    ]);
  });
});

describe('ZIP64', () => {
  it('writes a file over 4 GiB (sparse) that unzip, zipinfo and Python accept, with its CRC', async () => {
    const src = path.join(dir, 'huge.bin');
    const size = 4 * GiB + 5;
    const h = await fs.open(src, 'w');
    await h.truncate(size - 5);
    await h.write('tail!', size - 5);
    await h.close();
    const file = path.join(dir, 'huge.zip');
    const mtime = new Date('2023-06-01T12:00:00Z');
    await save(
      [
        { kind: 'file', name: 'small.txt', mtime, size: 2, open: async () => Readable.from([Buffer.from('hi')]) },
        {
          kind: 'file',
          name: 'huge.bin',
          mtime,
          size,
          open: async () => createReadStream(src, { highWaterMark: 1024 * 1024 }),
        },
        // Its local header starts past 4 GiB: the central directory's offset moves to ZIP64.
        { kind: 'file', name: 'after.txt', mtime, size: 5, open: async () => Readable.from([Buffer.from('after')]) },
      ],
      file,
    );
    await fs.rm(src);
    // unzip tests the members around the big one (the last one's header is past 4 GiB, found
    // through the ZIP64 records); the big one's CRC is compared with one computed here, since
    // `unzip -t` of 4 GiB costs ~45 s of CPU for the same check.
    const test = await run('unzip', ['-t', file, 'small.txt', 'after.txt'], { env: utc });
    expect(test.stdout).toContain('No errors detected');
    const zeros = Buffer.alloc(16 * 1024 * 1024);
    let crc = 0;
    for (let n = 0; n < (size - 5) / zeros.length; n++) crc = zlib.crc32(zeros, crc);
    crc = zlib.crc32(Buffer.from('tail!'), crc);
    const verbose = (await run('zipinfo', ['-v', file, 'huge.bin'], { env: utc })).stdout;
    expect(/32-bit CRC value \(hex\):\s+([0-9a-f]{8})/.exec(verbose)?.[1]).toBe(crc.toString(16).padStart(8, '0'));
    const z = await python(file, false);
    expect(z.entries.map((e) => [e[0], e[1]])).toEqual([
      ['small.txt', 2],
      ['huge.bin', size],
      ['after.txt', 5],
    ]);
    const { stdout } = await run('unzip', ['-p', file, 'after.txt']);
    expect(stdout).toBe('after');
    const info = await run('zipinfo', ['-T', file], { env: utc });
    expect(info.stdout).toMatch(/ 4294967301 .* 20230601\.120000 huge\.bin/);
  }, 600_000);

  it('writes more than 65,535 entries', async () => {
    const count = 70_000;
    async function* many(): AsyncGenerator<ZipEntry> {
      const mtime = new Date('2020-01-01T00:00:00Z');
      for (let i = 0; i < count; i++) {
        const data = Buffer.from(`${i}\n`);
        // Every other one streamed, so both header kinds cross the 65,535th.
        if (i % 2) yield { kind: 'file', name: `d/${i}.txt`, mtime, data };
        else
          yield { kind: 'file', name: `d/${i}.txt`, mtime, size: data.length, open: async () => Readable.from([data]) };
      }
    }
    const file = path.join(dir, 'many.zip');
    await save(many(), file);
    expect((await run('unzip', ['-t', file], { maxBuffer: 64 * 1024 * 1024 })).stdout).toContain('No errors detected');
    const z = await python(file);
    expect(z.bad).toBeNull();
    expect(z.entries.length).toBe(count);
    expect(z.entries[count - 1]?.slice(0, 2)).toEqual([`d/${count - 1}.txt`, `${count - 1}\n`.length]);
  }, 300_000);
});

describe('failures', () => {
  const mtime = new Date();

  /** Reads `out` to its end or failure; what came out and the failure. */
  async function drain(
    out: Readable,
    onBytes?: (total: number) => void,
  ): Promise<{ bytes: number; error: Error | undefined }> {
    let bytes = 0;
    try {
      for await (const chunk of out as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        onBytes?.(bytes);
      }
      return { bytes, error: undefined };
    } catch (e) {
      return { bytes, error: e as Error };
    }
  }

  it('a source failing mid-file destroys the output with its error', async () => {
    const source = new Readable({ read() {} });
    source.push(Buffer.alloc(1000, 1));
    const out = zipWriter([
      { kind: 'file', name: 'ok.txt', mtime, size: 2, open: async () => Readable.from([Buffer.from('ok')]) },
      { kind: 'file', name: 'bad.bin', mtime, size: 5000, open: async () => source },
      {
        kind: 'file',
        name: 'never.txt',
        mtime,
        size: 1,
        open: async () => expect.unreachable('opened after a failure'),
      },
    ]);
    // The source fails once its first bytes went out: past the first byte of the archive.
    const { bytes, error } = await drain(out, (total) => {
      if (total > 1000 && !source.destroyed) source.destroy(new Error('disk gone'));
    });
    expect(error?.message).toBe('disk gone');
    expect(bytes).toBeGreaterThan(1000);
    expect(out.destroyed).toBe(true);
  });

  it('a source with another size than listed fails the archive', async () => {
    const { error } = await drain(
      zipWriter([
        { kind: 'file', name: 'grew.txt', mtime, size: 3, open: async () => Readable.from([Buffer.from('grown')]) },
      ]),
    );
    expect(error?.message).toBe('zip: grew.txt gave 5 bytes, 3 expected');
  });

  it('an entry list that fails destroys the output', async () => {
    async function* entries(): AsyncGenerator<ZipEntry> {
      yield { kind: 'dir', name: 'a/', mtime };
      throw new Error('list failed');
    }
    const { bytes, error } = await drain(zipWriter(entries()));
    expect(error?.message).toBe('list failed');
    expect(bytes).toBeGreaterThan(0);
  });

  it('destroying the output closes the open source', async () => {
    const source = new Readable({ read() {} });
    source.push(Buffer.alloc(100_000, 2));
    const out = zipWriter([{ kind: 'file', name: 'slow.bin', mtime, size: 10_000_000, open: async () => source }]);
    await new Promise<void>((resolve) => out.once('data', () => resolve()));
    out.destroy();
    await new Promise<void>((resolve) => (source.destroyed ? resolve() : source.once('close', () => resolve())));
    expect(source.destroyed).toBe(true);
  });
});
