// The file manager's browsing routes on a real console over local storages added in storage
// management: a listing of 10,000 entries, file reads with ranges and conditional requests, read
// tickets (accepted, forged, for another storage, expired), thumbnails made by sharp and served
// from the disk cache the second time, new folders and text files (a save that lost a race is
// refused), rename, move / copy on one storage and across two with the three conflict policies,
// delete with and without the trash, and a read-only storage that refuses every write route.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalStorage } from '../src/core/storage/local.js';
import type { FilebrowserRuntime } from '../src/modules/filebrowser/runtime.js';
import { Thumbnails } from '../src/modules/filebrowser/thumbnails.js';
import { type FbConsole, startFbConsole } from './filebrowser-helpers.js';
import { waitFor } from './wait.js';

let c: FbConsole;
let main: string;
let other: string;
let locked: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  c = await startFbConsole();
  main = path.join(c.box, 'main');
  other = path.join(c.box, 'other');
  locked = path.join(c.box, 'locked');
  await fs.mkdir(path.join(locked, 'sub'), { recursive: true });
  await fs.writeFile(path.join(locked, 'kept.txt'), 'kept');
  keys.main = await c.addStorage('main', main);
  keys.other = await c.addStorage('other', other);
  keys.locked = await c.addStorage('locked', locked, true);
}, 30_000);
afterAll(async () => {
  await c?.close();
});

const list = async (storage: string, p: string) =>
  c.ok('GET', `/api/filebrowser/list?${c.query({ storage, path: p })}`);
const names = async (storage: string, p: string) =>
  ((await list(storage, p)).entries as { name: string }[]).map((e) => e.name).sort();
const fileUrl = (q: Record<string, string>) => `/api/filebrowser/file?${c.query(q)}`;
const read = (dir: string, ...rel: string[]) => fs.readFile(path.join(dir, ...rel), 'utf8');
const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

describe('listing', () => {
  it('lists 10,000 entries in one answer with their types, the folder’s own entry and read-only', async () => {
    const dir = path.join(main, 'many');
    await fs.mkdir(dir, { recursive: true });
    const exts = ['jpg', 'mp4', 'txt', 'pdf', 'zip', 'bin', 'mp3', 'md'];
    const want = Array.from({ length: 10_000 }, (_, i) => `${String(i).padStart(5, '0')}.${exts[i % exts.length]}`);
    for (let i = 0; i < want.length; i += 500)
      await Promise.all(want.slice(i, i + 500).map((n) => fs.writeFile(path.join(dir, n), 'x')));
    await fs.mkdir(path.join(dir, 'zz-folder'));
    const r = await list(keys.main, '/many/');
    expect(r).toMatchObject({ ret: 0, storage: keys.main, path: '/many', readOnly: false });
    expect(r.entry).toMatchObject({ name: 'many', kind: 'dir', type: 'dir' });
    expect(r.entries).toHaveLength(10_001);
    const byName = new Map((r.entries as { name: string }[]).map((e) => [e.name, e]));
    expect(byName.get('00000.jpg')).toMatchObject({ kind: 'file', size: 1, type: 'image' });
    expect(byName.get('00001.mp4')).toMatchObject({ type: 'video' });
    expect(byName.get('00002.txt')).toMatchObject({ type: 'text' });
    expect(byName.get('00003.pdf')).toMatchObject({ type: 'pdf' });
    expect(byName.get('00004.zip')).toMatchObject({ type: 'archive' });
    expect(byName.get('00005.bin')).toMatchObject({ type: 'other' });
    expect(byName.get('00006.mp3')).toMatchObject({ type: 'audio' });
    expect(byName.get('zz-folder')).toMatchObject({ kind: 'dir', type: 'dir', size: 0 });
    for (const e of r.entries) expect(e.etag).toMatch(/^".+"$/);
    expect((await list(keys.locked, '/')).readOnly).toBe(true);
    await fs.rm(dir, { recursive: true });
  }, 30_000);

  it('refuses a file, a missing folder and an unknown storage in coded words', async () => {
    await fs.writeFile(path.join(main, 'plain.txt'), 'plain');
    const cases: [Record<string, string>, number, string][] = [
      [{ storage: keys.main, path: '/plain.txt' }, 409, 'storage_notDir'],
      [{ storage: keys.main, path: '/nope' }, 404, 'storage_notFound'],
      [{ storage: 'Nope1', path: '/' }, 404, 'storageUnavailable'],
      [{ storage: keys.main, path: 'relative' }, 400, 'pathInvalid'],
    ];
    for (const [q, status, code] of cases) {
      const r = await c.call('GET', `/api/filebrowser/list?${c.query(q)}`);
      expect([r.status, r.body.code], JSON.stringify(q)).toEqual([status, code]);
    }
  });
});

describe('reading files', () => {
  const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
  beforeAll(async () => {
    await fs.writeFile(path.join(main, 'bytes.bin'), body);
    await fs.writeFile(path.join(main, 'page.html'), '<script>alert(1)</script>');
    await fs.writeFile(path.join(main, '报告 "final".txt'), '中文');
  });

  it('answers the bytes with validators, the type by name and the safety headers', async () => {
    const r = await c.raw(fileUrl({ storage: keys.main, path: '/bytes.bin' }));
    expect(r.status).toBe(200);
    expect(r.body.equals(body)).toBe(true);
    expect(r.headers).toMatchObject({
      'content-length': '1000',
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
    });
    expect(r.headers.etag).toMatch(/^".+"$/);
    expect(Date.parse(String(r.headers['last-modified']))).toBeGreaterThan(0);
    expect(r.headers['content-disposition']).toMatch(/^inline; /);
    const head = await c.raw(fileUrl({ storage: keys.main, path: '/bytes.bin' }), { method: 'HEAD' });
    expect([head.status, head.headers['content-length'], head.headers.etag, head.body.length]).toEqual([
      200,
      '1000',
      r.headers.etag,
      0,
    ]);

    const html = await c.raw(fileUrl({ storage: keys.main, path: '/page.html' }));
    expect(html.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(html.headers['content-security-policy']).toBe('sandbox');

    const cn = await c.raw(fileUrl({ storage: keys.main, path: '/报告 "final".txt', download: '1' }));
    expect(cn.body.toString('utf8')).toBe('中文');
    expect(cn.headers['content-disposition']).toBe(
      `attachment; filename="__ _final_.txt"; filename*=UTF-8''${encodeURIComponent('报告 "final".txt')}`,
    );
  });

  it('serves one range, 416 past the end, and the whole file when If-Range names another version', async () => {
    const url = fileUrl({ storage: keys.main, path: '/bytes.bin' });
    const etag = String((await c.raw(url)).headers.etag);
    const part = await c.raw(url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.body.equals(body.subarray(100, 200))).toBe(true);
    const tail = await c.raw(url, { headers: { range: 'bytes=-10' } });
    expect([tail.status, tail.headers['content-range']]).toEqual([206, 'bytes 990-999/1000']);
    expect(tail.body.equals(body.subarray(990))).toBe(true);
    const open = await c.raw(url, { headers: { range: 'bytes=995-' } });
    expect(open.body.equals(body.subarray(995))).toBe(true);
    const past = await c.raw(url, { headers: { range: 'bytes=1000-1010' } });
    expect([past.status, past.headers['content-range']]).toEqual([416, 'bytes */1000']);
    const same = await c.raw(url, { headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect([same.status, same.body.length]).toEqual([206, 10]);
    const stale = await c.raw(url, { headers: { range: 'bytes=0-9', 'if-range': '"another"' } });
    expect([stale.status, stale.body.length]).toEqual([200, 1000]);
  });

  it('answers 304 to If-None-Match and If-Modified-Since while the file is unchanged, 200 after a change', async () => {
    const url = fileUrl({ storage: keys.main, path: '/bytes.bin' });
    const first = await c.raw(url);
    const etag = String(first.headers.etag);
    const inm = await c.raw(url, { headers: { 'if-none-match': etag } });
    expect([inm.status, inm.body.length, inm.headers.etag]).toEqual([304, 0, etag]);
    const ims = await c.raw(url, { headers: { 'if-modified-since': String(first.headers['last-modified']) } });
    expect(ims.status).toBe(304);
    await fs.writeFile(path.join(main, 'bytes.bin'), Buffer.concat([body, Buffer.from('more')]));
    await fs.utimes(path.join(main, 'bytes.bin'), new Date(), new Date(Date.now() + 5000));
    const changed = await c.raw(url, { headers: { 'if-none-match': etag } });
    expect([changed.status, changed.body.length]).toEqual([200, 1004]);
    expect(changed.headers.etag).not.toBe(etag);
    await fs.writeFile(path.join(main, 'bytes.bin'), body);
  });

  it('refuses a folder and a missing file', async () => {
    const dir = await c.raw(fileUrl({ storage: keys.main, path: '/' }));
    expect([dir.status, JSON.parse(dir.body.toString()).code]).toEqual([409, 'storage_isDir']);
    const gone = await c.raw(fileUrl({ storage: keys.main, path: '/gone.txt' }));
    expect([gone.status, JSON.parse(gone.body.toString()).code]).toEqual([404, 'storage_notFound']);
  });
});

describe('read tickets', () => {
  it('lets a request without a token read with a ticket of that storage only, for an hour', async () => {
    await fs.writeFile(path.join(main, 't.txt'), 'ticketed');
    await fs.writeFile(path.join(other, 't.txt'), 'other storage');
    const { ticket, expiresAt } = await c.ok('POST', '/api/filebrowser/ticket', { storage: keys.main });
    expect(expiresAt - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
    const get = (storage: string, t?: string) =>
      c.raw(fileUrl({ storage, path: '/t.txt', ...(t === undefined ? {} : { ticket: t }) }), { auth: false });

    const good = await get(keys.main, ticket);
    expect([good.status, good.body.toString()]).toEqual([200, 'ticketed']);
    const zip = await c.raw(
      `/api/filebrowser/zip?${c.query({ storage: keys.main, dir: '/', name: 't.txt', ticket })}`,
      {
        auth: false,
      },
    );
    expect(zip.status).toBe(200);

    const refused = async (r: Promise<{ status: number; body: Buffer }>, code = 'ticketInvalid') => {
      const a = await r;
      expect(a.status).toBe(401);
      expect(JSON.parse(a.body.toString())).toMatchObject({ ret: -1, code });
    };
    await refused(get(keys.main), 'loginExpired');
    await refused(get(keys.other, ticket));
    const [exp, mac] = ticket.split('.');
    await refused(get(keys.main, `${Number(exp) + 1000}.${mac}`));
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    await refused(get(keys.main, `${exp}.${flipped}`));
    await refused(get(keys.main, 'garbage'));
    // The ticket opens reads only: a write route still wants the token.
    const write = await c.call(
      'POST',
      `/api/filebrowser/mkdir?${c.query({ storage: keys.main, ticket })}`,
      {
        storage: keys.main,
        dir: '/',
        name: 'by-ticket',
      },
      { token: false },
    );
    expect(write.status).toBe(401);
    expect(await exists(path.join(main, 'by-ticket'))).toBe(false);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(expiresAt + 1);
      await refused(get(keys.main, ticket));
    } finally {
      vi.useRealTimers();
    }
    expect((await get(keys.main, ticket)).status).toBe(200);
  });
});

/** A PNG whose header claims `w` × `h` pixels, with one tiny (wrong) data chunk: a decompression bomb's shape. */
function pngClaiming(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('thumbnails', () => {
  it('makes a WebP thumbnail of a JPEG and a PNG, serves the cached one the second time, refuses what is not an image', async () => {
    await fs.mkdir(path.join(main, 'pics'), { recursive: true });
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .jpeg()
      .toFile(path.join(main, 'pics', 'photo.jpg'));
    await sharp({ create: { width: 300, height: 600, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } })
      .png()
      .toFile(path.join(main, 'pics', 'tall.png'));
    const thumb = (p: string, size?: number) =>
      c.raw(`/api/filebrowser/thumb?${c.query({ storage: keys.main, path: p, size })}`);

    const jpg = await thumb('/pics/photo.jpg', 256);
    expect(jpg.status).toBe(200);
    expect(jpg.headers['content-type']).toBe('image/webp');
    const meta = await sharp(jpg.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 171]);
    const png = await thumb('/pics/tall.png', 128);
    const pmeta = await sharp(png.body).metadata();
    expect([pmeta.format, pmeta.width, pmeta.height]).toEqual(['webp', 64, 128]);

    // The cache holds the two; a marker written over the JPEG's proves the second answer is read from it.
    const dir = path.join(c.s.configDir, 'filebrowser', 'thumbs');
    const cached = (await fs.readdir(dir)).filter((n) => n.endsWith('.webp'));
    expect(cached).toHaveLength(2);
    for (const n of cached) {
      const data = await fs.readFile(path.join(dir, n));
      if (data.equals(jpg.body)) await fs.writeFile(path.join(dir, n), 'from-the-cache');
    }
    expect((await thumb('/pics/photo.jpg', 256)).body.toString()).toBe('from-the-cache');
    const again = await thumb('/pics/photo.jpg', 256);
    expect(
      (
        await c.raw(`/api/filebrowser/thumb?${c.query({ storage: keys.main, path: '/pics/photo.jpg', size: 256 })}`, {
          headers: { 'if-none-match': String(again.headers.etag) },
        })
      ).status,
    ).toBe(304);

    await fs.writeFile(path.join(main, 'pics', 'notes.txt'), 'text');
    await fs.writeFile(path.join(main, 'pics', 'broken.jpg'), 'not a jpeg at all');
    const txt = await thumb('/pics/notes.txt');
    expect([txt.status, JSON.parse(txt.body.toString()).code]).toEqual([415, 'notAnImage']);
    const broken = await thumb('/pics/broken.jpg');
    expect([broken.status, JSON.parse(broken.body.toString()).code]).toEqual([415, 'notAnImage']);
    // A PNG that claims 30000 × 30000 pixels in a few bytes: refused from its header, never decoded.
    await fs.writeFile(path.join(main, 'pics', 'bomb.png'), pngClaiming(30_000, 30_000));
    const bomb = await thumb('/pics/bomb.png');
    expect([bomb.status, JSON.parse(bomb.body.toString()).code]).toEqual([415, 'notAnImage']);
    const logs = (await c.ok('GET', '/api/filebrowser/logs')).logs as {
      code: string;
      params: { path: string; detail: string };
    }[];
    expect(logs.find((l) => l.code === 'thumbnailFailed' && l.params.path === '/pics/broken.jpg')).toBeDefined();
    expect(logs.find((l) => l.params.path === '/pics/bomb.png')?.params.detail).toMatch(/pixel limit/i);

    await c.ok('PUT', '/api/filebrowser/settings', { thumbnails: false });
    const off = await thumb('/pics/photo.jpg', 256);
    expect([off.status, JSON.parse(off.body.toString()).code]).toEqual([409, 'thumbnailsOff']);
    await c.ok('PUT', '/api/filebrowser/settings', { thumbnails: true });
  }, 20_000);
});

describe('thumbnail workers', () => {
  it('makes at most thumbnailWorkers at once and drops queued ones whose client went away', async () => {
    await c.ok('PUT', '/api/filebrowser/settings', { thumbnailWorkers: 1 });
    const dir = path.join(main, 'queue');
    await fs.mkdir(dir, { recursive: true });
    // Noise does not compress: the first image keeps the one worker busy while the rest queue.
    const noise = (w: number, h: number) =>
      sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } });
    await noise(3000, 3000).png({ compressionLevel: 1 }).toFile(path.join(dir, 'slow.png'));
    for (let i = 0; i < 4; i++)
      await noise(64, 64)
        .png()
        .toFile(path.join(dir, `q${i}.png`));
    const rt = c.s.server.core.modules.runtimeOf('filebrowser') as FilebrowserRuntime;
    const thumbs = rt.thumbnails;
    const made = () => fs.readdir(path.join(c.s.configDir, 'filebrowser', 'thumbs')).catch(() => [] as string[]);
    const before = (await made()).length;

    const url = (p: string) => `/api/filebrowser/thumb?${c.query({ storage: keys.main, path: p, size: 200 })}`;
    const slow = c.raw(url('/queue/slow.png'));
    await waitFor(
      () => thumbs.stats().running,
      (n) => n === 1,
      { what: 'the slow one being made' },
    );
    const waiting = Array.from({ length: 4 }, (_, i) => {
      const req = http.get({
        host: '127.0.0.1',
        port: c.port,
        path: url(`/queue/q${i}.png`),
        headers: { authorization: c.token },
      });
      req.on('error', () => undefined);
      return req;
    });
    await waitFor(
      () => thumbs.stats(),
      (s) => s.queued === 4 && s.running === 1,
      { what: 'four queued behind one' },
    );
    for (const req of waiting) req.destroy();
    expect((await slow).status).toBe(200);
    await waitFor(
      () => thumbs.stats(),
      (s) => s.queued === 0 && s.running === 0,
      { what: 'the queue drained' },
    );
    // Only the slow one was made: the four whose clients left were dropped unmade.
    expect((await made()).length).toBe(before + 1);
    // Asked again by a client that stays, one is made.
    expect((await c.raw(url('/queue/q0.png'))).status).toBe(200);
    expect((await made()).length).toBe(before + 2);
    await c.ok('PUT', '/api/filebrowser/settings', { thumbnailWorkers: 1 });
  }, 30_000);
});

describe('the thumbnail cache', () => {
  it('keeps its total bytes under the limit, dropping the least recently used first, and reloads from disk', async () => {
    const dir = path.join(c.box, 'lru');
    const cacheDir = path.join(c.box, 'lru-cache');
    await fs.mkdir(dir, { recursive: true });
    for (const n of ['a', 'b', 'c', 'd'])
      await sharp(randomBytes(96 * 96 * 3), { raw: { width: 96, height: 96, channels: 3 } })
        .png()
        .toFile(path.join(dir, `${n}.png`));
    const storage = createLocalStorage({ key: 'lru', root: dir, readOnly: false });
    let cacheBytes = Number.POSITIVE_INFINITY;
    const thumbs = new Thumbnails(cacheDir, () => ({ cacheBytes, workers: 1 }));
    const signal = new AbortController().signal;
    const make = async (n: string, t = thumbs) => t.get(storage, await storage.stat(`/${n}.png`), 96, signal);
    const sizes: Record<string, number> = {};
    for (const n of ['a', 'b', 'c']) sizes[n] = (await make(n)).size;
    expect(thumbs.stats()).toMatchObject({ files: 3, bytes: sizes.a + sizes.b + sizes.c });
    // `a` used again: `b` is now the least recently used.
    await make('a');
    // Room for a, c and d exactly (d's size learnt from a scratch cache: the same input makes the same bytes).
    const scratch = new Thumbnails(path.join(c.box, 'lru-scratch'), () => ({
      cacheBytes: Number.POSITIVE_INFINITY,
      workers: 1,
    }));
    cacheBytes = sizes.a + sizes.c + (await make('d', scratch)).size;
    const d = await make('d');
    expect(thumbs.stats().bytes).toBeLessThanOrEqual(cacheBytes);
    const left = (await fs.readdir(cacheDir)).sort();
    expect(left).toHaveLength(3);
    const keyOf = async (n: string) => path.basename((await make(n)).file);
    expect(left).toEqual([await keyOf('a'), await keyOf('c'), path.basename(d.file)].sort());
    // A new run of the module finds the same cache on disk.
    const again = new Thumbnails(cacheDir, () => ({ cacheBytes, workers: 1 }));
    await make('c', again);
    expect(again.stats()).toMatchObject({ files: 3, bytes: thumbs.stats().bytes });
  });
});

describe('changing files', () => {
  it('makes folders and text files, saves with the ETag it opened and refuses a save that lost a race', async () => {
    await c.ok('POST', '/api/filebrowser/mkdir', { storage: keys.main, dir: '/', name: 'docs' });
    const taken = await c.call('POST', '/api/filebrowser/mkdir', { storage: keys.main, dir: '/', name: 'docs' });
    expect([taken.status, taken.body.code]).toEqual([409, 'storage_exists']);
    const bad = await c.call('POST', '/api/filebrowser/mkdir', { storage: keys.main, dir: '/', name: '..' });
    expect([bad.status, bad.body.code, bad.body.field]).toEqual([400, 'nameInvalid', 'name']);

    const made = await c.ok('POST', '/api/filebrowser/text', {
      storage: keys.main,
      path: '/docs/readme.md',
      content: '# hello',
      mode: 'create',
    });
    expect(made.entry).toMatchObject({ name: 'readme.md', kind: 'file', size: 7, type: 'text' });
    const again = await c.call('POST', '/api/filebrowser/text', {
      storage: keys.main,
      path: '/docs/readme.md',
      content: 'x',
      mode: 'create',
    });
    expect(again.body.code).toBe('storage_exists');
    const saved = await c.ok('POST', '/api/filebrowser/text', {
      storage: keys.main,
      path: '/docs/readme.md',
      content: '# hello, world',
      mode: 'replace',
      etag: made.entry.etag,
    });
    expect(await read(main, 'docs', 'readme.md')).toBe('# hello, world');
    // Someone else writes; the editor's save with the old ETag is refused and changes nothing.
    await fs.writeFile(path.join(main, 'docs', 'readme.md'), 'their version, longer');
    const late = await c.call('POST', '/api/filebrowser/text', {
      storage: keys.main,
      path: '/docs/readme.md',
      content: 'mine',
      mode: 'replace',
      etag: saved.entry.etag,
    });
    expect([late.status, late.body.code, late.body.field]).toEqual([409, 'changedOnDisk', 'etag']);
    expect(await read(main, 'docs', 'readme.md')).toBe('their version, longer');
    // A text near the edit limit passes the body limit (the app's own is 1 MiB).
    const big = 'é'.repeat(1_500_000);
    await c.ok('POST', '/api/filebrowser/text', {
      storage: keys.main,
      path: '/docs/big.txt',
      content: big,
      mode: 'create',
    });
    expect((await fs.stat(path.join(main, 'docs', 'big.txt'))).size).toBe(3_000_000);
    const logs = (await c.ok('GET', '/api/filebrowser/logs')).logs as { code: string; params: { path: string } }[];
    expect(logs.some((l) => l.code === 'saved' && l.params.path === '/docs/readme.md')).toBe(true);
  });

  it('renames in place and refuses a name that is taken or not one name', async () => {
    await fs.mkdir(path.join(main, 'ren'), { recursive: true });
    await fs.writeFile(path.join(main, 'ren', 'a.txt'), 'a');
    await fs.writeFile(path.join(main, 'ren', 'b.txt'), 'b');
    const r = await c.ok('POST', '/api/filebrowser/rename', { storage: keys.main, path: '/ren/a.txt', name: 'c.txt' });
    expect(r.entry).toMatchObject({ name: 'c.txt', size: 1 });
    expect(await names(keys.main, '/ren')).toEqual(['b.txt', 'c.txt']);
    const clash = await c.call('POST', '/api/filebrowser/rename', {
      storage: keys.main,
      path: '/ren/c.txt',
      name: 'b.txt',
    });
    expect([clash.status, clash.body.code]).toEqual([409, 'storage_exists']);
    for (const name of ['x/y', '..', 'a\\b', 'a\u0001']) {
      const bad = await c.call('POST', '/api/filebrowser/rename', { storage: keys.main, path: '/ren/c.txt', name });
      expect([bad.status, bad.body.code], name).toEqual([400, 'nameInvalid']);
    }
    const root = await c.call('POST', '/api/filebrowser/rename', { storage: keys.main, path: '/', name: 'x' });
    expect(root.body.code).toBe('storage_badPath');
    expect(await read(main, 'ren', 'b.txt')).toBe('b');
  });

  it('copies and moves within a storage and across two, with skip, replace and keepBoth', async () => {
    const src = path.join(main, 'src');
    await fs.mkdir(path.join(src, 'album', 'inner'), { recursive: true });
    await fs.writeFile(path.join(src, 'photo.jpg'), 'new photo');
    await fs.writeFile(path.join(src, 'album', 'inner', 'deep.txt'), 'deep');
    await fs.mkdir(path.join(main, 'dst'), { recursive: true });
    await fs.writeFile(path.join(main, 'dst', 'photo.jpg'), 'old photo');
    const transfer = (body: Record<string, unknown>) => c.ok('POST', '/api/filebrowser/transfer', body);
    const from = { storage: keys.main, dir: '/src', names: ['photo.jpg', 'album'] };

    const skip = await transfer({ op: 'copy', from, to: { storage: keys.main, dir: '/dst' }, conflict: 'skip' });
    expect(skip.results).toEqual([
      { name: 'photo.jpg', result: 'skipped' },
      { name: 'album', result: 'done', as: 'album' },
    ]);
    expect(await read(main, 'dst', 'photo.jpg')).toBe('old photo');
    expect(await read(main, 'dst', 'album', 'inner', 'deep.txt')).toBe('deep');

    const both = await transfer({ op: 'copy', from, to: { storage: keys.main, dir: '/dst' }, conflict: 'keepBoth' });
    expect(both.results.map((x: { as: string }) => x.as)).toEqual(['photo (1).jpg', 'album (1)']);
    const twice = await transfer({ op: 'copy', from, to: { storage: keys.main, dir: '/dst' } });
    expect(twice.results.map((x: { as: string }) => x.as)).toEqual(['photo (2).jpg', 'album (2)']);
    expect(await read(main, 'dst', 'photo (1).jpg')).toBe('new photo');

    const replace = await transfer({ op: 'copy', from, to: { storage: keys.main, dir: '/dst' }, conflict: 'replace' });
    expect(replace.results.map((x: { result: string }) => x.result)).toEqual(['done', 'done']);
    expect(await read(main, 'dst', 'photo.jpg')).toBe('new photo');

    // Across storages: streamed copy, then a move that takes the source away once the copy is whole.
    const across = await transfer({ op: 'copy', from, to: { storage: keys.other, dir: '/' } });
    expect(across.results.map((x: { result: string }) => x.result)).toEqual(['done', 'done']);
    expect(await read(other, 'album', 'inner', 'deep.txt')).toBe('deep');
    const srcTime = (await fs.stat(path.join(src, 'photo.jpg'))).mtimeMs;
    expect(Math.abs((await fs.stat(path.join(other, 'photo.jpg'))).mtimeMs - srcTime)).toBeLessThan(1000);
    const moved = await transfer({ op: 'move', from, to: { storage: keys.other, dir: '/' }, conflict: 'keepBoth' });
    expect(moved.results.map((x: { as: string }) => x.as)).toEqual(['photo (1).jpg', 'album (1)']);
    expect(await read(other, 'album (1)', 'inner', 'deep.txt')).toBe('deep');
    expect(await exists(path.join(src, 'album'))).toBe(false);
    expect(await exists(path.join(src, 'photo.jpg'))).toBe(false);

    // Within one storage: a move, and a move into itself refused.
    const back = await transfer({
      op: 'move',
      from: { storage: keys.other, dir: '/', names: ['album', 'missing.txt'] },
      to: { storage: keys.main, dir: '/src' },
    });
    expect(back.results[0]).toEqual({ name: 'album', result: 'done', as: 'album' });
    expect(back.results[1]).toMatchObject({
      name: 'missing.txt',
      result: 'failed',
      reason: { code: 'storage_notFound' },
    });
    const into = await transfer({
      op: 'move',
      from: { storage: keys.main, dir: '/src', names: ['album'] },
      to: { storage: keys.main, dir: '/src/album/inner' },
    });
    expect(into.results[0]).toMatchObject({ result: 'failed', reason: { code: 'storage_conflict' } });
    const within = await transfer({
      op: 'move',
      from: { storage: keys.main, dir: '/src', names: ['album'] },
      to: { storage: keys.main, dir: '/dst/album' },
    });
    expect(within.results[0]).toEqual({ name: 'album', result: 'done', as: 'album' });
    expect(await read(main, 'dst', 'album', 'album', 'inner', 'deep.txt')).toBe('deep');
    const logs = (await c.ok('GET', '/api/filebrowser/logs')).logs as {
      code: string;
      params: Record<string, string>;
    }[];
    expect(logs.find((l) => l.code === 'moved')?.params).toEqual({
      from: `${keys.main}:/src/album`,
      to: `${keys.main}:/dst/album/album`,
    });
    expect(logs.some((l) => l.code === 'copied' && l.params.to === `${keys.other}:/album`)).toBe(true);
  });

  it('deletes for good, or into the trash with keepBoth names, and for good inside the trash', async () => {
    const d = path.join(main, 'del');
    await fs.mkdir(path.join(d, 'folder'), { recursive: true });
    await fs.writeFile(path.join(d, 'a.txt'), 'first');
    await fs.writeFile(path.join(d, 'folder', 'f.txt'), 'f');
    const del = (body: Record<string, unknown>) =>
      c.ok('POST', '/api/filebrowser/delete', { storage: keys.main, ...body });

    const gone = await del({ dir: '/del', names: ['a.txt', 'nope.txt'] });
    expect(gone.results[0]).toEqual({ name: 'a.txt', result: 'done' });
    expect(gone.results[1]).toMatchObject({ result: 'failed', reason: { code: 'storage_notFound' } });
    expect(await exists(path.join(d, 'a.txt'))).toBe(false);
    expect(await exists(path.join(main, '.trash'))).toBe(false);

    await c.ok('PUT', '/api/filebrowser/settings', { trash: true });
    await fs.writeFile(path.join(d, 'a.txt'), 'second');
    const t1 = await del({ dir: '/del', names: ['a.txt', 'folder'] });
    expect(t1.results).toEqual([
      { name: 'a.txt', result: 'done', as: 'a.txt' },
      { name: 'folder', result: 'done', as: 'folder' },
    ]);
    await fs.writeFile(path.join(d, 'a.txt'), 'third');
    const t2 = await del({ dir: '/del', names: ['a.txt'] });
    expect(t2.results[0].as).toBe('a (1).txt');
    expect(await read(main, '.trash', 'a.txt')).toBe('second');
    expect(await read(main, '.trash', 'a (1).txt')).toBe('third');
    expect(await read(main, '.trash', 'folder', 'f.txt')).toBe('f');

    await fs.writeFile(path.join(d, 'b.txt'), 'b');
    await del({ dir: '/del', names: ['b.txt'], permanent: true });
    expect(await exists(path.join(main, '.trash', 'b.txt'))).toBe(false);
    await del({ dir: '/.trash', names: ['a.txt'] });
    expect(await names(keys.main, '/.trash')).toEqual(['a (1).txt', 'folder']);
    const logs = (await c.ok('GET', '/api/filebrowser/logs')).logs as { code: string; params: { path: string } }[];
    expect(logs.filter((l) => l.code === 'trashed').map((l) => l.params.path)).toContain('/del/folder');
    expect(logs.filter((l) => l.code === 'deleted').map((l) => l.params.path)).toContain('/.trash/a.txt');
    await c.ok('PUT', '/api/filebrowser/settings', { trash: false });
  });

  it('says which names are taken in a folder (NFC), and none in a folder that is not there', async () => {
    await fs.mkdir(path.join(main, 'ex'), { recursive: true });
    await fs.writeFile(path.join(main, 'ex', 'café.txt'), '');
    await fs.writeFile(path.join(main, 'ex', 'b'), '');
    const r = await c.ok('POST', '/api/filebrowser/exists', {
      storage: keys.main,
      dir: '/ex',
      names: ['cafe\u0301.txt', 'b', 'c'],
    });
    expect(r.existing).toEqual(['cafe\u0301.txt', 'b']);
    expect(
      (await c.ok('POST', '/api/filebrowser/exists', { storage: keys.main, dir: '/new/dir', names: ['b'] })).existing,
    ).toEqual([]);
  });
});

describe('a read-only storage', () => {
  it('refuses every write route with 403 storage_readOnly and nothing changes on disk', async () => {
    const before = await fs.readdir(locked, { recursive: true });
    const s = keys.locked;
    const calls: [string, Record<string, unknown>][] = [
      ['mkdir', { storage: s, dir: '/', name: 'new' }],
      ['text', { storage: s, path: '/new.txt', content: 'x', mode: 'create' }],
      ['text', { storage: s, path: '/kept.txt', content: 'x', mode: 'replace' }],
      ['rename', { storage: s, path: '/kept.txt', name: 'renamed.txt' }],
      [
        'transfer',
        { op: 'move', from: { storage: s, dir: '/', names: ['kept.txt'] }, to: { storage: s, dir: '/sub' } },
      ],
      [
        'transfer',
        { op: 'copy', from: { storage: s, dir: '/', names: ['kept.txt'] }, to: { storage: s, dir: '/sub' } },
      ],
      [
        'transfer',
        { op: 'move', from: { storage: s, dir: '/', names: ['kept.txt'] }, to: { storage: keys.other, dir: '/' } },
      ],
      [
        'transfer',
        { op: 'copy', from: { storage: keys.other, dir: '/', names: ['t.txt'] }, to: { storage: s, dir: '/' } },
      ],
      ['delete', { storage: s, dir: '/', names: ['kept.txt'] }],
      ['delete', { storage: s, dir: '/', names: ['sub'], permanent: true }],
    ];
    for (const [route, body] of calls) {
      const r = await c.call('POST', `/api/filebrowser/${route}`, body);
      expect([r.status, r.body.code], `${route} ${JSON.stringify(body)}`).toEqual([403, 'storage_readOnly']);
    }
    expect(await fs.readdir(locked, { recursive: true })).toEqual(before);
    expect(await read(locked, 'kept.txt')).toBe('kept');
    expect(await exists(path.join(other, 'kept.txt'))).toBe(false);
    // Reading it still works: list, file, zip.
    expect(await names(s, '/')).toEqual(['kept.txt', 'sub']);
    expect((await c.raw(fileUrl({ storage: s, path: '/kept.txt' }))).body.toString()).toBe('kept');
  });
});
