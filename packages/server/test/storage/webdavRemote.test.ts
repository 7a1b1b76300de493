// The remote WebDAV backend against Apache mod_dav (Debian apache2, started here on a loopback
// port) and our own WebDAV engine, and against small hostile servers for the bounds (huge, broken and silent answers).
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Storage, StorageError, type StorageErrorCode } from '../../src/core/storage/types.js';
import { createWebdavStorage, parseMultistatus } from '../../src/core/storage/webdavRemote.js';
import { tempDir } from '../harness.js';
import { startDav } from '../webdav-engine-helpers.js';
import { chownTree, startApacheDav } from './apacheDav.js';

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

const put = async (s: Storage, p: string, ...data: (string | Buffer)[]) =>
  pipeline(Readable.from(data.map((d) => Buffer.from(d))), await s.write(p, { mode: 'replace' }));

/** A WebDAV server the remote backend is pointed at: where its files land, how to reach it. */
interface Peer {
  url: string;
  user: string;
  password: string;
  root: string;
  /** Whether it checks passwords (the bare engine has no users: the module's listener does that). */
  checksPassword: boolean;
  /** Hand files made behind the server's back to the user it runs as. */
  chown?: (dir: string) => Promise<void>;
  stop(): Promise<void>;
}

async function apachePeer(): Promise<Peer> {
  const dir = await tempDir('lucky-davremote-');
  const apache = await startApacheDav(dir);
  return {
    url: apache.url,
    user: apache.user,
    password: apache.password,
    root: apache.root,
    checksPassword: true,
    chown: async (d) => {
      if (process.getuid?.() === 0) await chownTree(d, 'www-data');
    },
    stop: async () => {
      await apache.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Our own WebDAV engine (modules/webdav/dav) over a local storage: the remote backend and the server agree. */
async function ownPeer(): Promise<Peer> {
  const dav = await startDav({ prefix: '/dav', mounts: [{ name: 'files', storage: 'main' }] });
  return {
    url: `${dav.origin}/dav/files/`,
    user: 'tester',
    password: 'unused',
    root: dav.roots.get('main') as string,
    checksPassword: false,
    stop: () => dav.close(),
  };
}

describe.each([
  ['Apache mod_dav', apachePeer],
  ['our own WebDAV engine', ownPeer],
] as const)('remote WebDAV storage against %s', (_name, startPeer) => {
  let apache: Peer;
  let st: Storage;

  beforeAll(async () => {
    apache = await startPeer();
    st = createWebdavStorage({
      key: 'remote',
      url: apache.url,
      user: apache.user,
      password: apache.password,
      tlsVerify: true,
      readOnly: false,
    });
  }, 20_000);

  afterAll(async () => {
    await st?.close();
    await apache?.stop();
  });

  it('probes, and says why when it cannot', async () => {
    await st.probe();
    const wrong = createWebdavStorage({
      key: 'x',
      url: apache.url,
      user: apache.user,
      password: 'nope',
      tlsVerify: true,
      readOnly: false,
    });
    expect(await codeOf(wrong.probe())).toBe(apache.checksPassword ? 'denied' : undefined);
    await wrong.close();
    const missing = createWebdavStorage({
      key: 'x',
      url: `${apache.url}no/such/`,
      user: apache.user,
      password: apache.password,
      tlsVerify: true,
      readOnly: false,
    });
    expect(await codeOf(missing.probe())).toBe('unreachable');
    await missing.close();
  });

  it('writes, stats, lists and reads ranges, with names that need encoding', async () => {
    await st.mkdir('/docs');
    const name = '中文 #1 %20 & ü.txt';
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 'x');
    big.write('HEAD', 0);
    big.write('TAIL', big.length - 4);
    await put(st, `/docs/${name}`, big.subarray(0, 1_000_000), big.subarray(1_000_000));
    expect((await fs.readFile(path.join(apache.root, 'docs', name))).equals(big)).toBe(true);
    const e = await st.stat(`/docs/${name}`);
    expect(e).toMatchObject({ name, path: `/docs/${name}`, kind: 'file', size: big.length });
    expect(e.etag).toMatch(/^".+"$/);
    expect(e.mtimeMs).toBeGreaterThan(Date.UTC(2020, 0, 1));
    expect(await st.stat('/docs')).toMatchObject({ kind: 'dir', name: 'docs' });
    await put(st, '/docs/b.txt', 'bee');
    const list = await st.list('/docs');
    expect(list.map((x) => x.name).sort()).toEqual(['b.txt', name].sort());
    expect((await st.list('/')).map((x) => [x.name, x.kind])).toEqual([['docs', 'dir']]);
    expect(await text(await st.read(`/docs/${name}`, { start: 0, end: 3 }))).toBe('HEAD');
    expect(await text(await st.read(`/docs/${name}`, { start: big.length - 4 }))).toBe('TAIL');
    expect((await text(await st.read(`/docs/${name}`))).length).toBe(big.length);
    expect(await text(await st.read('/docs/b.txt', { start: 10 }))).toBe('');
    expect(await codeOf(st.list('/docs/b.txt'))).toBe('notDir');
    expect(await codeOf(st.stat('/docs/none'))).toBe('notFound');
    expect(await codeOf(st.read('/docs/none'))).toBe('notFound');
  });

  it('create refuses an existing file; append and offset are not WebDAV', async () => {
    await pipeline(Readable.from([Buffer.from('one')]), await st.write('/c.txt', { mode: 'create' }));
    const again = await st.write('/c.txt', { mode: 'create' });
    await expect(pipeline(Readable.from([Buffer.from('two')]), again)).rejects.toMatchObject({ code: 'exists' });
    expect(await fs.readFile(path.join(apache.root, 'c.txt'), 'utf8')).toBe('one');
    expect(await codeOf(st.write('/c.txt', { mode: 'append' }))).toBe('failed');
    expect(await codeOf(st.write('/c.txt', { mode: 'offset', offset: 1 }))).toBe('failed');
  });

  it('mkdir, move, copy and delete map the server answers', async () => {
    await st.mkdir('/m');
    expect(await codeOf(st.mkdir('/m'))).toBe('exists');
    expect(await codeOf(st.mkdir('/nope/x'))).toBe('conflict');
    await put(st, '/m/f', 'f');
    await st.mkdir('/m/sub');
    await put(st, '/m/sub/g', 'g');
    await st.copy('/m', '/m2', { overwrite: false, recursive: true });
    expect(await fs.readFile(path.join(apache.root, 'm2', 'sub', 'g'), 'utf8')).toBe('g');
    await st.copy('/m', '/m0', { overwrite: false, recursive: false });
    expect(await fs.readdir(path.join(apache.root, 'm0'))).toEqual([]);
    expect(await codeOf(st.copy('/m', '/m2', { overwrite: false, recursive: true }))).toBe('exists');
    expect(await codeOf(st.move('/m', '/m/sub/x', { overwrite: false }))).toBe('conflict');
    await st.move('/m2', '/m3', { overwrite: false });
    expect((await st.list('/m3')).map((e) => e.name).sort()).toEqual(['f', 'sub']);
    await put(st, '/x', 'x');
    await put(st, '/y', 'y');
    expect(await codeOf(st.move('/x', '/y', { overwrite: false }))).toBe('exists');
    await st.move('/x', '/y', { overwrite: true });
    expect(await fs.readFile(path.join(apache.root, 'y'), 'utf8')).toBe('x');
    // RFC 4918 says 409 for a missing parent of the target; Apache 2.4 answers 500.
    expect(['conflict', 'failed']).toContain(await codeOf(st.move('/y', '/none/y', { overwrite: false })));
    expect(await fs.readFile(path.join(apache.root, 'y'), 'utf8')).toBe('x');
    await st.delete('/m3');
    expect(await codeOf(st.stat('/m3'))).toBe('notFound');
    expect(await codeOf(st.delete('/m3'))).toBe('notFound');
    expect(await codeOf(st.delete('/'))).toBe('denied');
    // Best effort: Apache keeps getlastmodified to itself, and that is not an error.
    await st.setMtime('/y', Date.UTC(2020, 0, 1));
    expect(await codeOf(st.setMtime('/gone', 0))).toBe('notFound');
  });

  it('answers the space the server tells (RFC 4331), or leaves it out', async () => {
    const s = await st.space();
    for (const v of [s.free, s.used, s.total]) if (v !== undefined) expect(v).toBeGreaterThanOrEqual(0);
  });

  it('read-only refuses every write before asking the server', async () => {
    const ro = createWebdavStorage({
      key: 'ro',
      url: apache.url,
      user: apache.user,
      password: apache.password,
      tlsVerify: true,
      readOnly: true,
    });
    await put(st, '/keep', 'keep');
    for (const mode of ['create', 'replace', 'append', 'offset'] as const)
      expect(await codeOf(ro.write('/keep', { mode }))).toBe('readOnly');
    expect(await codeOf(ro.mkdir('/r'))).toBe('readOnly');
    expect(await codeOf(ro.move('/keep', '/k2', { overwrite: true }))).toBe('readOnly');
    expect(await codeOf(ro.copy('/keep', '/k2', { overwrite: true, recursive: true }))).toBe('readOnly');
    expect(await codeOf(ro.delete('/keep'))).toBe('readOnly');
    expect(await codeOf(ro.setMtime('/keep', 0))).toBe('readOnly');
    expect(await text(await ro.read('/keep'))).toBe('keep');
    await ro.close();
  });

  it('lists a folder written outside the storage too (names as the server encodes them)', async () => {
    await fs.mkdir(path.join(apache.root, 'outside-made'));
    await fs.writeFile(path.join(apache.root, 'outside-made', 'Cafe\u0301 (1).txt'), 'z');
    await apache.chown?.(path.join(apache.root, 'outside-made'));
    const [e] = await st.list('/outside-made');
    expect(e).toMatchObject({ name: 'Cafe\u0301 (1).txt', path: '/outside-made/Caf\u00e9 (1).txt', size: 1 });
    expect(await text(await st.read(e.path))).toBe('z');
    // A fresh storage (nothing learnt yet) finds it by the NFC path too, and replaces it in place.
    const fresh = createWebdavStorage({
      key: 'f',
      url: apache.url,
      user: apache.user,
      password: apache.password,
      tlsVerify: true,
      readOnly: false,
    });
    expect((await fresh.stat('/outside-made/Caf\u00e9 (1).txt')).size).toBe(1);
    await put(fresh, '/outside-made/Caf\u00e9 (1).txt', 'new');
    expect(await fs.readdir(path.join(apache.root, 'outside-made'))).toEqual(['Cafe\u0301 (1).txt']);
    await fresh.close();
  });
});

describe('remote WebDAV storage against hostile servers', () => {
  let server: http.Server;
  let url: string;
  let mode: 'huge' | 'broken' | 'silent' | 'entities' | 'wrongRoot' | 'nextcloud' = 'huge';
  const open: http.ServerResponse[] = [];
  const proppatches: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (mode === 'nextcloud') {
        // Takes DAV:lastmodified only (as Nextcloud does); anything else is 403 in the propstat.
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          proppatches.push(body);
          const ok = /<Z:lastmodified>\d+<\/Z:lastmodified>/.test(body) && body.includes('xmlns:Z="DAV:"');
          res.writeHead(207, { 'content-type': 'application/xml' });
          res.end(
            `<D:multistatus xmlns:D="DAV:"><D:response><D:href>/f</D:href><D:propstat><D:prop>${ok ? '<D:lastmodified/>' : '<X:other xmlns:X="urn:x"/>'}</D:prop><D:status>HTTP/1.1 ${ok ? '200 OK' : '403 Forbidden'}</D:status></D:propstat></D:response></D:multistatus>`,
          );
        });
        return;
      }
      req.resume();
      if (mode === 'silent') {
        open.push(res);
        return;
      }
      res.writeHead(207, { 'content-type': 'application/xml' });
      if (mode === 'broken') res.end('<D:multistatus xmlns:D="DAV:"><D:response><D:href>/');
      else if (mode === 'wrongRoot') res.end('<html><body>hello</body></html>');
      else if (mode === 'entities')
        res.end(
          `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY x SYSTEM "file:///etc/passwd">]>
<D:multistatus xmlns:D="DAV:"><D:response><D:href>/&b;&x;</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>`,
        );
      else {
        // An endless multistatus: the client must stop reading at its cap.
        res.write('<D:multistatus xmlns:D="DAV:">');
        const chunk = `<D:response><D:href>/${'x'.repeat(1000)}</D:href></D:response>`.repeat(64);
        const pump = () => {
          while (res.write(chunk)) {
            /* keep the socket full */
          }
        };
        res.on('drain', pump);
        res.on('close', () => res.off('drain', pump));
        pump();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    for (const r of open) r.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('stops reading a PROPFIND answer at the cap', async () => {
    mode = 'huge';
    const s = createWebdavStorage({
      key: 'h',
      url,
      user: '',
      password: '',
      tlsVerify: true,
      readOnly: false,
      maxPropfindBytes: 1024 * 1024,
    });
    const before = process.memoryUsage().rss;
    expect(await codeOf(s.list('/'))).toBe('badAnswer');
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    await s.close();
  });

  it('refuses broken XML and answers that are not a multistatus', async () => {
    const s = createWebdavStorage({ key: 'b', url, user: '', password: '', tlsVerify: true, readOnly: false });
    mode = 'broken';
    expect(await codeOf(s.stat('/'))).toBe('badAnswer');
    mode = 'wrongRoot';
    expect(await codeOf(s.list('/'))).toBe('badAnswer');
    await s.close();
  });

  it('never expands entities a server declares (no XXE, no entity bomb)', async () => {
    mode = 'entities';
    const s = createWebdavStorage({ key: 'e', url, user: '', password: '', tlsVerify: true, readOnly: false });
    const r = await s.stat('/').then(
      (e) => JSON.stringify(e),
      (e: StorageError) => e.code,
    );
    expect(r).not.toContain('root:');
    expect(r).not.toContain('aaaaaaaaaa');
    await s.close();
  });

  it('gives up on a server that never answers (the time-out under test)', async () => {
    mode = 'silent';
    const s = createWebdavStorage({
      key: 's',
      url,
      user: '',
      password: '',
      tlsVerify: true,
      readOnly: false,
      timeoutMs: 300,
    });
    expect(await codeOf(s.probe())).toBe('unreachable');
    await s.close();
  });

  it('sets a file time by the property the server takes, one PROPPATCH each, stopping at the first taken', async () => {
    mode = 'nextcloud';
    const s = createWebdavStorage({ key: 'n', url, user: '', password: '', tlsVerify: true, readOnly: false });
    await s.setMtime('/f', Date.UTC(2021, 5, 1));
    expect(proppatches).toHaveLength(2);
    expect(proppatches[0]).toContain('Win32LastModifiedTime');
    expect(proppatches[1]).toContain(`<Z:lastmodified>${Date.UTC(2021, 5, 1) / 1000}</Z:lastmodified>`);
    await s.close();
  });

  it('says unreachable for a closed port', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const s = createWebdavStorage({
      key: 'c',
      url: `http://127.0.0.1:${port}/`,
      user: '',
      password: '',
      tlsVerify: true,
      readOnly: false,
    });
    expect(await codeOf(s.probe())).toBe('unreachable');
    await s.close();
  });
});

describe('parseMultistatus', () => {
  it('reads properties by namespace, not by prefix', () => {
    const rs = parseMultistatus(`<?xml version="1.0"?>
<x:multistatus xmlns:x="DAV:" xmlns:y="urn:other"><x:response><x:href>/a%20b/</x:href>
<x:propstat><x:prop><x:resourcetype><x:collection/></x:resourcetype><y:getcontentlength>9</y:getcontentlength><x:getetag>"e"</x:getetag></x:prop><x:status>HTTP/1.1 200 OK</x:status></x:propstat>
<x:propstat><x:prop><x:getcontentlength/></x:prop><x:status>HTTP/1.1 404 Not Found</x:status></x:propstat>
</x:response></x:multistatus>`);
    expect(rs).toHaveLength(1);
    expect(rs[0].href).toBe('/a%20b/');
    expect(rs[0].collection).toBe(true);
    expect(rs[0].props.get('getetag')).toBe('"e"');
    expect(rs[0].props.get('{urn:other}getcontentlength')).toBe('9');
    expect(rs[0].props.has('getcontentlength')).toBe(false);
  });
});
