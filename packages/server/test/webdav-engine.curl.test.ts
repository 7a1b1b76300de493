// curl against the engine: byte ranges (206 / 416), conditional GETs (304) and conditional PUTs
// (412), as a download manager or a sync tool uses them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './harness.js';
import { type DavServer, run, startDav } from './webdav-engine-helpers.js';

let server: DavServer;
let root: string;
let work: string;
const content = Buffer.from('0123456789abcdefghij');

interface Curled {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** curl with the given arguments against a path of the service; the head parsed, the body as bytes. */
async function curl(args: string[], urlPath: string): Promise<Curled> {
  const bodyFile = path.join(work, `body-${Math.random().toString(36).slice(2)}`);
  const r = await run('curl', ['-s', '-S', '-D', '-', '-o', bodyFile, ...args, `${server.origin}${urlPath}`]);
  expect(r.code, r.stderr).toBe(0);
  const blocks = r.stdout.split(/\r\n\r\n/).filter((b) => b.startsWith('HTTP/'));
  const last = blocks[blocks.length - 1].split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of last.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const body = await fs.readFile(bodyFile).catch(() => Buffer.alloc(0));
  await fs.rm(bodyFile, { force: true });
  return { status: Number(last[0].split(' ')[1]), headers, body };
}

beforeAll(async () => {
  server = await startDav();
  root = server.roots.get('main') as string;
  work = await tempDir('lucky-dav-curl-');
  await fs.writeFile(path.join(root, 'file.txt'), content);
});
afterAll(async () => {
  await server?.close();
  await fs.rm(work, { recursive: true, force: true });
});

describe('ranges', () => {
  it('answers a single range with 206 and its Content-Range', async () => {
    const r = await curl(['-r', '2-5'], '/dav/files/file.txt');
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 2-5/${content.length}`);
    expect(r.body.toString()).toBe('2345');
  });

  it('answers a suffix range and an open-ended one', async () => {
    expect((await curl(['-r', '-3'], '/dav/files/file.txt')).body.toString()).toBe('hij');
    const open = await curl(['-r', '15-'], '/dav/files/file.txt');
    expect(open.status).toBe(206);
    expect(open.body.toString()).toBe('fghij');
  });

  it('answers 416 with the size for a range past the end', async () => {
    const r = await curl(['-r', '100-200'], '/dav/files/file.txt');
    expect(r.status).toBe(416);
    expect(r.headers['content-range']).toBe(`bytes */${content.length}`);
  });

  it('answers several ranges with the whole file', async () => {
    const r = await curl(['-r', '0-1,4-5'], '/dav/files/file.txt');
    expect(r.status).toBe(200);
    expect(r.body.equals(content)).toBe(true);
  });

  it('resumes a download (curl -C) byte-exact', async () => {
    const part = path.join(work, 'resume.bin');
    await fs.writeFile(part, content.subarray(0, 7));
    const r = await run('curl', ['-s', '-S', '-C', '-', '-o', part, `${server.origin}/dav/files/file.txt`]);
    expect(r.code, r.stderr).toBe(0);
    expect((await fs.readFile(part)).equals(content)).toBe(true);
  });
});

describe('conditional GET', () => {
  it('answers 304 to If-None-Match with the ETag and to If-Modified-Since with Last-Modified', async () => {
    const first = await curl([], '/dav/files/file.txt');
    expect(first.status).toBe(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"/);
    const byTag = await curl(['-H', `If-None-Match: ${etag}`], '/dav/files/file.txt');
    expect(byTag.status).toBe(304);
    expect(byTag.headers.etag).toBe(etag);
    const byDate = await curl(['-H', `If-Modified-Since: ${first.headers['last-modified']}`], '/dav/files/file.txt');
    expect(byDate.status).toBe(304);
    expect((await curl(['-H', 'If-None-Match: "other"'], '/dav/files/file.txt')).status).toBe(200);
  });

  it('gives the whole file when If-Range no longer matches, the range when it does', async () => {
    const etag = (await curl([], '/dav/files/file.txt')).headers.etag;
    const stale = await curl(['-r', '0-1', '-H', 'If-Range: "stale"'], '/dav/files/file.txt');
    expect(stale.status).toBe(200);
    const fresh = await curl(['-r', '0-1', '-H', `If-Range: ${etag}`], '/dav/files/file.txt');
    expect(fresh.status).toBe(206);
  });

  it('answers 412 to If-Match with another tag and to If-Unmodified-Since in the past', async () => {
    expect((await curl(['-H', 'If-Match: "nope"'], '/dav/files/file.txt')).status).toBe(412);
    expect(
      (await curl(['-H', 'If-Unmodified-Since: Sat, 01 Jan 2000 00:00:00 GMT'], '/dav/files/file.txt')).status,
    ).toBe(412);
  });
});

describe('conditional PUT', () => {
  it('refuses If-Match with a stale ETag (412) and takes the current one (204)', async () => {
    await fs.writeFile(path.join(root, 'edit.txt'), 'v1');
    const etag = (await curl(['-I'], '/dav/files/edit.txt')).headers.etag;
    const upload = path.join(work, 'v2.txt');
    await fs.writeFile(upload, 'v2');
    const stale = await curl(['-T', upload, '-H', 'If-Match: "stale"'], '/dav/files/edit.txt');
    expect(stale.status).toBe(412);
    expect(await fs.readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('v1');
    const ok = await curl(['-T', upload, '-H', `If-Match: ${etag}`], '/dav/files/edit.txt');
    expect(ok.status).toBe(204);
    expect(await fs.readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('v2');
    // The answer carries the new tag, which a second conditional PUT can use.
    expect(ok.headers.etag).not.toBe(etag);
  });

  it('creates with If-None-Match: * only where nothing is (Windows sends it)', async () => {
    const upload = path.join(work, 'new.txt');
    await fs.writeFile(upload, 'new');
    expect((await curl(['-T', upload, '-H', 'If-None-Match: *'], '/dav/files/fresh.txt')).status).toBe(201);
    expect((await curl(['-T', upload, '-H', 'If-None-Match: *'], '/dav/files/fresh.txt')).status).toBe(412);
  });

  it('refuses a partial PUT (Content-Range) with 501 and leaves the file', async () => {
    const upload = path.join(work, 'part.txt');
    await fs.writeFile(upload, 'XY');
    const r = await curl(['-T', upload, '-H', 'Content-Range: bytes 0-1/20'], '/dav/files/file.txt');
    expect(r.status).toBe(501);
    expect((await fs.readFile(path.join(root, 'file.txt'))).equals(content)).toBe(true);
  });
});
