import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './harness.js';
import { curl, curlBytes, freePort, get, type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

let rp: Rp;
let port: number;
let base: string;
let root: string;
/** Larger than the in-memory limit: streamed from disk. */
const big = Buffer.alloc(300 * 1024, 0);
for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 251;

beforeAll(async () => {
  rp = await startRp();
  base = await tempDir('lucky-files-');
  root = path.join(base, 'root');
  await fs.mkdir(path.join(root, 'sub'), { recursive: true });
  await fs.mkdir(path.join(root, 'site'), { recursive: true });
  await fs.writeFile(path.join(root, 'hello.txt'), '0123456789');
  await fs.writeFile(path.join(root, 'big.bin'), big);
  await fs.writeFile(path.join(root, 'page.html'), '<p>v1</p>');
  await fs.writeFile(path.join(root, '.secret'), 'hidden');
  await fs.writeFile(path.join(root, 'sub', 'a b.txt'), 'spaced');
  await fs.writeFile(path.join(root, 'site', 'index.html'), '<h1>home</h1>');
  await fs.writeFile(path.join(base, 'outside.txt'), 'OUTSIDE');
  await fs.symlink(path.join(base, 'outside.txt'), path.join(root, 'escape.txt'));
  await fs.symlink(base, path.join(root, 'escapedir'));
  await fs.symlink(path.join(root, 'hello.txt'), path.join(root, 'inside-link.txt'));
  port = await freePort();
  await rp.addRule({
    port,
    subRules: [
      {
        domains: ['f.test'],
        serviceType: 'files',
        mounts: [{ urlPath: '/', dir: root, name: 'Files' }],
        listDirs: true,
      },
      { domains: ['nolist.test'], serviceType: 'files', mounts: [{ urlPath: '/static', dir: root }] },
      { domains: ['hidden.test'], serviceType: 'files', mounts: [{ urlPath: '/', dir: root }], hiddenFiles: true },
    ],
  });
});
afterAll(async () => {
  await rp.close();
  await fs.rm(base, { recursive: true, force: true });
});

describe('file server', () => {
  it('serves files with ETag / Last-Modified, 304 and ranges', async () => {
    const r = await get(port, '/hello.txt', 'f.test');
    expect(r.status).toBe(200);
    expect(r.body).toBe('0123456789');
    expect(r.headers.etag).toBeTruthy();
    expect(r.headers['last-modified']).toBeTruthy();
    expect((await get(port, '/hello.txt', 'f.test', { 'if-none-match': String(r.headers.etag) })).status).toBe(304);
    const part = await get(port, '/hello.txt', 'f.test', { range: 'bytes=2-4' });
    expect(part.status).toBe(206);
    expect(part.body).toBe('234');
    expect(part.headers['content-range']).toBe('bytes 2-4/10');
    expect((await get(port, '/sub/a%20b.txt', 'f.test')).body).toBe('spaced');
    expect((await get(port, '/inside-link.txt', 'f.test')).body).toBe('0123456789');
  });

  it('answers HEAD, If-Modified-Since, suffix and open ranges, 416, content types; streams large files', async () => {
    const h = await get(port, '/hello.txt', 'f.test', {}, 'HEAD');
    expect(h.status).toBe(200);
    expect(h.headers['content-length']).toBe('10');
    expect(h.body).toBe('');
    const lm = String(h.headers['last-modified']);
    expect((await get(port, '/hello.txt', 'f.test', { 'if-modified-since': lm })).status).toBe(304);
    expect((await get(port, '/hello.txt', 'f.test', { range: 'bytes=-3' })).body).toBe('789');
    expect((await get(port, '/hello.txt', 'f.test', { range: 'bytes=7-' })).body).toBe('789');
    const bad = await get(port, '/hello.txt', 'f.test', { range: 'bytes=20-30' });
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */10');
    // If-Range with another validator: the whole file, not a part of a file that may have changed.
    expect((await get(port, '/hello.txt', 'f.test', { range: 'bytes=0-1', 'if-range': '"other"' })).status).toBe(200);
    expect((await get(port, '/hello.txt', 'f.test')).headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await get(port, '/page.html', 'f.test')).headers['content-type']).toBe('text/html; charset=utf-8');

    const c = await curlBytes(['-H', 'Host: f.test', `http://127.0.0.1:${port}/big.bin`]);
    expect(c.status).toBe(200);
    expect(Buffer.compare(c.raw, big)).toBe(0);
    const part = await curlBytes(['-H', 'Host: f.test', '-r', '100000-200000', `http://127.0.0.1:${port}/big.bin`]);
    expect(part.status).toBe(206);
    expect(Buffer.compare(part.raw, big.subarray(100000, 200001))).toBe(0);
  });

  it('shows a changed file within a second (lookups are cached that long)', async () => {
    expect((await get(port, '/page.html', 'f.test')).body).toBe('<p>v1</p>');
    await fs.writeFile(path.join(root, 'page.html'), '<p>version 2</p>');
    const page = () => get(port, '/page.html', 'f.test');
    const opts = { timeout: 3000, interval: 100 };
    await waitFor(page, (r) => r.body === '<p>version 2</p>', { ...opts, what: 'the changed file' });
    await fs.rm(path.join(root, 'page.html'));
    await waitFor(page, (r) => r.status === 404, { ...opts, what: 'the removed file' });
  });

  it('lists directories when switched on, serves the default homepage, hides dot files', async () => {
    const list = await get(port, '/', 'f.test');
    expect(list.status).toBe(200);
    expect(list.body).toContain('hello.txt');
    expect(list.body).toContain('Files');
    expect(list.body).not.toContain('.secret');
    expect((await get(port, '/site/', 'f.test')).body).toBe('<h1>home</h1>');
    const noSlash = await get(port, '/site', 'f.test');
    expect(noSlash.status).toBe(301);
    expect(noSlash.headers.location).toBe('/site/');
    expect((await get(port, '/static/', 'nolist.test')).status).toBe(403);
    expect((await get(port, '/static/hello.txt', 'nolist.test')).body).toBe('0123456789');
    expect((await get(port, '/hello.txt', 'nolist.test')).status).toBe(404);
    expect((await get(port, '/.secret', 'f.test')).status).toBe(404);
    expect((await get(port, '/.secret', 'hidden.test')).body).toBe('hidden');
    expect((await get(port, '/missing', 'f.test')).status).toBe(404);
  });

  it('refuses traversal: .., encoded, backslash and symlinks out of the root', async () => {
    const attempts = [
      '/../outside.txt',
      '/sub/../../outside.txt',
      '/%2e%2e/outside.txt',
      '/%2E%2E%2Foutside.txt',
      '/sub%2f..%2f..%2foutside.txt',
      '/..%5coutside.txt',
      '/escape.txt',
      '/escapedir/outside.txt',
      '/hello.txt%00.png',
    ];
    for (const p of attempts) {
      const r = await get(port, p, 'f.test');
      expect([400, 403, 404], `${p} → ${r.status}`).toContain(r.status);
      expect(r.body).not.toContain('OUTSIDE');
    }
    const c = await curl(['--path-as-is', '-H', 'Host: f.test', `http://127.0.0.1:${port}/../../outside.txt`]);
    expect(c.status).toBeGreaterThanOrEqual(400);
    expect(c.body).not.toContain('OUTSIDE');
  });
});
