// The engine's protocol behaviour beyond litmus: the root of the mounts, Windows' quirks, Depth
// rules, XML hardening, COPY / MOVE between mounts and storages, the Destination header,
// read-only mounts and storages, DELETE's 207, PROPPATCH's 424, lock time-outs, dead properties
// kept on disk, and the log events.
import { promises as fs } from 'node:fs';
import http2 from 'node:http2';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Storage, StorageError } from '../src/core/storage/types.js';
import { LockManager } from '../src/modules/webdav/dav/locks.js';
import { tempDir } from './harness.js';
import { type DavServer, dav, startDav } from './webdav-engine-helpers.js';

let server: DavServer;
let main: string;
let other: string;

/** Whether anything at or below `p` is named `stuck…`. */
async function holdsStuck(s: Storage, p: string): Promise<boolean> {
  if (p.split('/').pop()?.startsWith('stuck')) return true;
  if ((await s.stat(p)).kind !== 'dir') return false;
  for (const e of await s.list(p)) if (await holdsStuck(s, e.path)) return true;
  return false;
}

/** Deleting a file named `stuck…`, or a folder holding one, fails as a permission problem would (root ignores chmod). */
function stubborn(s: Storage): Storage {
  return new Proxy(s, {
    get(target, prop, receiver) {
      if (prop === 'delete') {
        return async (p: string) => {
          if (await holdsStuck(target, p)) throw new StorageError('denied', p);
          return target.delete(p);
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

beforeAll(async () => {
  server = await startDav({
    prefix: '/dav',
    mounts: [
      { name: 'files', storage: 'main' },
      { name: 'other', storage: 'second' },
      { name: 'alias', storage: 'main' },
      { name: 'view', storage: 'second', access: 'ro' },
      { name: 'frozen', storage: 'frozen', readOnly: true },
      { name: 'hidden', storage: 'second', access: 'none' },
    ],
    wrap: stubborn,
  });
  main = server.roots.get('main') as string;
  other = server.roots.get('second') as string;
  await fs.writeFile(path.join(server.roots.get('frozen') as string, 'cold.txt'), 'cold');
});
afterAll(() => server?.close());

const propfindBody = (props: string) =>
  `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>${props}</D:prop></D:propfind>`;

describe('OPTIONS and the root', () => {
  it('announces class 1 and 2, MS-Author-Via and the methods', async () => {
    const r = await dav(server, 'OPTIONS', '/dav/files/');
    expect(r.status).toBe(200);
    expect(r.headers.get('dav')).toBe('1, 2');
    expect(r.headers.get('ms-author-via')).toBe('DAV');
    expect(r.headers.get('allow')).toContain('PROPFIND');
    expect(r.headers.get('allow')).toContain('LOCK');
  });

  it('lists the mounts the user can see at the prefix (Depth 1), and not the invisible one', async () => {
    const r = await dav(server, 'PROPFIND', '/dav', { headers: { depth: '1' } });
    expect(r.status).toBe(207);
    for (const name of ['files', 'other', 'alias', 'view', 'frozen'])
      expect(r.body).toContain(`<D:href>/dav/${name}/</D:href>`);
    expect(r.body).not.toContain('/dav/hidden/');
    expect((await dav(server, 'PROPFIND', '/dav/hidden/', { headers: { depth: '0' } })).status).toBe(404);
  });

  it('answers the server root above the prefix (the Mini-Redirector probes it) with the way to the prefix', async () => {
    const r = await dav(server, 'PROPFIND', '/', { headers: { depth: '1' } });
    expect(r.status).toBe(207);
    expect(r.body).toContain('<D:href>/</D:href>');
    expect(r.body).toContain('<D:href>/dav/</D:href>');
    expect(r.body).toContain('<D:collection/>');
  });

  it('refuses writes in the root collection itself', async () => {
    expect((await dav(server, 'MKCOL', '/dav/newmount/')).status).toBe(403);
    expect((await dav(server, 'PUT', '/dav/x.txt', { body: 'x' })).status).toBe(403);
    expect((await dav(server, 'DELETE', '/dav/files/')).status).toBe(403);
    expect((await dav(server, 'MOVE', '/dav/files/', { headers: { destination: '/dav/files2/' } })).status).toBe(403);
  });

  it('answers 404 outside the prefix and 400 for a target that does not decode', async () => {
    expect((await dav(server, 'GET', '/elsewhere/x')).status).toBe(404);
    expect((await dav(server, 'GET', '/dav/files/%c0%ae%c0%ae/x')).status).toBe(400);
    expect((await dav(server, 'GET', '/dav/files/a%2fb')).status).toBe(400);
  });
});

describe('PROPFIND', () => {
  beforeAll(async () => {
    await fs.mkdir(path.join(main, 'pf/sub'), { recursive: true });
    await fs.writeFile(path.join(main, 'pf/a.txt'), 'aaa');
    await fs.writeFile(path.join(main, 'pf/sub/deep.txt'), 'deep');
  });

  it('refuses Depth infinity with propfind-finite-depth, as Apache does', async () => {
    const r = await dav(server, 'PROPFIND', '/dav/files/pf/', { headers: { depth: 'infinity' } });
    expect(r.status).toBe(403);
    expect(r.body).toContain('<D:propfind-finite-depth');
  });

  it('reads an absent Depth as 1: the folder and its members, not their members', async () => {
    const r = await dav(server, 'PROPFIND', '/dav/files/pf/');
    expect(r.status).toBe(207);
    expect(r.body).toContain('<D:href>/dav/files/pf/a.txt</D:href>');
    expect(r.body).toContain('<D:href>/dav/files/pf/sub/</D:href>');
    expect(r.body).not.toContain('deep.txt');
  });

  it('answers named live properties, quota on folders, and 404 for unknown ones', async () => {
    const body = propfindBody(
      '<D:getcontentlength/><D:getetag/><D:getcontenttype/><D:creationdate/><D:getlastmodified/><D:quota-available-bytes/><D:quota-used-bytes/><x:nope xmlns:x="urn:x"/>',
    );
    const file = await dav(server, 'PROPFIND', '/dav/files/pf/a.txt', { headers: { depth: '0' }, body });
    expect(file.body).toContain('<D:getcontentlength>3</D:getcontentlength>');
    expect(file.body).toContain('<D:getcontenttype>text/plain; charset=utf-8</D:getcontenttype>');
    expect(file.body).toMatch(/<D:creationdate>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/D:creationdate>/);
    expect(file.body).toMatch(/<D:getlastmodified>\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT<\/D:getlastmodified>/);
    expect(file.body).toMatch(
      /<D:propstat><D:prop><D:quota-available-bytes\/><D:quota-used-bytes\/><nope xmlns="urn:x"\/><\/D:prop><D:status>HTTP\/1.1 404 Not Found/,
    );
    const dir = await dav(server, 'PROPFIND', '/dav/files/pf/', { headers: { depth: '0' }, body });
    expect(dir.body).toMatch(/<D:quota-available-bytes>\d+<\/D:quota-available-bytes>/);
    expect(dir.body).toMatch(/<D:quota-used-bytes>\d+<\/D:quota-used-bytes>/);
  });

  it('lists property names with propname', async () => {
    const r = await dav(server, 'PROPFIND', '/dav/files/pf/a.txt', {
      headers: { depth: '0' },
      body: '<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>',
    });
    expect(r.body).toContain('<D:getetag/>');
    expect(r.body).toContain('<D:supportedlock/>');
  });

  it('ignores the Windows `translate: f` header on GET', async () => {
    const r = await dav(server, 'GET', '/dav/files/pf/a.txt', { headers: { translate: 'f' } });
    expect(r.status).toBe(200);
    expect(r.body).toBe('aaa');
  });
});

describe('request bodies', () => {
  it('refuses a DOCTYPE (entity declarations: XXE, billion laughs) with 400', async () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><D:propfind xmlns:D="DAV:"><D:prop><x xmlns="urn:x">&c;</x></D:prop></D:propfind>';
    expect((await dav(server, 'PROPFIND', '/dav/files/', { headers: { depth: '0' }, body: bomb })).status).toBe(400);
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
    const r = await dav(server, 'PROPFIND', '/dav/files/', { headers: { depth: '0' }, body: xxe });
    expect(r.status).toBe(400);
    expect(r.body).not.toContain('root:');
  });

  it('refuses a body over 1 MiB with 413 (PROPFIND, LOCK)', async () => {
    const huge = `<D:propfind xmlns:D="DAV:"><D:prop>${'<x xmlns="urn:x"/>'.repeat(70_000)}</D:prop></D:propfind>`;
    expect((await dav(server, 'PROPFIND', '/dav/files/', { headers: { depth: '0' }, body: huge })).status).toBe(413);
    expect((await dav(server, 'LOCK', '/dav/files/x', { body: huge })).status).toBe(413);
  });

  it('refuses MKCOL with a body (415), on an existing name (405), without a parent (409)', async () => {
    expect(
      (await dav(server, 'MKCOL', '/dav/files/withbody', { body: 'x', headers: { 'content-type': 'text/plain' } }))
        .status,
    ).toBe(415);
    expect((await dav(server, 'MKCOL', '/dav/files/pf')).status).toBe(405);
    expect((await dav(server, 'MKCOL', '/dav/files/no/parent')).status).toBe(409);
    expect((await dav(server, 'PUT', '/dav/files/no/parent.txt', { body: 'x' })).status).toBe(409);
  });
});

describe('COPY and MOVE', () => {
  it('copies and moves a folder between two storages (streamed across), dead properties along', async () => {
    await fs.mkdir(path.join(main, 'tree/inner'), { recursive: true });
    await fs.writeFile(path.join(main, 'tree/one.bin'), Buffer.alloc(200_000, 7));
    await fs.writeFile(path.join(main, 'tree/inner/two.txt'), 'two');
    const patch = await dav(server, 'PROPPATCH', '/dav/files/tree/inner/two.txt', {
      body: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><c xmlns="urn:c">kept</c></D:prop></D:set></D:propertyupdate>',
    });
    expect(patch.status).toBe(207);
    const copy = await dav(server, 'COPY', '/dav/files/tree/', {
      headers: { destination: `${server.origin}/dav/other/tree-copy/` },
    });
    expect(copy.status).toBe(201);
    expect((await fs.readFile(path.join(other, 'tree-copy/one.bin'))).equals(Buffer.alloc(200_000, 7))).toBe(true);
    expect(await fs.readFile(path.join(other, 'tree-copy/inner/two.txt'), 'utf8')).toBe('two');
    const props = await dav(server, 'PROPFIND', '/dav/other/tree-copy/inner/two.txt', {
      headers: { depth: '0' },
      body: propfindBody('<c xmlns="urn:c"/>'),
    });
    expect(props.body).toContain('<c xmlns="urn:c">kept</c>');

    const move = await dav(server, 'MOVE', '/dav/files/tree/', { headers: { destination: '/dav/other/tree-moved/' } });
    expect(move.status).toBe(201);
    await expect(fs.stat(path.join(main, 'tree'))).rejects.toThrow();
    expect(await fs.readFile(path.join(other, 'tree-moved/inner/two.txt'), 'utf8')).toBe('two');
  });

  it('takes a Destination with another host (a reverse proxy in front) and refuses a foreign prefix with 502', async () => {
    await fs.writeFile(path.join(main, 'host.txt'), 'h');
    const r = await dav(server, 'COPY', '/dav/files/host.txt', {
      headers: { destination: 'https://nas.example:8443/dav/files/host2.txt' },
    });
    expect(r.status).toBe(201);
    expect(await fs.readFile(path.join(main, 'host2.txt'), 'utf8')).toBe('h');
    expect(
      (await dav(server, 'COPY', '/dav/files/host.txt', { headers: { destination: 'http://x/other/host3.txt' } }))
        .status,
    ).toBe(502);
  });

  it('decodes the Destination as request paths are and refuses an encoded climb', async () => {
    await fs.writeFile(path.join(main, 'enc.txt'), 'e');
    const ok = await dav(server, 'COPY', '/dav/files/enc.txt', {
      headers: { destination: '/dav/files/%E2%82%AC%20sp.txt' },
    });
    expect(ok.status).toBe(201);
    expect(await fs.readFile(path.join(main, '€ sp.txt'), 'utf8')).toBe('e');
    for (const d of ['/dav/files/%2e%2e/%2e%2e/x.txt', '/dav/files/..%2fx.txt', '/dav/files/../../x.txt']) {
      expect((await dav(server, 'COPY', '/dav/files/enc.txt', { headers: { destination: d } })).status).toBe(400);
    }
  });

  it('answers 403 for the same source and destination (also through another mount of the same storage)', async () => {
    await fs.writeFile(path.join(main, 'same.txt'), 's');
    expect(
      (await dav(server, 'MOVE', '/dav/files/same.txt', { headers: { destination: '/dav/files/same.txt' } })).status,
    ).toBe(403);
    expect(
      (await dav(server, 'COPY', '/dav/files/same.txt', { headers: { destination: '/dav/alias/same.txt' } })).status,
    ).toBe(403);
  });

  it('answers 412 for Overwrite F onto an existing resource, 204 for an overwrite, 409 without a parent', async () => {
    await fs.writeFile(path.join(main, 'ow-a.txt'), 'a');
    await fs.writeFile(path.join(main, 'ow-b.txt'), 'b');
    expect(
      (
        await dav(server, 'COPY', '/dav/files/ow-a.txt', {
          headers: { destination: '/dav/files/ow-b.txt', overwrite: 'F' },
        })
      ).status,
    ).toBe(412);
    expect(
      (
        await dav(server, 'COPY', '/dav/files/ow-a.txt', {
          headers: { destination: '/dav/files/ow-b.txt', overwrite: 'T' },
        })
      ).status,
    ).toBe(204);
    expect(await fs.readFile(path.join(main, 'ow-b.txt'), 'utf8')).toBe('a');
    expect(
      (await dav(server, 'COPY', '/dav/files/ow-a.txt', { headers: { destination: '/dav/files/none/x.txt' } })).status,
    ).toBe(409);
    expect(
      (await dav(server, 'MOVE', '/dav/files/ow-a.txt', { headers: { destination: '/dav/other/none/x.txt' } })).status,
    ).toBe(409);
    expect((await dav(server, 'COPY', '/dav/files/ow-a.txt')).status).toBe(400);
  });

  it('refuses copying a folder into itself', async () => {
    await fs.mkdir(path.join(main, 'self'), { recursive: true });
    expect(
      (await dav(server, 'COPY', '/dav/files/self/', { headers: { destination: '/dav/files/self/inner/' } })).status,
    ).toBe(403);
  });
});

describe('read-only', () => {
  beforeAll(async () => {
    await fs.writeFile(path.join(other, 'ro.txt'), 'ro');
  });
  const verbs: [string, string, Record<string, string>, string?][] = [
    ['PUT', '/dav/view/ro.txt', {}, 'x'],
    ['PUT', '/dav/view/new.txt', {}, 'x'],
    ['DELETE', '/dav/view/ro.txt', {}],
    ['MKCOL', '/dav/view/newdir', {}],
    ['COPY', '/dav/files/pf/a.txt', { destination: '/dav/view/copied.txt' }],
    ['MOVE', '/dav/files/pf/a.txt', { destination: '/dav/view/moved.txt' }],
    ['MOVE', '/dav/view/ro.txt', { destination: '/dav/files/out.txt' }],
    [
      'PROPPATCH',
      '/dav/view/ro.txt',
      {},
      '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>',
    ],
    [
      'LOCK',
      '/dav/view/ro.txt',
      {},
      '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    ],
  ];
  for (const [method, p, headers, body] of verbs) {
    it(`an ro mount refuses ${method} ${p} with 403`, async () => {
      expect((await dav(server, method, p, { headers, body })).status).toBe(403);
    });
  }

  it('leaves the ro mount as it was and still serves reads', async () => {
    expect((await fs.readdir(other)).sort()).not.toContain('new.txt');
    expect(await fs.readFile(path.join(other, 'ro.txt'), 'utf8')).toBe('ro');
    expect((await dav(server, 'GET', '/dav/view/ro.txt')).body).toBe('ro');
    expect((await dav(server, 'PROPFIND', '/dav/view/', { headers: { depth: '1' } })).status).toBe(207);
    expect(
      (await dav(server, 'COPY', '/dav/view/ro.txt', { headers: { destination: '/dav/files/from-ro.txt' } })).status,
    ).toBe(201);
  });

  it('a read-only storage refuses writes whatever the access', async () => {
    expect((await dav(server, 'PUT', '/dav/frozen/cold.txt', { body: 'warm' })).status).toBe(403);
    expect((await dav(server, 'DELETE', '/dav/frozen/cold.txt')).status).toBe(403);
    expect((await dav(server, 'GET', '/dav/frozen/cold.txt')).body).toBe('cold');
  });
});

describe('DELETE', () => {
  it('answers 207 naming the members that could not be deleted, and deletes the rest', async () => {
    await fs.mkdir(path.join(main, 'partly/inner'), { recursive: true });
    await fs.writeFile(path.join(main, 'partly/gone.txt'), 'g');
    await fs.writeFile(path.join(main, 'partly/stuck.txt'), 's');
    await fs.writeFile(path.join(main, 'partly/inner/gone2.txt'), 'g');
    const r = await dav(server, 'DELETE', '/dav/files/partly/');
    expect(r.status).toBe(207);
    expect(r.body).toContain('<D:href>/dav/files/partly/stuck.txt</D:href><D:status>HTTP/1.1 403 Forbidden</D:status>');
    expect(r.body).not.toContain('gone');
    expect(await fs.readdir(path.join(main, 'partly'))).toEqual(['stuck.txt']);
  });

  it('answers 404 for nothing and 400 for Depth other than infinity', async () => {
    expect((await dav(server, 'DELETE', '/dav/files/nothing-here')).status).toBe(404);
    await fs.mkdir(path.join(main, 'd0'), { recursive: true });
    expect((await dav(server, 'DELETE', '/dav/files/d0/', { headers: { depth: '0' } })).status).toBe(400);
  });
});

describe('PROPPATCH', () => {
  it('refuses protected live properties with 403 and fails the rest with 424, changing nothing', async () => {
    await fs.writeFile(path.join(main, 'pp.txt'), 'p');
    const r = await dav(server, 'PROPPATCH', '/dav/files/pp.txt', {
      body: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><y xmlns="urn:y">1</y><D:getetag>"x"</D:getetag></D:prop></D:set></D:propertyupdate>',
    });
    expect(r.status).toBe(207);
    expect(r.body).toMatch(
      /<D:getetag\/><\/D:prop><D:status>HTTP\/1.1 403 Forbidden<\/D:status><D:error><D:cannot-modify-protected-property\/>/,
    );
    expect(r.body).toMatch(/<y xmlns="urn:y"\/><\/D:prop><D:status>HTTP\/1.1 424 Failed Dependency/);
    const after = await dav(server, 'PROPFIND', '/dav/files/pp.txt', {
      headers: { depth: '0' },
      body: propfindBody('<y xmlns="urn:y"/>'),
    });
    expect(after.body).toContain('404 Not Found');
  });

  it('refuses a value over the cap with 507', async () => {
    const big = 'v'.repeat(70 * 1024);
    const r = await dav(server, 'PROPPATCH', '/dav/files/pp.txt', {
      body: `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><big xmlns="urn:b">${big}</big></D:prop></D:set></D:propertyupdate>`,
    });
    expect(r.body).toContain('507 Insufficient Storage');
  });

  it('keeps dead properties in a file per storage that a new runtime reads back', async () => {
    const dir = await tempDir('lucky-dav-props-');
    const locks = new LockManager({ propsDir: dir });
    const s = await startDav({ locks });
    try {
      await fs.writeFile(path.join(s.roots.get('main') as string, 'keep.txt'), 'k');
      const set = await dav(s, 'PROPPATCH', '/dav/files/keep.txt', {
        body: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><z xmlns="urn:z" xml:lang="en">stays</z></D:prop></D:set></D:propertyupdate>',
      });
      expect(set.status).toBe(207);
      await locks.props.flush();
      const again = new LockManager({ propsDir: dir });
      await again.props.ready('main');
      expect(again.props.of('main', '/keep.txt')?.get('{urn:z}z')?.xml).toBe(
        '<z xmlns="urn:z" xml:lang="en">stays</z>',
      );
    } finally {
      await s.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('LOCK', () => {
  const lockBody = (scope: string) =>
    `<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>mailto:me@example</D:href></D:owner></D:lockinfo>`;

  it('caps an Infinite time-out at an hour, and a LOCK on an unmapped URL creates an empty file (201)', async () => {
    const r = await dav(server, 'LOCK', '/dav/files/lockme.txt', {
      headers: { timeout: 'Infinite, Second-4100000000' },
      body: lockBody('exclusive'),
    });
    expect(r.status).toBe(201);
    expect(r.body).toContain('<D:timeout>Second-3600</D:timeout>');
    expect(r.body).toContain('<D:owner><href xmlns="DAV:">mailto:me@example</href></D:owner>');
    const token = r.headers.get('lock-token') ?? '';
    expect(token).toMatch(/^<urn:uuid:[0-9a-f-]{36}>$/);
    expect((await fs.stat(path.join(main, 'lockme.txt'))).size).toBe(0);
    // Another client: the resource is locked (423 naming the lock root), with the token it works.
    const refused = await dav(server, 'PUT', '/dav/files/lockme.txt', { body: 'x' });
    expect(refused.status).toBe(423);
    expect(refused.body).toContain('<D:lock-token-submitted><D:href>/dav/files/lockme.txt</D:href>');
    expect(
      (await dav(server, 'PUT', '/dav/files/lockme.txt', { body: 'x', headers: { if: `(${token})` } })).status,
    ).toBe(204);
    // A second exclusive lock clashes; the wrong token cannot unlock.
    expect((await dav(server, 'LOCK', '/dav/files/lockme.txt', { body: lockBody('exclusive') })).status).toBe(423);
    expect(
      (
        await dav(server, 'UNLOCK', '/dav/files/lockme.txt', {
          headers: { 'lock-token': '<urn:uuid:00000000-0000-0000-0000-000000000000>' },
        })
      ).status,
    ).toBe(409);
    expect((await dav(server, 'UNLOCK', '/dav/files/lockme.txt', { headers: { 'lock-token': token } })).status).toBe(
      204,
    );
    expect(server.locks.size).toBe(0);
  });

  it('a depth-infinity lock on a folder protects new members (PUT needs the token)', async () => {
    await fs.mkdir(path.join(main, 'lockdir'), { recursive: true });
    const r = await dav(server, 'LOCK', '/dav/files/lockdir/', {
      headers: { depth: 'infinity' },
      body: lockBody('shared'),
    });
    expect(r.status).toBe(200);
    const token = r.headers.get('lock-token') ?? '';
    expect((await dav(server, 'PUT', '/dav/files/lockdir/new.txt', { body: 'n' })).status).toBe(423);
    expect((await dav(server, 'DELETE', '/dav/files/lockdir/')).status).toBe(423);
    const tagged = `<${server.origin}/dav/files/lockdir/> (${token})`;
    expect(
      (await dav(server, 'PUT', '/dav/files/lockdir/new.txt', { body: 'n', headers: { if: tagged } })).status,
    ).toBe(201);
    expect(
      (await dav(server, 'UNLOCK', '/dav/files/lockdir/new.txt', { headers: { 'lock-token': token } })).status,
    ).toBe(204);
  });

  it('refuses a malformed If header with 400 and an If that holds for nothing with 412', async () => {
    expect((await dav(server, 'PUT', '/dav/files/if.txt', { body: 'x', headers: { if: '(<urn:x' } })).status).toBe(400);
    expect((await dav(server, 'PUT', '/dav/files/if.txt', { body: 'x', headers: { if: '(["nope"])' } })).status).toBe(
      412,
    );
    expect(
      (await dav(server, 'PUT', '/dav/files/if.txt', { body: 'x', headers: { if: '(Not ["nope"])' } })).status,
    ).toBe(201);
  });
});

describe('Windows Explorer', () => {
  it('takes Win32LastModifiedTime as the file time (and keeps it as a property)', async () => {
    await fs.writeFile(path.join(main, 'win.txt'), 'w');
    const when = 'Mon, 02 Jan 2017 03:04:05 GMT';
    const r = await dav(server, 'PROPPATCH', '/dav/files/win.txt', {
      body: `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop><Z:Win32LastModifiedTime>${when}</Z:Win32LastModifiedTime><Z:Win32FileAttributes>00000020</Z:Win32FileAttributes></D:prop></D:set></D:propertyupdate>`,
    });
    expect(r.status).toBe(207);
    expect(r.body).not.toContain('424');
    expect((await fs.stat(path.join(main, 'win.txt'))).mtime.toUTCString()).toBe(when);
    const pf = await dav(server, 'PROPFIND', '/dav/files/win.txt', {
      headers: { depth: '0' },
      body: propfindBody('<D:getlastmodified/>'),
    });
    expect(pf.body).toContain(`<D:getlastmodified>${when}</D:getlastmodified>`);
  });
});

describe('HTTP/2', () => {
  it("serves PUT, GET and PROPFIND over h2c (the toolkit's stream objects)", async () => {
    const s = await startDav({ h2c: true });
    const session = http2.connect(s.origin);
    const call = (headers: http2.OutgoingHttpHeaders, body?: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request(headers);
        let status = 0;
        let text = '';
        stream.on('response', (h) => {
          status = Number(h[':status']);
        });
        stream.setEncoding('utf8');
        stream.on('data', (c: string) => {
          text += c;
        });
        stream.on('end', () => resolve({ status, body: text }));
        stream.on('error', reject);
        stream.end(body);
      });
    try {
      expect((await call({ ':method': 'PUT', ':path': '/dav/files/h2.txt' }, 'over h2')).status).toBe(201);
      expect(await call({ ':method': 'GET', ':path': '/dav/files/h2.txt' })).toEqual({ status: 200, body: 'over h2' });
      const pf = await call({ ':method': 'PROPFIND', ':path': '/dav/files/', depth: '1' });
      expect(pf.status).toBe(207);
      expect(pf.body).toContain('<D:href>/dav/files/h2.txt</D:href>');
    } finally {
      session.close();
      await s.close();
    }
  });
});

describe('log events', () => {
  it('has one event per write-ish request with method, path, user, status and bytes', async () => {
    server.events.length = 0;
    await dav(server, 'PUT', '/dav/files/logged.txt', { body: '12345' });
    await dav(server, 'COPY', '/dav/files/logged.txt', { headers: { destination: '/dav/other/logged.txt' } });
    await dav(server, 'GET', '/dav/files/logged.txt');
    await dav(server, 'DELETE', '/dav/files/logged.txt');
    expect(server.events).toEqual([
      { method: 'PUT', path: '/files/logged.txt', destination: undefined, user: 'tester', status: 201, bytes: 5 },
      {
        method: 'COPY',
        path: '/files/logged.txt',
        destination: '/other/logged.txt',
        user: 'tester',
        status: 201,
        bytes: 0,
      },
      { method: 'DELETE', path: '/files/logged.txt', destination: undefined, user: 'tester', status: 204, bytes: 0 },
    ]);
  });
});
