// rclone (Debian) as the interop peer: a tree with nested folders, non-ASCII and awkward names,
// an empty file and a few MiB of random bytes goes up through WebDAV and comes back byte-exact;
// rclone's server-side move (MOVE) and purge (DELETE) work too. davfs2 cannot serve here: in
// this container its FUSE mount fails every directory read (EINVAL), against Apache mod_dav as
// well, so rclone is the file-system-level client.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './harness.js';
import { type DavServer, run, startDav } from './webdav-engine-helpers.js';

let server: DavServer;
let work: string;
let config: string;
let remote: string;

const FILES: Record<string, Buffer> = {
  'big.bin': randomBytes(4 * 1024 * 1024 + 123),
  'empty.txt': Buffer.alloc(0),
  'sub/hello.txt': Buffer.from('hello\n'),
  'sub/déjà vu ü.txt': randomBytes(1000),
  'sub/deeper/100% #1 & [x] (y).dat': randomBytes(70_000),
  'sub/deeper/中文 名字.txt': Buffer.from('中文'),
};

function rclone(...args: string[]) {
  return run('rclone', ['--config', config, '--low-level-retries', '1', '--retries', '1', ...args], {
    timeoutMs: 60_000,
  });
}

async function treeOf(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (d: string, rel: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(d, e.name), r);
      else out.set(r, await fs.readFile(path.join(d, e.name)));
    }
  };
  await walk(dir, '');
  return out;
}

beforeAll(async () => {
  server = await startDav();
  work = await tempDir('lucky-dav-rclone-');
  config = path.join(work, 'rclone.conf');
  await fs.writeFile(config, '');
  remote = `:webdav,url='${server.origin}/dav/files':`;
  for (const [rel, bytes] of Object.entries(FILES)) {
    await fs.mkdir(path.dirname(path.join(work, 'up', rel)), { recursive: true });
    await fs.writeFile(path.join(work, 'up', rel), bytes);
  }
});
afterAll(async () => {
  await server?.close();
  await fs.rm(work, { recursive: true, force: true });
});

describe('rclone', () => {
  it('copies a tree up: the storage holds exactly those bytes', async () => {
    const r = await rclone('copy', path.join(work, 'up'), `${remote}tree`);
    expect(r.code, r.stderr).toBe(0);
    const stored = await treeOf(path.join(server.roots.get('main') as string, 'tree'));
    expect([...stored.keys()].sort()).toEqual(Object.keys(FILES).sort());
    for (const [rel, bytes] of Object.entries(FILES)) expect(stored.get(rel)?.equals(bytes), rel).toBe(true);
  });

  it('lists it with sizes and copies it back byte-exact', async () => {
    const ls = await rclone('lsjson', '-R', '--files-only', `${remote}tree`);
    expect(ls.code, ls.stderr).toBe(0);
    const listed = JSON.parse(ls.stdout) as { Path: string; Size: number }[];
    expect(Object.fromEntries(listed.map((e) => [e.Path, e.Size]))).toEqual(
      Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k, v.length])),
    );
    const down = await rclone('copy', `${remote}tree`, path.join(work, 'down'));
    expect(down.code, down.stderr).toBe(0);
    const back = await treeOf(path.join(work, 'down'));
    expect([...back.keys()].sort()).toEqual(Object.keys(FILES).sort());
    for (const [rel, bytes] of Object.entries(FILES)) expect(back.get(rel)?.equals(bytes), rel).toBe(true);
    const check = await rclone('check', '--size-only', path.join(work, 'up'), `${remote}tree`);
    expect(check.code, check.stderr).toBe(0);
  });

  it('moves on the server (MOVE) and purges a folder (DELETE)', async () => {
    const mv = await rclone('moveto', `${remote}tree/sub/hello.txt`, `${remote}tree/moved/hello.txt`);
    expect(mv.code, mv.stderr).toBe(0);
    const root = server.roots.get('main') as string;
    expect(await fs.readFile(path.join(root, 'tree/moved/hello.txt'), 'utf8')).toBe('hello\n');
    await expect(fs.stat(path.join(root, 'tree/sub/hello.txt'))).rejects.toThrow();
    expect(server.events.some((e) => e.method === 'MOVE' && e.status === 201)).toBe(true);
    const purge = await rclone('purge', `${remote}tree`);
    expect(purge.code, purge.stderr).toBe(0);
    await expect(fs.stat(path.join(root, 'tree'))).rejects.toThrow();
  });
});
