// The local folder backend on a real file system (a temp dir): every method, confinement by
// symlinks (in, out, swapped in while a read runs), the write modes' semantics, read-only.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../src/core/storage/local.js';
import { type Storage, StorageError, type StorageErrorCode } from '../../src/core/storage/types.js';
import { tempDir } from '../harness.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

let base: string;
let root: string;
let st: Storage;

beforeEach(async () => {
  base = await tempDir('lucky-local-');
  dirs.push(base);
  root = path.join(base, 'root');
  await fs.mkdir(root);
  st = createLocalStorage({ key: 'disk', root, readOnly: false });
});

const text = async (s: Readable): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts).toString();
};

const codeOf = async (p: Promise<unknown>): Promise<StorageErrorCode | string | undefined> => {
  try {
    await p;
    return undefined;
  } catch (e) {
    return e instanceof StorageError ? e.code : `not a StorageError: ${String(e)}`;
  }
};

/** Writes `data` through a storage stream and waits for 'finish'. */
const put = async (w: Writable, ...data: string[]) => pipeline(Readable.from(data.map((d) => Buffer.from(d))), w);

/** Writes one chunk and waits until the file has it (the write callback). */
const writeChunk = (w: Writable, data: string | Buffer) =>
  new Promise<void>((resolve, reject) => w.write(data, (e) => (e ? reject(e) : resolve())));

/** Abandons a write the way a service does (destroy with an error) and waits until it closed. */
const abandon = async (w: Writable, why: string) => {
  const closed = new Promise((r) => w.on('close', r));
  w.on('error', () => undefined);
  w.destroy(new Error(why));
  await closed;
};

const disk = (...p: string[]) => fs.readFile(path.join(root, ...p), 'utf8');

describe('local storage: reading', () => {
  it('stats, lists and reads ranges', async () => {
    await fs.mkdir(path.join(root, 'docs'));
    await fs.writeFile(path.join(root, 'docs', 'a.txt'), '0123456789');
    const e = await st.stat('/docs/a.txt');
    expect(e).toMatchObject({ name: 'a.txt', path: '/docs/a.txt', kind: 'file', size: 10 });
    expect(e.etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+-[0-9a-z]+"$/);
    expect(await st.stat('/')).toMatchObject({ name: '', path: '/', kind: 'dir', size: 0 });
    expect((await st.list('/')).map((x) => [x.name, x.kind])).toEqual([['docs', 'dir']]);
    expect(await text(await st.read('/docs/a.txt'))).toBe('0123456789');
    expect(await text(await st.read('/docs/a.txt', { start: 2, end: 4 }))).toBe('234');
    expect(await text(await st.read('/docs/a.txt', { start: 8 }))).toBe('89');
    expect(await text(await st.read('/docs/a.txt', { start: 20 }))).toBe('');
    expect(await codeOf(st.read('/docs'))).toBe('isDir');
    expect(await codeOf(st.list('/docs/a.txt'))).toBe('notDir');
    expect(await codeOf(st.stat('/nope'))).toBe('notFound');
    expect(await codeOf(st.stat('/docs/a.txt/x'))).toBe('notDir');
    expect(await codeOf(st.stat('/../x'))).toBe('badPath');
  });

  it('etag changes when the content does', async () => {
    await fs.writeFile(path.join(root, 'f'), 'one');
    const a = (await st.stat('/f')).etag;
    await put(await st.write('/f', { mode: 'replace' }), 'two');
    expect((await st.stat('/f')).etag).not.toBe(a);
  });

  it('finds a name stored decomposed (NFD, as macOS writes) by its NFC path, and lists it as stored', async () => {
    const nfd = 'Cafe\u0301.txt';
    await fs.writeFile(path.join(root, nfd), 'x');
    expect(await st.stat('/Caf\u00e9.txt')).toMatchObject({ name: nfd, path: '/Caf\u00e9.txt' });
    expect(await text(await st.read('/Cafe\u0301.txt'))).toBe('x');
    const [entry] = await st.list('/');
    expect(entry).toMatchObject({ name: nfd, path: '/Caf\u00e9.txt' });
    expect(await codeOf(st.write('/Caf\u00e9.txt', { mode: 'create' }))).toBe('exists');
  });

  it('lists 10,000 entries', async () => {
    await fs.mkdir(path.join(root, 'many'));
    const names = Array.from({ length: 10_000 }, (_, i) => `f${i}`);
    for (let i = 0; i < names.length; i += 500) {
      await Promise.all(names.slice(i, i + 500).map((n) => fs.writeFile(path.join(root, 'many', n), '')));
    }
    const list = await st.list('/many');
    expect(list).toHaveLength(10_000);
    expect(new Set(list.map((e) => e.name))).toEqual(new Set(names));
  });

  it('leaves special files and unaddressable names out, and refuses a FIFO without blocking', async () => {
    await fs.writeFile(path.join(root, 'ok'), '');
    await fs.writeFile(path.join(root, 'bad\\name'), '');
    await fs.writeFile(path.join(root, 'ctl\u0001'), '');
    await new Promise<void>((resolve, reject) =>
      spawn('mkfifo', [path.join(root, 'pipe')]).on('exit', (c) =>
        c === 0 ? resolve() : reject(new Error(`mkfifo ${c}`)),
      ),
    );
    expect((await st.list('/')).map((e) => e.name)).toEqual(['ok']);
    expect(await codeOf(st.read('/pipe'))).toBe('denied');
    expect(await codeOf(st.stat('/pipe'))).toBe('denied');
    expect(await codeOf(st.write('/pipe', { mode: 'append' }))).toBe('denied');
  });
});

describe('local storage: symlinks', () => {
  let outside: string;
  beforeEach(async () => {
    outside = path.join(base, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'secret'), 'SECRET');
    await fs.mkdir(path.join(root, 'in'));
    await fs.writeFile(path.join(root, 'in', 'f'), 'inside');
    await fs.symlink(path.join(root, 'in'), path.join(root, 'link-in'));
    await fs.symlink('in/f', path.join(root, 'link-file'));
    await fs.symlink(outside, path.join(root, 'link-out'));
    await fs.symlink('../outside/secret', path.join(root, 'rel-out'));
    await fs.symlink('nowhere', path.join(root, 'dangling'));
  });

  it('follows a link that stays inside', async () => {
    expect(await text(await st.read('/link-in/f'))).toBe('inside');
    expect(await text(await st.read('/link-file'))).toBe('inside');
    expect(await st.stat('/link-in')).toMatchObject({ kind: 'dir', name: 'link-in' });
    await put(await st.write('/link-in/g', { mode: 'create' }), 'new');
    expect(await disk('in', 'g')).toBe('new');
  });

  it('hides and refuses a link that leaves the root, for every method', async () => {
    const names = (await st.list('/')).map((e) => e.name).sort();
    expect(names).toEqual(['in', 'link-file', 'link-in']);
    for (const p of ['/link-out', '/link-out/secret', '/rel-out']) {
      expect(await codeOf(st.stat(p)), p).toBe('denied');
      expect(await codeOf(st.read(p)), p).toBe('denied');
      expect(await codeOf(st.write(p, { mode: 'replace' })), p).toBe('denied');
      expect(await codeOf(st.write(p, { mode: 'append' })), p).toBe('denied');
      expect(await codeOf(st.delete(p)), p).toBe('denied');
      expect(await codeOf(st.setMtime(p, 0)), p).toBe('denied');
      expect(await codeOf(st.copy(p, '/copied', { overwrite: false, recursive: true })), p).toBe('denied');
      expect(await codeOf(st.move(p, '/moved', { overwrite: false })), p).toBe('denied');
      expect(await codeOf(st.move('/in/f', p, { overwrite: true })), p).toBe('denied');
    }
    expect(await codeOf(st.list('/link-out'))).toBe('denied');
    expect(await codeOf(st.mkdir('/link-out/x'))).toBe('denied');
    expect(await codeOf(st.stat('/dangling'))).toBe('notFound');
    expect(await fs.readFile(path.join(outside, 'secret'), 'utf8')).toBe('SECRET');
    expect(await fs.readdir(outside)).toEqual(['secret']);
  });

  it('deletes and moves a link itself, never what it points to', async () => {
    await st.move('/link-in', '/renamed', { overwrite: false });
    expect((await fs.lstat(path.join(root, 'renamed'))).isSymbolicLink()).toBe(true);
    await st.delete('/renamed');
    expect(await disk('in', 'f')).toBe('inside');
  });

  it('copies a folder with links as what they point to, leaving links that leave out', async () => {
    await fs.symlink(outside, path.join(root, 'in', 'out'));
    await fs.symlink('f', path.join(root, 'in', 'f2'));
    await st.copy('/in', '/in-copy', { overwrite: false, recursive: true });
    expect((await fs.readdir(path.join(root, 'in-copy'))).sort()).toEqual(['f', 'f2']);
    expect((await fs.lstat(path.join(root, 'in-copy', 'f2'))).isFile()).toBe(true);
  });

  it('stops a copy that loops through a link', async () => {
    await fs.symlink('..', path.join(root, 'in', 'up'));
    expect(await codeOf(st.copy('/in', '/loop', { overwrite: false, recursive: true }))).toBe('failed');
  });

  it('refuses the file a folder swapped for a link leads to, while reads run', async () => {
    // `d` flips between a real folder (inside) and a link to the outside folder, in another
    // process, while we read /d/f: a read that passed the path check before the swap must not
    // open the outside file (the descriptor check catches it).
    await fs.mkdir(path.join(root, 'd-dir'));
    await fs.writeFile(path.join(root, 'd-dir', 'f'), 'inside');
    await fs.writeFile(path.join(outside, 'f'), 'SECRET');
    await fs.symlink(outside, path.join(root, 'd-link'));
    const script = `
      const fs = require('node:fs'); const p = require('node:path'); const r = process.argv[1];
      const at = (n) => p.join(r, n);
      for (;;) {
        fs.renameSync(at('d-dir'), at('d')); fs.renameSync(at('d'), at('d-dir'));
        fs.renameSync(at('d-link'), at('d')); fs.renameSync(at('d'), at('d-link'));
      }`;
    const flipper = spawn(process.execPath, ['-e', script, root], { stdio: 'ignore' });
    const seen = { ok: 0, denied: 0, other: 0 };
    const leaks: string[] = [];
    try {
      for (let i = 0; i < 4000 && (seen.ok < 50 || seen.denied < 5); i++) {
        try {
          const got = await text(await st.read('/d/f'));
          if (got.includes('SECRET')) leaks.push(got);
          else seen.ok++;
        } catch (e) {
          if (e instanceof StorageError && e.code === 'denied') seen.denied++;
          else seen.other++;
        }
      }
    } finally {
      flipper.kill('SIGKILL');
    }
    expect(leaks).toEqual([]);
    expect(seen.ok).toBeGreaterThan(0);
  });
});

describe('local storage: writing', () => {
  it('create refuses an existing file and leaves nothing when abandoned', async () => {
    await put(await st.write('/a', { mode: 'create' }), 'one');
    expect(await disk('a')).toBe('one');
    expect(await codeOf(st.write('/a', { mode: 'create' }))).toBe('exists');
    const w = await st.write('/b', { mode: 'create' });
    await writeChunk(w, 'partial');
    await abandon(w, 'client went away');
    await expect(fs.stat(path.join(root, 'b'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('replace: a reader sees the old file until finish, then the new one; an abort keeps the old one', async () => {
    const old = 'A'.repeat(300_000);
    await fs.writeFile(path.join(root, 'f'), old);
    const w = await st.write('/f', { mode: 'replace' });
    await writeChunk(w, Buffer.alloc(200_000, 'B'));
    // The temp file is there, hidden from listings, and the file is still whole and old.
    expect((await fs.readdir(root)).some((n) => /^\.f\.lucky-upload-[0-9a-f]{16}$/.test(n))).toBe(true);
    expect((await st.list('/')).map((e) => e.name)).toEqual(['f']);
    expect(await text(await st.read('/f'))).toBe(old);
    await writeChunk(w, Buffer.alloc(100_000, 'B'));
    expect(await text(await st.read('/f'))).toBe(old);
    await new Promise<void>((resolve, reject) => w.end((e?: Error | null) => (e ? reject(e) : resolve())));
    expect(await text(await st.read('/f'))).toBe('B'.repeat(300_000));
    expect(await fs.readdir(root)).toEqual(['f']);

    const w2 = await st.write('/f', { mode: 'replace' });
    await writeChunk(w2, 'CCC');
    await abandon(w2, 'abandoned');
    expect(await text(await st.read('/f'))).toBe('B'.repeat(300_000));
    expect(await fs.readdir(root)).toEqual(['f']);
  });

  it('replace keeps the old file mode', async () => {
    await fs.writeFile(path.join(root, 'x'), 'old', { mode: 0o640 });
    await fs.chmod(path.join(root, 'x'), 0o640);
    await put(await st.write('/x', { mode: 'replace' }), 'new');
    expect((await fs.stat(path.join(root, 'x'))).mode & 0o777).toBe(0o640);
  });

  it('append adds at the end and creates a missing file', async () => {
    await put(await st.write('/log', { mode: 'append' }), 'abc');
    await put(await st.write('/log', { mode: 'append' }), 'def', 'g');
    expect(await disk('log')).toBe('abcdefg');
  });

  it('offset writes in place, cuts the tail at finish, keeps what was written on abort', async () => {
    await fs.writeFile(path.join(root, 'o'), '0123456789');
    await put(await st.write('/o', { mode: 'offset', offset: 3 }), 'ab');
    expect(await disk('o')).toBe('012ab');
    await fs.writeFile(path.join(root, 'o'), '0123456789');
    const w = await st.write('/o', { mode: 'offset', offset: 2 });
    await writeChunk(w, 'XY');
    await abandon(w, 'connection lost');
    expect(await disk('o')).toBe('01XY456789');
    await put(await st.write('/o', { mode: 'offset', offset: 10 }), '!');
    expect(await disk('o')).toBe('01XY456789!');
    expect(await codeOf(st.write('/o', { mode: 'offset', offset: 12 }))).toBe('failed');
    expect(await codeOf(st.write('/new', { mode: 'offset', offset: 5 }))).toBe('notFound');
    await put(await st.write('/new', { mode: 'offset', offset: 0 }), 'n');
    expect(await disk('new')).toBe('n');
  });

  it('refuses a write into a missing folder, onto a folder, or at the root', async () => {
    await fs.mkdir(path.join(root, 'dir'));
    expect(await codeOf(st.write('/missing/f', { mode: 'create' }))).toBe('conflict');
    expect(await codeOf(st.write('/dir', { mode: 'replace' }))).toBe('isDir');
    expect(await codeOf(st.write('/', { mode: 'replace' }))).toBe('isDir');
    await fs.writeFile(path.join(root, 'file'), '');
    expect(await codeOf(st.write('/file/x', { mode: 'create' }))).toBe('conflict');
  });

  it('mkdir', async () => {
    await st.mkdir('/a');
    expect(await codeOf(st.mkdir('/a'))).toBe('exists');
    expect(await codeOf(st.mkdir('/x/y'))).toBe('conflict');
    expect(await codeOf(st.mkdir('/'))).toBe('exists');
    expect((await fs.stat(path.join(root, 'a'))).isDirectory()).toBe(true);
  });

  it('move: rename, overwrite, exists, into itself, the root', async () => {
    await fs.mkdir(path.join(root, 'd', 'sub'), { recursive: true });
    await fs.writeFile(path.join(root, 'd', 'sub', 'f'), 'f');
    await fs.writeFile(path.join(root, 'x'), 'x');
    await fs.writeFile(path.join(root, 'y'), 'y');
    expect(await codeOf(st.move('/x', '/y', { overwrite: false }))).toBe('exists');
    await st.move('/x', '/y', { overwrite: true });
    expect(await disk('y')).toBe('x');
    expect(await codeOf(st.move('/d', '/d/sub/d', { overwrite: false }))).toBe('conflict');
    expect(await codeOf(st.move('/d', '/d/inner', { overwrite: false }))).toBe('conflict');
    expect(await codeOf(st.move('/', '/z', { overwrite: false }))).toBe('denied');
    expect(await codeOf(st.move('/y', '/none/y', { overwrite: false }))).toBe('conflict');
    // A folder over a file and a file over a folder, with overwrite.
    await st.move('/d', '/y', { overwrite: true });
    expect(await disk('y', 'sub', 'f')).toBe('f');
    await fs.writeFile(path.join(root, 'g'), 'g');
    await st.move('/g', '/y', { overwrite: true });
    expect(await disk('y')).toBe('g');
  });

  it('copy: files, folders with and without contents, into itself', async () => {
    await fs.mkdir(path.join(root, 'd', 'sub'), { recursive: true });
    await fs.writeFile(path.join(root, 'd', 'sub', 'f'), 'deep');
    await fs.writeFile(path.join(root, 'x'), 'x');
    await st.copy('/x', '/x2', { overwrite: false, recursive: true });
    expect(await disk('x2')).toBe('x');
    expect(await codeOf(st.copy('/x', '/x2', { overwrite: false, recursive: true }))).toBe('exists');
    await st.copy('/d', '/d2', { overwrite: false, recursive: true });
    expect(await disk('d2', 'sub', 'f')).toBe('deep');
    await st.copy('/d', '/d0', { overwrite: false, recursive: false });
    expect(await fs.readdir(path.join(root, 'd0'))).toEqual([]);
    expect(await codeOf(st.copy('/d', '/d/sub/again', { overwrite: false, recursive: true }))).toBe('conflict');
    await st.copy('/d2', '/x2', { overwrite: true, recursive: true });
    expect(await disk('x2', 'sub', 'f')).toBe('deep');
  });

  it('delete: files and folders, never the root', async () => {
    await fs.mkdir(path.join(root, 'd', 'sub'), { recursive: true });
    await fs.writeFile(path.join(root, 'd', 'sub', 'f'), '');
    await st.delete('/d');
    expect(await fs.readdir(root)).toEqual([]);
    expect(await codeOf(st.delete('/'))).toBe('denied');
    expect(await codeOf(st.delete('/d'))).toBe('notFound');
  });

  it('setMtime, space, probe', async () => {
    await fs.writeFile(path.join(root, 'f'), '');
    await st.setMtime('/f', Date.UTC(2020, 0, 2, 3, 4, 5));
    expect((await st.stat('/f')).mtimeMs).toBe(Date.UTC(2020, 0, 2, 3, 4, 5));
    const space = await st.space();
    expect(space.total).toBeGreaterThan(0);
    expect(space.free).toBeGreaterThan(0);
    expect(space.used).toBeGreaterThanOrEqual(0);
    await st.probe();
    const gone = createLocalStorage({ key: 'gone', root: path.join(base, 'missing'), readOnly: false });
    expect(await codeOf(gone.probe())).toBe('unreachable');
    expect(await codeOf(gone.stat('/'))).toBe('unreachable');
  });
});

describe('local storage: read-only', () => {
  it('refuses every write method, whatever the path', async () => {
    await fs.mkdir(path.join(root, 'd'));
    await fs.writeFile(path.join(root, 'f'), 'keep');
    const ro = createLocalStorage({ key: 'ro', root, readOnly: true });
    expect(ro.readOnly).toBe(true);
    for (const mode of ['create', 'replace', 'append', 'offset'] as const) {
      expect(await codeOf(ro.write('/f', { mode, offset: 0 })), mode).toBe('readOnly');
      expect(await codeOf(ro.write('/new', { mode, offset: 0 })), mode).toBe('readOnly');
    }
    expect(await codeOf(ro.mkdir('/m'))).toBe('readOnly');
    expect(await codeOf(ro.move('/f', '/g', { overwrite: true }))).toBe('readOnly');
    expect(await codeOf(ro.copy('/f', '/g', { overwrite: true, recursive: true }))).toBe('readOnly');
    expect(await codeOf(ro.delete('/f'))).toBe('readOnly');
    expect(await codeOf(ro.delete('/d'))).toBe('readOnly');
    expect(await codeOf(ro.setMtime('/f', 0))).toBe('readOnly');
    expect((await fs.readdir(root)).sort()).toEqual(['d', 'f']);
    expect(await disk('f')).toBe('keep');
    expect(await text(await ro.read('/f'))).toBe('keep');
  });
});
