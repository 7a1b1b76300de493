// The shared escape corpus (test/storage/escapeCorpus.ts) through every WebDAV method, as raw
// request targets on the wire (a URL library would resolve `..` and `%2e%2e` before sending),
// also as COPY / MOVE Destinations and If-header tags: no answer carries a secret, nothing outside
// the storage root changes, and the legitimate file inside is still served.
import { promises as fs } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './harness.js';
import { type EscapeSandbox, httpEscapes, leakedMarkers, plantEscapeTargets } from './storage/escapeCorpus.js';
import { type DavServer, startDav } from './webdav-engine-helpers.js';

let dir: string;
let sandbox: EscapeSandbox;
let server: DavServer;

/** The body of a raw answer: de-chunked when chunked, so a marker split across chunks is still found. */
function bodyOf(raw: Buffer): string {
  const text = raw.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return text;
  const head = text.slice(0, split).toLowerCase();
  let body = text.slice(split + 4);
  if (head.includes('transfer-encoding: chunked')) {
    let out = '';
    for (;;) {
      const eol = body.indexOf('\r\n');
      const size = Number.parseInt(body.slice(0, eol), 16);
      if (eol < 0 || !size) break;
      out += body.slice(eol + 2, eol + 2 + size);
      body = body.slice(eol + 2 + size + 2);
    }
    return `${text.slice(0, split)}\n${out}`;
  }
  return text;
}

/** One request with a raw target and headers, over its own connection; the whole answer as bytes. */
function raw(
  target: string,
  method: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(all.toString('latin1'))?.[1] ?? 0);
      resolve({ status, text: bodyOf(all) });
    });
    let head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    // Not half-closed after the request: the toolkit's listener ends a connection whose client sent
    // FIN, so the answer comes on a socket left open until the server closes it (Connection: close).
    socket.write(Buffer.concat([Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(body, 'utf8')]));
  });
}

const LOCK_BODY =
  '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
const PATCH_BODY =
  '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><e xmlns="urn:e">x</e></D:prop></D:set></D:propertyupdate>';

beforeAll(async () => {
  dir = await tempDir('lucky-dav-escape-');
  sandbox = await plantEscapeTargets(dir);
  server = await startDav({
    prefix: '/dav',
    mounts: [{ name: 'mount', storage: 'box' }],
    roots: { box: sandbox.root },
  });
});
afterAll(async () => {
  await server?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('escape corpus over WebDAV', () => {
  it('no method leaks a secret or writes outside the root', async () => {
    const paths = httpEscapes('/dav/mount', '/dav');
    const leaks: string[] = [];
    const statuses = new Map<number, number>();
    let requests = 0;
    const check = (what: string, a: { status: number; text: string }) => {
      requests++;
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      const found = leakedMarkers(sandbox, a.text);
      if (found.length) leaks.push(`${what}: ${found.join(', ')}`);
    };
    for (const p of paths) {
      for (const m of ['GET', 'HEAD', 'OPTIONS', 'DELETE', 'MKCOL', 'UNLOCK'])
        check(`${m} ${p}`, await raw(p, m, { 'lock-token': '<urn:x>' }));
      for (const depth of ['0', '1']) check(`PROPFIND ${depth} ${p}`, await raw(p, 'PROPFIND', { depth }));
      check(`PUT ${p}`, await raw(p, 'PUT', {}, 'ESCAPED-WRITE'));
      check(`PROPPATCH ${p}`, await raw(p, 'PROPPATCH', {}, PATCH_BODY));
      check(`LOCK ${p}`, await raw(p, 'LOCK', { timeout: 'Second-5' }, LOCK_BODY));
      // The attack as source, into a harmless destination inside, and as destination of an inside file.
      check(`COPY from ${p}`, await raw(p, 'COPY', { destination: '/dav/mount/copied-here' }));
      check(`COPY to ${p}`, await raw('/dav/mount/inside.txt', 'COPY', { destination: p }));
      await fs.writeFile(`${sandbox.root}/victim.txt`, 'victim');
      check(`MOVE to ${p}`, await raw('/dav/mount/victim.txt', 'MOVE', { destination: p, overwrite: 'T' }));
      check(`MOVE from ${p}`, await raw(p, 'MOVE', { destination: '/dav/mount/moved-here' }));
      check(`If tag ${p}`, await raw('/dav/mount/inside.txt', 'PROPFIND', { depth: '0', if: `<${p}> (<urn:x>)` }));
    }
    expect(leaks).toEqual([]);
    expect(await sandbox.changedOutside()).toEqual([]);
    // Some of the corpus is refused outright, none of it crashed the engine, and the inside file is intact.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect(statuses.get(0) ?? 0).toBe(0);
    expect(requests).toBeGreaterThan(paths.length * 10);
    const inside = await raw('/dav/mount/inside.txt', 'GET');
    expect(inside.status).toBe(200);
    expect(inside.text).toContain(sandbox.insideContent);
  }, 60_000);

  it('does not follow a symlink out of the root (listing, reading, writing through it)', async () => {
    const listing = await raw('/dav/mount/', 'PROPFIND', { depth: '1' });
    expect(listing.status).toBe(207);
    expect(leakedMarkers(sandbox, listing.text)).toEqual([]);
    for (const p of [
      '/dav/mount/link-out/secret.txt',
      '/dav/mount/link-out-file',
      '/dav/mount/sub/up/secret.txt',
      '/dav/mount/link-etc/passwd',
    ]) {
      const r = await raw(p, 'GET');
      expect(r.status, p).toBeGreaterThanOrEqual(400);
      expect(leakedMarkers(sandbox, r.text)).toEqual([]);
      expect((await raw(p, 'PUT', {}, 'ESCAPED-WRITE')).status, p).toBeGreaterThanOrEqual(400);
    }
    // A link that stays inside is followed.
    expect((await raw('/dav/mount/link-in/a.txt', 'GET')).text).toContain('\na');
    expect(await sandbox.changedOutside()).toEqual([]);
  });
});
