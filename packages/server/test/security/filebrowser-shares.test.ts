import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postPassword, raw, type ShareConsole, startShareConsole } from '../filebrowser-shares-helpers.js';
import { type OutsideNamespace, outsideNamespace } from '../outsideNamespace.js';
import { waitFor } from '../wait.js';

const EVIL = '<img src=x onerror=alert(1)>.txt';

let fb: ShareConsole;
let box: string;
let storage: string;

beforeAll(async () => {
  box = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-fbshare-sec-'));
  await fs.mkdir(path.join(box, 'pub', '"><b>dir'), { recursive: true });
  await fs.writeFile(path.join(box, 'pub', EVIL), 'just text');
  await fs.writeFile(path.join(box, 'pub', 'a.txt'), 'a');
  fb = await startShareConsole();
  storage = await fb.addStorage('pub', path.join(box, 'pub'));
}, 30_000);
afterAll(async () => {
  await fb?.close();
  await fs.rm(box, { recursive: true, force: true });
});

describe('a flood of wrong passwords', () => {
  it('200 parallel posts from one address: a handful hashed, the gate never over its size, memory flat, the owner served', async () => {
    const share = await fb.share({ storage, path: '/', password: 'the-right-one' });
    const gate = fb.s.server.core.hashGate;
    let maxActive = 0;
    let maxWaiting = 0;
    const sampler = setInterval(() => {
      maxActive = Math.max(maxActive, gate.load.active);
      maxWaiting = Math.max(maxWaiting, gate.load.waiting);
    }, 5);
    const rssBefore = process.memoryUsage().rss;
    const statuses = new Map<number, number>();
    const flood = Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        postPassword(fb.port, share.id, `guess-${i}`, { from: '127.0.0.2' }).then(
          (r) => statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1),
          // The connection cap per address may reset some: refused, not hashed either.
          () => statuses.set(0, (statuses.get(0) ?? 0) + 1),
        ),
      ),
    );
    // The owner, on another address, while the flood runs.
    const owner = await postPassword(fb.port, share.id, 'the-right-one', { from: '127.0.0.9' });
    await flood;
    clearInterval(sampler);
    expect(owner.status).toBe(303);
    expect(owner.headers['set-cookie']?.[0]).toContain('lucky_share=');

    const logs = (await fb.call('GET', '/api/filebrowser/logs?pageSize=1000')).body.logs as { code?: string }[];
    const hashed = logs.filter((l) => JSON.stringify(l).includes('sharePasswordWrong')).length;
    // Default 5 failures per address: at most that many wrong guesses reached scrypt.
    expect(hashed).toBeGreaterThan(0);
    expect(hashed).toBeLessThanOrEqual(5);
    expect(maxActive).toBeLessThanOrEqual(2);
    expect(maxWaiting).toBeLessThanOrEqual(4);
    expect((statuses.get(429) ?? 0) + (statuses.get(0) ?? 0)).toBeGreaterThanOrEqual(195);
    expect(statuses.get(200) ?? 0).toBe(0);
    expect(statuses.get(303) ?? 0).toBe(0);
    // 200 scrypt runs would be 6 GiB of scrypt memory passing through; a handful stays small.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
  }, 30_000);
});

describe('a slow-loris on /s/', () => {
  it('connections trickling a request head do not hold another visitor', async () => {
    const share = await fb.share({ storage, path: '/' });
    const sockets: net.Socket[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const s = net.connect({ port: fb.port, host: '127.0.0.1', localAddress: '127.0.0.5' });
        s.on('error', () => {});
        s.write(`GET /s/${share.id} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: `);
        sockets.push(s);
      }
      await waitFor(
        () => sockets.filter((s) => s.readyState === 'open').length,
        (n) => n >= 1,
        {
          what: 'the slow connections open',
        },
      );
      const visitor = await raw(fb.port, `/s/${share.id}`, { from: '127.0.0.6' });
      expect(visitor.status).toBe(200);
      expect(visitor.text).toContain('a.txt');
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});

describe('names made of HTML', () => {
  it('a file called <img src=x onerror=…> is shown as text in the listing, the file page and the download name', async () => {
    const dir = await fb.share({ storage, path: '/' });
    const listing = await raw(fb.port, `/s/${dir.id}`);
    expect(listing.status).toBe(200);
    expect(listing.text).not.toContain('<img src=x');
    expect(listing.text).not.toContain('"><b>');
    expect(listing.text).toContain('&#60;img src=x onerror=alert(1)&#62;.txt');
    expect(listing.headers['content-security-policy']).toContain("default-src 'none'");

    const file = await fb.share({ storage, path: `/${EVIL}` });
    const page = await raw(fb.port, `/s/${file.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('<title>&#60;img src=x onerror=alert(1)&#62;.txt</title>');
    const dl = await raw(fb.port, `/s/${file.id}/dl/${encodeURIComponent(EVIL)}`);
    expect(dl.text).toBe('just text');
    expect(dl.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(dl.headers['content-security-policy']).toContain('sandbox');
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="<img src=x onerror=alert\(1\)>.txt"/);
  });
});

describe('a client on the internet, the console listening on a public-looking address', () => {
  // A namespace joined by a veth numbered from TEST-NET-3 (203.0.113.0/24): the console sees a peer
  // outside the LAN at accept, with internet access off (the default).
  let outside: OutsideNamespace;
  let wan: ShareConsole;
  beforeAll(async () => {
    outside = outsideNamespace('lkfbs', '203.0.113');
    wan = await startShareConsole({ host: '0.0.0.0' });
  }, 30_000);
  afterAll(async () => {
    await wan?.close();
    outside?.remove();
  });
  const curl = (p: string) => outside.curl(`http://${outside.gateway}:${wan.port}${p}`);

  it('is let in for an open share link only, kept off the API, and reset at accept once links stay on the LAN', async () => {
    const dir = path.join(box, 'wan');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'hello.txt'), 'hello internet');
    const key = await wan.addStorage('wan', dir);
    // No link yet: nothing is open outside, the peer is reset at accept.
    expect((await curl('/api/health')).status).toBe(0);
    const share = await wan.share({ storage: key, path: '/' });
    const page = await curl(`/s/${share.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('hello.txt');
    expect((await curl(`/s/${share.id}/dl/hello.txt`)).body).toBe('hello internet');
    const api = await curl('/api/health');
    expect(api.status).toBe(403);
    expect(api.body).toContain('outsideLan');
    expect((await curl('/')).status).toBe(403);

    expect((await wan.call('PUT', '/api/filebrowser/settings', { sharesOutsideLan: false })).body.ret).toBe(0);
    expect((await curl(`/s/${share.id}`)).status).toBe(0);
    expect((await wan.call('PUT', '/api/filebrowser/settings', { sharesOutsideLan: true })).body.ret).toBe(0);
    expect((await curl(`/s/${share.id}`)).status).toBe(200);
  });
});
