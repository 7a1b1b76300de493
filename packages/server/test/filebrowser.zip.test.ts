// Zip downloads of the file manager: a folder tree with nested, empty and non-ASCII entries comes
// out as an archive Debian's `unzip -t` accepts and that unpacks to the same tree; a selection
// holds only the chosen names; 300 MB (sparse files) stream through with the server's memory flat
// and one source file open at a time; and a client that goes away mid-archive leaves no file open.
// The console runs in this process, so its memory and open descriptors are this process's.
import { execFile } from 'node:child_process';
import { createWriteStream, promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FbConsole, startFbConsole } from './filebrowser-helpers.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const memory = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.arrayBuffers, rss: m.rss };
};
const MB = 1024 * 1024;

let c: FbConsole;
let root: string;
let key: string;
let out: string;

beforeAll(async () => {
  c = await startFbConsole();
  root = path.join(c.box, 'files');
  out = path.join(c.box, 'out');
  await fs.mkdir(out);
  key = await c.addStorage('Files', root);
}, 30_000);
afterAll(async () => {
  await c?.close();
});

const zipUrl = (q: Record<string, string | string[]>) => `/api/filebrowser/zip?${c.query({ storage: key, ...q })}`;

/** Every file and folder under `dir` as relative path → content ('<dir>' for folders). */
async function tree(dir: string): Promise<Record<string, string>> {
  const outp: Record<string, string> = {};
  for (const rel of (await fs.readdir(dir, { recursive: true })) as string[]) {
    const st = await fs.stat(path.join(dir, rel));
    outp[rel] = st.isDirectory() ? '<dir>' : (await fs.readFile(path.join(dir, rel))).toString('base64');
  }
  return outp;
}

/** The zip at `url` saved to `file`; its answer's headers. */
function download(url: string, file: string, onData?: (total: number) => void): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: c.port, path: url, headers: { authorization: c.token } }, (res) => {
      let total = 0;
      if (onData)
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          onData(total);
        });
      pipeline(res, createWriteStream(file)).then(() => resolve(res.headers), reject);
    });
    req.on('error', reject);
  });
}

/** Open descriptors of this process that point under `dir`. */
async function openUnder(dir: string): Promise<string[]> {
  const links: string[] = [];
  for (const fd of await fs.readdir('/proc/self/fd')) {
    const target = await fs.readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(`${dir}/`)) links.push(target);
  }
  return links;
}

describe('a folder tree as a zip', () => {
  beforeAll(async () => {
    const t = path.join(root, 'trip');
    await fs.mkdir(path.join(t, 'day 1', 'raw'), { recursive: true });
    await fs.mkdir(path.join(t, 'empty'), { recursive: true });
    await fs.mkdir(path.join(t, '照片'), { recursive: true });
    await fs.writeFile(path.join(t, 'notes.md'), '# trip\n');
    await fs.writeFile(path.join(t, 'zero.bin'), '');
    await fs.writeFile(path.join(t, 'day 1', 'a.txt'), 'day one');
    await fs.writeFile(
      path.join(t, 'day 1', 'raw', 'random.bin'),
      Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251)),
    );
    await fs.writeFile(path.join(t, '照片', '海边.jpg'), 'not really a jpeg');
  });

  it('passes unzip -t and unpacks to the same tree, named after the folder', async () => {
    const file = path.join(out, 'trip.zip');
    const headers = await download(zipUrl({ dir: '/trip' }), file);
    expect(headers['content-type']).toBe('application/zip');
    expect(headers['content-disposition']).toContain(`filename*=UTF-8''trip.zip`);
    const test = await run('unzip', ['-t', file]);
    expect(test.stdout).toContain('No errors detected');
    const dest = path.join(out, 'trip');
    await run('unzip', ['-q', file, '-d', dest], { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    expect(await tree(dest)).toEqual(await tree(path.join(root, 'trip')));
  });

  it('holds only the names chosen; a single folder is named after it, the storage root after the storage', async () => {
    const file = path.join(out, 'some.zip');
    const headers = await download(zipUrl({ dir: '/trip', name: ['notes.md', 'day 1'] }), file);
    expect(headers['content-disposition']).toContain(`filename*=UTF-8''trip.zip`);
    const { stdout } = await run('unzip', ['-Z1', file]);
    expect(stdout.trim().split('\n').sort()).toEqual([
      'day 1/',
      'day 1/a.txt',
      'day 1/raw/',
      'day 1/raw/random.bin',
      'notes.md',
    ]);
    const one = await download(zipUrl({ dir: '/trip', name: 'day 1' }), path.join(out, 'one.zip'));
    expect(one['content-disposition']).toContain(`filename*=UTF-8''day%201.zip`);
    const whole = await download(zipUrl({ dir: '/', name: ['trip'] }), path.join(out, 'whole.zip'));
    expect(whole['content-disposition']).toContain(`filename*=UTF-8''trip.zip`);
    const rootZip = await download(zipUrl({}), path.join(out, 'root.zip'));
    expect(rootZip['content-disposition']).toContain(`filename*=UTF-8''Files.zip`);
    expect((await run('unzip', ['-t', path.join(out, 'root.zip')])).stdout).toContain('No errors detected');
  });

  it('refuses a missing name before the first byte', async () => {
    const r = await c.raw(zipUrl({ dir: '/trip', name: ['notes.md', 'missing.txt'] }));
    expect([r.status, JSON.parse(r.body.toString()).code]).toEqual([404, 'storage_notFound']);
  });
});

describe('300 MB through the zip', () => {
  const big = () => path.join(root, 'big');
  beforeAll(async () => {
    await fs.mkdir(big(), { recursive: true });
    for (const n of ['a.bin', 'b.bin', 'c.bin']) {
      const h = await fs.open(path.join(big(), n), 'w');
      await h.truncate(100 * MB);
      await h.write('end-of-file', 100 * MB - 11);
      await h.close();
    }
  });

  it('streams with the memory flat and one source file open at a time', async () => {
    const before = memory();
    let peakHeap = 0;
    let peakRss = 0;
    let rssAfterStart = 0;
    let maxOpen = 0;
    let next = 0;
    const samples: Promise<void>[] = [];
    const file = path.join(out, 'big.zip');
    await download(zipUrl({ dir: '/big' }), file, (total) => {
      if (total < next) return;
      next = total + 20 * MB;
      const m = memory();
      peakHeap = Math.max(peakHeap, m.heap);
      peakRss = Math.max(peakRss, m.rss);
      // The first window's allocations (socket and stream buffers, the young generation) settle by
      // 20 MB; from there on the resident size must not follow the bytes.
      if (total >= 20 * MB && rssAfterStart === 0) rssAfterStart = m.rss;
      samples.push(
        openUnder(big()).then((l) => {
          maxOpen = Math.max(maxOpen, l.length);
        }),
      );
    });
    await Promise.all(samples);
    const size = (await fs.stat(file)).size;
    expect(size).toBeGreaterThan(300 * MB);
    expect(size).toBeLessThan(300 * MB + 4096);
    expect(samples.length).toBeGreaterThanOrEqual(14);
    // 300 MB went through; the heap and buffers grew by a few windows' worth at most (measured:
    // ~2.5 MB), the resident size by a step at the start (~66 MB) and then not at all.
    expect(peakHeap - before.heap).toBeLessThan(32 * MB);
    expect(peakRss - rssAfterStart).toBeLessThan(24 * MB);
    expect(peakRss - before.rss).toBeLessThan(128 * MB);
    expect(maxOpen).toBeLessThanOrEqual(1);
    expect(maxOpen).toBe(1);
    // The central directory names the three at their full size (the CRCs are proven by `unzip -t`
    // on the tree above; reading 300 MB again here would only cost time).
    const { stdout } = await run('unzip', ['-Zl', file]);
    const listed = stdout.split('\n').filter((l) => l.includes('.bin'));
    expect(listed.map((l) => l.split(/\s+/)[3])).toEqual(['104857600', '104857600', '104857600']);
    await fs.rm(file);
  }, 30_000);

  it('closes the source file when the client goes away mid-archive', async () => {
    let received = 0;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port: c.port, path: zipUrl({ dir: '/big' }), headers: { authorization: c.token } },
        (res) => {
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > 5 * MB && !req.destroyed) {
              req.destroy();
              resolve();
            }
          });
        },
      );
      req.on('error', (err) => (received > 5 * MB ? resolve() : reject(err)));
    });
    await waitFor(
      () => openUnder(big()),
      (l) => l.length === 0,
      { what: 'no source file open', timeout: 5000 },
    );
  });
});
