import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './harness.js';
import { curl, freePort, get, type Rp, startRp } from './reverseproxy-helpers.js';

let rp: Rp;
let port: number;
let base: string;

beforeAll(async () => {
  rp = await startRp();
  base = await tempDir('lucky-files-');
  const root = path.join(base, 'root');
  await fs.mkdir(path.join(root, 'sub'), { recursive: true });
  await fs.mkdir(path.join(root, 'site'), { recursive: true });
  await fs.writeFile(path.join(root, 'hello.txt'), '0123456789');
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
