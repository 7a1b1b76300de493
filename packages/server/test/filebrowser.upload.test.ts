// The file manager's resumable uploads (tus 1.0.0 by @tus/server over our Storage) on a real
// console with a local storage added through storage management: tus-js-client uploads files and a
// folder's relative paths; a PATCH cut mid-way resumes from HEAD's offset byte-exact; the protocol's
// refusals (wrong offset, bad metadata, unsafe length); the conflict policies; a read-only storage;
// the escape corpus in dir and relativePath; termination; expiry with a clock moved forward.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exists,
  metaHeader,
  partFiles,
  patchCut,
  path,
  sha256,
  startUploadConsole,
  UPLOADS,
  type UploadConsole,
} from './filebrowser-upload-helpers.js';
import { type ApacheDav, startApacheDav } from './storage/apacheDav.js';
import { type EscapeSandbox, HTTP_ESCAPE_TAILS, plantEscapeTargets } from './storage/escapeCorpus.js';
import { waitFor } from './wait.js';

let c: UploadConsole;
let root: string;
let locked: string;
let sandbox: EscapeSandbox;
let apache: ApacheDav;
const keys: Record<string, string> = {};

beforeAll(async () => {
  c = await startUploadConsole();
  root = path.join(c.box, 'files');
  locked = path.join(c.box, 'locked');
  await fs.mkdir(root);
  await fs.mkdir(locked);
  sandbox = await plantEscapeTargets(path.join(c.box, 'sandbox'));
  keys.files = await c.addStorage('files', root);
  keys.locked = await c.addStorage('locked', locked, true);
  keys.escape = await c.addStorage('escape', sandbox.root);
  // Apache's workers (www-data) must pass through to their folder below.
  await fs.chmod(c.box, 0o755);
  apache = await startApacheDav(path.join(c.box, 'apache'));
  const r = await c.s.call('POST', '/api/storagemanagement/storages', {
    token: c.token,
    body: { name: 'apache', kind: 'webdav', webdav: { url: apache.url, user: apache.user, password: apache.password } },
  });
  keys.remote = r.body.storage.key;
}, 30_000);
afterAll(async () => {
  await c?.close();
  await apache?.stop();
});

const meta = (relativePath: string, extra: Record<string, string> = {}) => ({
  storage: keys.files,
  dir: '/',
  relativePath,
  ...extra,
});

describe('uploads through tus-js-client', () => {
  it('two files and a folder’s files land where their relative paths say, with their mtime, and in the log', async () => {
    const a = randomBytes(300_000);
    const b = Buffer.from('hello\n');
    const mtime = Date.UTC(2024, 0, 2, 3, 4, 5);
    expect(await c.upload(a, meta('a.bin', { mtime: String(mtime) }))).toEqual({ result: 'done', path: '/a.bin' });
    expect(await c.upload(b, meta('b.txt'))).toEqual({ result: 'done', path: '/b.txt' });
    for (const [rel, data] of [
      ['holiday/day1/x.jpg', randomBytes(5000)],
      ['holiday/day1/y.jpg', randomBytes(7000)],
      ['holiday/notes.txt', Buffer.from('')],
    ] as const) {
      expect(await c.upload(data, meta(rel))).toEqual({ result: 'done', path: `/${rel}` });
      expect(sha256(await fs.readFile(path.join(root, rel)))).toBe(sha256(data));
    }
    expect(sha256(await fs.readFile(path.join(root, 'a.bin')))).toBe(sha256(a));
    expect((await fs.stat(path.join(root, 'a.bin'))).mtimeMs).toBe(mtime);
    expect(await partFiles(root)).toEqual([]);
    expect(await partFiles(path.join(root, 'holiday/day1'))).toEqual([]);
    const logs = (await c.s.call('GET', '/api/filebrowser/logs?order=oldest', { token: c.token })).body.logs;
    expect(
      logs.filter((l: { code: string }) => l.code === 'uploaded').map((l: { params: unknown }) => l.params),
    ).toContainEqual({
      storage: keys.files,
      path: '/a.bin',
      bytes: a.length,
    });
  });

  it('conflict policies: skip keeps the old file, replace overwrites it, keepBoth numbers the new one', async () => {
    await fs.writeFile(path.join(root, 'c.txt'), 'old');
    expect(await c.upload(Buffer.from('new1'), meta('c.txt', { conflict: 'skip' }))).toEqual({
      result: 'skipped',
      path: '/c.txt',
    });
    expect(await fs.readFile(path.join(root, 'c.txt'), 'utf8')).toBe('old');
    expect(await c.upload(Buffer.from('new2'), meta('c.txt', { conflict: 'keepBoth' }))).toEqual({
      result: 'done',
      path: '/c (1).txt',
    });
    expect(await c.upload(Buffer.from('new3'), meta('c.txt'))).toEqual({ result: 'done', path: '/c (2).txt' });
    expect(await c.upload(Buffer.from('new4'), meta('c.txt', { conflict: 'replace' }))).toEqual({
      result: 'done',
      path: '/c.txt',
    });
    expect(await fs.readFile(path.join(root, 'c.txt'), 'utf8')).toBe('new4');
    expect(await fs.readFile(path.join(root, 'c (1).txt'), 'utf8')).toBe('new2');
    // replace never puts a file over a folder
    await fs.mkdir(path.join(root, 'folder'));
    await expect(c.upload(Buffer.from('x'), meta('folder', { conflict: 'replace' }))).rejects.toThrow(/storage_isDir/);
    expect((await fs.stat(path.join(root, 'folder'))).isDirectory()).toBe(true);
    expect(await partFiles(root)).toEqual([]);
  });
});

describe('resume after a dropped connection', () => {
  it('a 64 MB upload cut after ~20 MB resumes from HEAD’s offset and ends byte-exact', async () => {
    const data = randomBytes(64 * 1024 * 1024);
    const created = await c.create(meta('big.bin'), data.length);
    expect(created.status).toBe(201);
    expect(created.location).toMatch(/^\/api\/filebrowser\/uploads\/[0-9a-f]{32}$/);
    await patchCut(c, created.location, 0, data, 20 * 1024 * 1024);
    // The server writes what arrived; HEAD says how much that is, and it is what is on disk.
    const offset = (await waitFor(async () => {
      const h = await c.head(created.location);
      const o = Number(h.headers.get('upload-offset'));
      return o > 0 ? o : undefined;
    })) as number;
    expect(offset).toBeLessThanOrEqual(20 * 1024 * 1024);
    const head = await c.head(created.location);
    expect(head.headers.get('upload-length')).toBe(String(data.length));
    // A PATCH at any other offset is refused without touching the upload.
    const wrong = await c.patch(created.location, offset + 1, data.subarray(offset + 1, offset + 100));
    expect(wrong.status).toBe(409);
    const rest = await c.patch(created.location, offset, data.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(data.length));
    expect(rest.headers.get('upload-result')).toBe('done');
    expect(sha256(await fs.readFile(path.join(root, 'big.bin')))).toBe(sha256(data));
    expect(await partFiles(root)).toEqual([]);
    // Finished: HEAD tells a client that lost the last answer that it is complete.
    const after = await c.head(created.location);
    expect([after.status, after.headers.get('upload-offset')]).toEqual([200, String(data.length)]);
  }, 30_000);
});

describe('resume through tus-js-client, and HEAD on a complete upload', () => {
  it('an upload aborted after two chunks resumes from the server’s offset in a new client (what the browser does)', async () => {
    const data = randomBytes(6 * 1024 * 1024);
    let url = '';
    await new Promise<void>((resolve, reject) => {
      const u = new tus.Upload(data, {
        endpoint: c.s.url + UPLOADS,
        headers: { authorization: c.token },
        metadata: meta('resumed.bin'),
        chunkSize: 1024 * 1024,
        retryDelays: [],
        onError: reject,
        onAfterResponse: (_req, res) => {
          url = u.url ?? url;
          // After two chunks: abort, as a closed tab would.
          if (res.getHeader('upload-offset') === String(2 * 1024 * 1024)) u.abort().then(() => resolve(), reject);
        },
      });
      u.start();
    });
    expect(url).toMatch(/\/api\/filebrowser\/uploads\/[0-9a-f]{32}$/);
    expect(await exists(path.join(root, 'resumed.bin'))).toBe(false);
    const offsets: number[] = [];
    const done = await new Promise<string | null>((resolve, reject) => {
      const u = new tus.Upload(data, {
        uploadUrl: url,
        headers: { authorization: c.token },
        retryDelays: [],
        onError: reject,
        onAfterResponse: (req) => {
          if (req.getMethod() === 'PATCH') offsets.push(Number(req.getHeader('Upload-Offset')));
        },
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader('upload-result') ?? null),
      });
      u.start();
    });
    expect(done).toBe('done');
    // The new client started where the server stood, not at 0.
    expect(offsets[0]).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect(sha256(await fs.readFile(path.join(root, 'resumed.bin')))).toBe(sha256(data));
  }, 30_000);

  it('a complete upload whose placing did not happen is placed when HEAD asks', async () => {
    const r = await c.create(meta('late.txt'), 4);
    expect(r.status).toBe(201);
    // The bytes reached the partial file but the answer (and the placing) never came.
    const [part] = (await partFiles(root)).filter((n) => n.startsWith('.late.txt.'));
    await fs.writeFile(path.join(root, part), 'late');
    const head = await c.head(r.location);
    expect([head.status, head.headers.get('upload-offset')]).toEqual([200, '4']);
    expect(await fs.readFile(path.join(root, 'late.txt'), 'utf8')).toBe('late');
    expect((await partFiles(root)).filter((n) => n.startsWith('.late.txt.'))).toEqual([]);
  });

  it('under the security entrance the Location carries its prefix', async () => {
    await c.s.call('PUT', '/api/baseconfigure', { token: c.token, body: { securityEntrance: 'hidden-door' } });
    try {
      const res = await fetch(`${c.s.url}/hidden-door${UPLOADS}`, {
        method: 'POST',
        headers: {
          authorization: c.token,
          'tus-resumable': '1.0.0',
          'upload-length': '2',
          'upload-metadata': metaHeader(meta('door.txt')),
        },
      });
      expect(res.status).toBe(201);
      const location = res.headers.get('location') ?? '';
      expect(location).toMatch(/^\/hidden-door\/api\/filebrowser\/uploads\/[0-9a-f]{32}$/);
      const patch = await fetch(c.s.url + location, {
        method: 'PATCH',
        headers: {
          authorization: c.token,
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body: 'ok',
      });
      expect(patch.status).toBe(204);
      expect(await fs.readFile(path.join(root, 'door.txt'), 'utf8')).toBe('ok');
    } finally {
      await c.s.call('PUT', '/hidden-door/api/baseconfigure', { token: c.token, body: { securityEntrance: '' } });
    }
  });
});

describe('a remote WebDAV storage (no writes at an offset: the bytes are gathered locally)', () => {
  it('a folder upload and a cut, resumed upload land byte-exact on the remote server', async () => {
    const small = randomBytes(100_000);
    expect(await c.upload(small, { storage: keys.remote, dir: '/', relativePath: 'remote/day/r.bin' })).toEqual({
      result: 'done',
      path: '/remote/day/r.bin',
    });
    expect(sha256(await fs.readFile(path.join(apache.root, 'remote/day/r.bin')))).toBe(sha256(small));
    const data = randomBytes(8 * 1024 * 1024);
    const created = await c.create({ storage: keys.remote, dir: '/', relativePath: 'cut.bin' }, data.length);
    expect(created.status).toBe(201);
    await patchCut(c, created.location, 0, data, 3 * 1024 * 1024);
    const offset = Number((await c.head(created.location)).headers.get('upload-offset'));
    expect(offset).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect((await c.patch(created.location, offset, data.subarray(offset))).status).toBe(204);
    expect(sha256(await fs.readFile(path.join(apache.root, 'cut.bin')))).toBe(sha256(data));
    // Nothing left behind, on the server or in the config folder.
    expect(await partFiles(apache.root)).toEqual([]);
    const kept = await fs.readdir(path.join(c.s.configDir, 'filebrowser', 'uploads'));
    expect(kept.filter((n) => n.includes(created.location.split('/').pop() as string))).toEqual([]);
  }, 30_000);
});

describe('refusals', () => {
  it('bad metadata is refused at creation, naming the field, and creates nothing', async () => {
    const before = await fs.readdir(root);
    const cases: [Record<string, string>, number, string, string][] = [
      [{ dir: '/', relativePath: 'x' }, 400, 'storage', 'invalidType'],
      [meta('x', { storage: 'nope' }), 404, 'storage', 'storageUnavailable'],
      [meta('x', { dir: 'relative' }), 400, 'dir', 'pathInvalid'],
      [meta('a/../../x'), 400, 'relativePath', 'nameInvalid'],
      [meta('a//x'), 400, 'relativePath', 'nameInvalid'],
      [meta('x', { conflict: 'overwrite' }), 400, 'conflict', 'invalidValue'],
      [meta('x', { mtime: 'soon' }), 400, 'mtime', 'invalidType'],
      [meta('x', { dir: '/b.txt' }), 409, 'dir', 'storage_notDir'],
      [meta('x', { dir: '/missing' }), 404, 'dir', 'storage_notFound'],
    ];
    for (const [m, status, field, code] of cases) {
      const r = await c.create(m, 10);
      expect([r.status, JSON.parse(r.text)], JSON.stringify(m)).toMatchObject([status, { field, code }]);
    }
    // Upload-Length beyond 2^53 that tus' digit check lets through (2^53 + 2 prints as itself).
    const big = await c.create(meta('x'), 0, { 'upload-length': '9007199254740994' });
    expect(big.status).toBe(400);
    expect(JSON.parse(big.text)).toMatchObject({ field: 'Upload-Length' });
    expect(await fs.readdir(root)).toEqual(before);
  });

  it('a read-only storage refuses at creation', async () => {
    const r = await c.create({ storage: keys.locked, dir: '/', relativePath: 'x.txt' }, 3);
    expect(r.status).toBe(403);
    expect(JSON.parse(r.text)).toMatchObject({ code: 'storage_readOnly' });
    expect(await fs.readdir(locked)).toEqual([]);
  });

  it('more than the storage has free is refused (uploadTooLarge)', async () => {
    const r = await c.create(meta('huge.bin'), 2 ** 52);
    expect(r.status).toBe(507);
    expect(JSON.parse(r.text)).toMatchObject({ code: 'uploadTooLarge', params: { size: 2 ** 52 } });
  });

  it('without the admin token nothing answers but 401', async () => {
    for (const method of ['POST', 'HEAD', 'PATCH', 'DELETE']) {
      const url = method === 'POST' ? '/api/filebrowser/uploads' : `/api/filebrowser/uploads/${'0'.repeat(32)}`;
      const res = await fetch(c.s.url + url, { method, headers: { 'tus-resumable': '1.0.0', 'upload-length': '1' } });
      expect(res.status, method).toBe(401);
    }
  });

  it('the escape corpus in dir and relativePath: nothing created outside the root, no secret in an answer', async () => {
    const cases = HTTP_ESCAPE_TAILS.flatMap((tail) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(tail);
      } catch {
        decoded = tail;
      }
      return [
        { storage: keys.escape, dir: `/${decoded}`, relativePath: 'escaped.txt' },
        { storage: keys.escape, dir: '/', relativePath: decoded },
        { storage: keys.escape, dir: '/sub/up', relativePath: 'escaped.txt' },
        { storage: keys.escape, dir: '/link-out', relativePath: decoded.split('/').pop() || 'x' },
      ];
    });
    let answers = '';
    let created = 0;
    // Eight at a time: the corpus is long, and the answers do not depend on each other.
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async (m) => {
          const r = await c.create(m, 5);
          answers += r.text;
          if (r.status === 201) {
            created++;
            answers += await (await c.patch(r.location, 0, Buffer.from('PWNED'))).text();
          }
        }),
      );
    }
    expect(sandbox.markers.filter((mk) => answers.includes(mk))).toEqual([]);
    expect(await sandbox.changedOutside()).toEqual([]);
    // Some of the odd names are plain (odd) names inside the root: those may be created, inside.
    expect(created).toBeLessThan(cases.length);
  }, 30_000);
});

describe('termination and expiry', () => {
  it('DELETE removes the partial file and forgets the upload', async () => {
    const r = await c.create(meta('cancel/me.bin'), 1000);
    expect(r.status).toBe(201);
    expect((await c.patch(r.location, 0, randomBytes(400))).status).toBe(204);
    expect(await partFiles(path.join(root, 'cancel'))).toHaveLength(1);
    const del = await fetch(c.s.url + r.location, {
      method: 'DELETE',
      headers: { authorization: c.token, 'tus-resumable': '1.0.0' },
    });
    expect(del.status).toBe(204);
    expect(await partFiles(path.join(root, 'cancel'))).toEqual([]);
    expect((await c.head(r.location)).status).toBe(404);
    expect(await exists(path.join(root, 'cancel', 'me.bin'))).toBe(false);
  });

  it('an unfinished upload past uploadExpiryHours is swept (clock moved forward) and logged', async () => {
    const r = await c.create(meta('stale.bin'), 1000);
    expect((await c.patch(r.location, 0, randomBytes(10))).status).toBe(204);
    expect(r.status).toBe(201);
    const uploads = c.runtime().uploads;
    // Not yet: an hour later with the 24 h default.
    expect(await uploads.sweep(Date.now() + 3_600_000)).toBe(0);
    expect((await c.head(r.location)).status).toBe(200);
    expect(await uploads.sweep(Date.now() + 25 * 3_600_000)).toBeGreaterThanOrEqual(1);
    expect((await c.head(r.location)).status).toBe(404);
    expect((await partFiles(root)).filter((n) => n.includes('stale.bin'))).toEqual([]);
    const logs = (await c.s.call('GET', '/api/filebrowser/logs', { token: c.token })).body.logs;
    expect(logs.some((l: { code: string }) => l.code === 'uploadsExpired')).toBe(true);
  });
});
