// Share links of the file manager on a real console: made, listed, changed and removed through the
// admin API; opened without a login (the page, ranged downloads counted once, a folder and its
// sub-folders, the zip checked by unzip); expired / used-up / disabled / removed links answering the
// one not-found page; the password with its throttle per address and its cookie; the LAN gate
// (a client outside the LAN reaches /s/ but not /api); the escape corpus through /s/.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRelay } from '../src/core/http/adminRelay.js';
import { cookieOf, postPassword, raw, type ShareConsole, startShareConsole } from './filebrowser-shares-helpers.js';
import { type EscapeSandbox, httpEscapes, leakedMarkers, plantEscapeTargets } from './storage/escapeCorpus.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
const OUTSIDE = '198.51.100.7';

let fb: ShareConsole;
let box: string;
let files: string;
let sandbox: EscapeSandbox;
const big = randomBytes(300_000);
const photo = randomBytes(5000);
const keys: Record<string, string> = {};

beforeAll(async () => {
  box = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-fbshare-'));
  files = path.join(box, 'files');
  await fs.mkdir(path.join(files, 'album', 'day 1'), { recursive: true });
  await fs.writeFile(path.join(files, 'big.bin'), big);
  await fs.writeFile(path.join(files, 'album', 'photo.jpg'), photo);
  await fs.writeFile(path.join(files, 'album', 'day 1', 'note ü.txt'), 'hello from day 1');
  await fs.mkdir(path.join(files, 'album', 'empty'));
  sandbox = await plantEscapeTargets(path.join(box, 'sandbox'));
  fb = await startShareConsole();
  keys.files = await fb.addStorage('files', files);
  keys.sandbox = await fb.addStorage('sandbox', sandbox.root);
}, 30_000);
afterAll(async () => {
  await fb?.close();
  await fs.rm(box, { recursive: true, force: true });
});

const idOf = (share: { url: string }) => share.url.slice('/s/'.length);
const shares = async () => (await fb.call('GET', '/api/filebrowser/shares')).body.list as Record<string, unknown>[];
const viewOf = async (key: string) => (await shares()).find((s) => s.key === key) as Record<string, unknown>;

describe('the admin API', () => {
  it('makes a link with a 128-bit id, the kind from the target, the password hashed and masked', async () => {
    const share = await fb.share({ storage: keys.files, path: '/album/', password: 'open sesame', note: 'for mum' });
    expect(share).toMatchObject({
      storage: keys.files,
      storageName: 'files',
      path: '/album',
      kind: 'dir',
      enabled: true,
      password: '******',
      downloads: 0,
      state: 'active',
      note: 'for mum',
    });
    expect(share.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(share.id, 'base64url')).toHaveLength(16);
    expect(share.url).toBe(`/s/${share.id}`);
    const file = await fs.readFile(path.join(fb.s.configDir, 'lucky.json'), 'utf8');
    expect(file).not.toContain('open sesame');
    expect(JSON.parse(file).modules.filebrowser.shares[0].password).toMatch(/^scrypt\$/);
    expect(JSON.stringify(await shares())).not.toContain('scrypt$');
    // Two links to one target still get different ids.
    const again = await fb.share({ storage: keys.files, path: '/album' });
    expect(again.id).not.toBe(share.id);
    expect(again.password).toBe('');
    for (const s of [share, again])
      expect((await fb.call('DELETE', `/api/filebrowser/shares/${s.key}`)).body.ret).toBe(0);
  });

  it('refuses a missing storage or target, a short password, and an unknown key, each on its field', async () => {
    const cases: [string, string, unknown, number, string, string][] = [
      ['POST', '/api/filebrowser/shares', { storage: 'Nope', path: '/' }, 404, 'storage', 'storageUnavailable'],
      ['POST', '/api/filebrowser/shares', { storage: keys.files, path: '/gone' }, 404, 'path', 'storage_notFound'],
      ['POST', '/api/filebrowser/shares', { storage: keys.files, path: '/a/../b' }, 400, 'path', 'storage_badPath'],
      [
        'POST',
        '/api/filebrowser/shares',
        { storage: keys.files, path: '/', password: 'abc' },
        400,
        'password',
        'sharePasswordTooShort',
      ],
      ['PUT', '/api/filebrowser/shares/NoSuchKey', { enabled: false }, 404, 'key', 'shareNotFound'],
      ['DELETE', '/api/filebrowser/shares/NoSuchKey', undefined, 404, 'key', 'shareNotFound'],
    ];
    for (const [method, p, body, status, field, code] of cases) {
      const r = await fb.call(method, p, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body, JSON.stringify(body)).toMatchObject({ ret: 1, field, code });
    }
  });

  it('changes what may change: the switch, expiry, limit and note; the password kept when sent masked', async () => {
    const share = await fb.share({ storage: keys.files, path: '/big.bin', password: 'first-pass' });
    const stored = () =>
      fs
        .readFile(path.join(fb.s.configDir, 'lucky.json'), 'utf8')
        .then((t) => JSON.parse(t).modules.filebrowser.shares.find((s: { key: string }) => s.key === share.key));
    const hash = (await stored()).password;
    const r = await fb.call('PUT', `/api/filebrowser/shares/${share.key}`, {
      enabled: false,
      password: '******',
      expiresAt: 4_000_000_000_000,
      maxDownloads: 3,
      note: ' n ',
    });
    expect(r.body.share).toMatchObject({
      enabled: false,
      expiresAt: 4_000_000_000_000,
      maxDownloads: 3,
      note: 'n',
      state: 'disabled',
      password: '******',
    });
    expect((await stored()).password).toBe(hash);
    const cleared = await fb.call('PUT', `/api/filebrowser/shares/${share.key}`, { password: '' });
    expect(cleared.body.share.password).toBe('');
    expect((await fb.call('DELETE', `/api/filebrowser/shares/${share.key}`)).body.ret).toBe(0);
    expect((await shares()).some((s) => s.key === share.key)).toBe(false);
  });
});

describe('a file link, without a login', () => {
  it('shows the page and serves the bytes with ranges; a whole download counts once, a resume does not', async () => {
    const share = await fb.share({ storage: keys.files, path: '/big.bin' });
    const id = idOf(share);
    const pageAnswer = await raw(fb.port, `/s/${id}`, { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(pageAnswer.status).toBe(200);
    expect(pageAnswer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(pageAnswer.headers['content-security-policy']).toContain("default-src 'none'");
    expect(pageAnswer.text).toContain('big.bin');
    expect(pageAnswer.text).toContain('300 kB');
    expect(pageAnswer.text).toContain(`href="/s/${id}/dl/big.bin"`);
    expect(pageAnswer.text).toContain('>Download<');
    expect(pageAnswer.text).not.toMatch(/<script|src="http/);
    const zh = await raw(fb.port, `/s/${id}`, { headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' } });
    expect(zh.text).toContain('>下载<');

    const whole = await raw(fb.port, `/s/${id}/dl/big.bin`);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(big)).toBe(true);
    expect(whole.headers['content-disposition']).toMatch(/^attachment; filename="big.bin"/);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const etag = String(whole.headers.etag);
    await waitFor(
      () => viewOf(share.key),
      (v) => v.downloads === 1,
      { what: 'one download counted' },
    );

    // A resume from the middle and a slice: bytes right, nothing counted.
    const resumed = await raw(fb.port, `/s/${id}/dl/big.bin`, { headers: { range: 'bytes=100000-' } });
    expect(resumed.status).toBe(206);
    expect(resumed.headers['content-range']).toBe(`bytes 100000-299999/${big.length}`);
    expect(resumed.body.equals(big.subarray(100000))).toBe(true);
    const slice = await raw(fb.port, `/s/${id}/dl`, { headers: { range: 'bytes=10-19' } });
    expect(slice.body.equals(big.subarray(10, 20))).toBe(true);
    expect((await raw(fb.port, `/s/${id}/dl`, { headers: { range: 'bytes=999999-' } })).status).toBe(416);
    // Revalidation and an If-Range that no longer matches (whole file again: counts).
    expect((await raw(fb.port, `/s/${id}/dl/big.bin`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const stale = await raw(fb.port, `/s/${id}/dl/big.bin`, { headers: { range: 'bytes=5-', 'if-range': '"old"' } });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(big.length);
    const v = await waitFor(
      () => viewOf(share.key),
      (x) => x.downloads === 2,
      { what: 'the second one' },
    );
    expect(v.lastAccessAt).toBeGreaterThan(0);
    // Another name under the link, or a folder view of a file link: nothing.
    expect((await raw(fb.port, `/s/${id}/dl/other.bin`)).status).toBe(404);
    expect((await raw(fb.port, `/s/${id}/zip`)).status).toBe(404);
    // The count lives in the state file, not the config.
    const stateFile = path.join(fb.s.configDir, 'filebrowser', 'shares-state.json');
    const state = await waitFor(
      () => fs.readFile(stateFile, 'utf8').catch(() => '{}'),
      (t) => JSON.parse(t)[share.key]?.downloads === 2,
      { what: 'the state file', timeout: 10_000 },
    );
    expect(JSON.parse(state)[share.key].downloads).toBe(2);
    const config = await fs.readFile(path.join(fb.s.configDir, 'lucky.json'), 'utf8');
    expect(config).not.toContain('"downloads"');
  });
});

describe('a folder link, without a login', () => {
  let id: string;
  beforeAll(async () => {
    id = idOf(await fb.share({ storage: keys.files, path: '/album' }));
  });

  it('lists the folder and its sub-folders, and serves a file below', async () => {
    const top = await raw(fb.port, `/s/${id}`, { headers: { 'accept-language': 'en' } });
    expect(top.status).toBe(200);
    expect(top.text).toContain(`href="/s/${id}/day%201/"`);
    expect(top.text).toContain(`href="/s/${id}/dl/photo.jpg"`);
    expect(top.text).toContain(`href="/s/${id}/zip"`);
    const sub = await raw(fb.port, `/s/${id}/day%201/`, { headers: { 'accept-language': 'en' } });
    expect(sub.status).toBe(200);
    expect(sub.text).toContain('note ü.txt');
    expect(sub.text).toContain(`href="/s/${id}/dl/day%201/note%20%C3%BC.txt"`);
    expect(sub.text).toContain(`href="/s/${id}/"`);
    const note = await raw(fb.port, `/s/${id}/dl/day%201/note%20%C3%BC.txt`);
    expect(note.text).toBe('hello from day 1');
    expect(note.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await raw(fb.port, `/s/${id}/dl/photo.jpg`)).body.equals(photo)).toBe(true);
    expect((await raw(fb.port, `/s/${id}/nope/`)).status).toBe(404);
    const logs = JSON.stringify((await fb.call('GET', '/api/filebrowser/logs?pageSize=200')).body.logs);
    expect(logs).toContain('127.0.0.1 opened the share link of');
    expect(logs).toContain('downloaded /album/photo.jpg through the share link');
    expect((await raw(fb.port, `/s/${id}/dl/day%201`)).status).toBe(404);
  });

  it('streams the folder, or a sub-folder, as a zip that unzip accepts', async () => {
    const all = await raw(fb.port, `/s/${id}/zip`);
    expect(all.status).toBe(200);
    expect(all.headers['content-type']).toBe('application/zip');
    const zipFile = path.join(box, 'all.zip');
    await fs.writeFile(zipFile, all.body);
    const test = await run('unzip', ['-t', zipFile]);
    expect(test.stdout).toContain('No errors detected');
    const listing = (await run('unzip', ['-Z1', zipFile])).stdout.split('\n').filter(Boolean).sort();
    expect(listing).toEqual(['day 1/', 'day 1/note ü.txt', 'empty/', 'photo.jpg']);
    expect((await run('unzip', ['-p', zipFile, 'photo.jpg'], { encoding: 'buffer' })).stdout.equals(photo)).toBe(true);
    const part = await raw(fb.port, `/s/${id}/zip/day%201`);
    await fs.writeFile(zipFile, part.body);
    expect((await run('unzip', ['-Z1', zipFile])).stdout.trim()).toBe('note ü.txt');
  });
});

describe('links that no longer answer', () => {
  it('expired, used up, disabled, removed and never made all get the same not-found page', async () => {
    const unknown = await raw(fb.port, `/s/${'A'.repeat(22)}`);
    expect(unknown.status).toBe(404);
    const same = (r: { status: number; text: string }, what: string) => {
      expect(r.status, what).toBe(404);
      expect(r.text, what).toBe(unknown.text);
    };
    same(await raw(fb.port, '/s/short'), 'a malformed id');

    const expired = await fb.share({ storage: keys.files, path: '/big.bin', expiresAt: Date.now() - 1000 });
    expect(expired.state).toBe('expired');
    same(await raw(fb.port, `/s/${expired.id}`), 'expired');
    same(await raw(fb.port, `/s/${expired.id}/dl/big.bin`), 'expired download');

    const once = await fb.share({ storage: keys.files, path: '/album', maxDownloads: 1 });
    expect((await raw(fb.port, `/s/${once.id}/dl/photo.jpg`)).status).toBe(200);
    await waitFor(
      () => viewOf(once.key),
      (v) => v.state === 'exhausted',
      { what: 'used up' },
    );
    same(await raw(fb.port, `/s/${once.id}`), 'used up');
    same(await raw(fb.port, `/s/${once.id}/dl/photo.jpg`), 'used up download');

    const off = await fb.share({ storage: keys.files, path: '/album' });
    expect((await raw(fb.port, `/s/${off.id}`)).status).toBe(200);
    await fb.call('PUT', `/api/filebrowser/shares/${off.key}`, { enabled: false });
    same(await raw(fb.port, `/s/${off.id}`), 'disabled');
    await fb.call('PUT', `/api/filebrowser/shares/${off.key}`, { enabled: true });
    expect((await raw(fb.port, `/s/${off.id}`)).status).toBe(200);
    await fb.call('DELETE', `/api/filebrowser/shares/${off.key}`);
    same(await raw(fb.port, `/s/${off.id}`), 'removed');

    // A target that went away reads as missing in the list and as no link outside.
    await fs.mkdir(path.join(files, 'temp'));
    const gone = await fb.share({ storage: keys.files, path: '/temp' });
    await fs.rm(path.join(files, 'temp'), { recursive: true });
    expect((await viewOf(gone.key)).state).toBe('missing');
    same(await raw(fb.port, `/s/${gone.id}`), 'target gone');
  });

  it('with the module off every link answers the not-found page', async () => {
    const share = await fb.share({ storage: keys.files, path: '/album' });
    const unknown = await raw(fb.port, `/s/${'B'.repeat(22)}`);
    expect((await fb.call('PUT', '/api/filebrowser/settings', { enabled: false })).body.ret).toBe(0);
    try {
      const r = await raw(fb.port, `/s/${share.id}`);
      expect(r.status).toBe(404);
      expect(r.text).toBe(unknown.text);
    } finally {
      expect((await fb.call('PUT', '/api/filebrowser/settings', { enabled: true })).body.ret).toBe(0);
    }
    expect((await raw(fb.port, `/s/${share.id}`)).status).toBe(200);
  });
});

describe('a password', () => {
  let share: { id: string; key: string };
  beforeAll(async () => {
    expect((await fb.call('PUT', '/api/filebrowser/settings', { sharePasswordMaxFailures: 3 })).body.ret).toBe(0);
    share = await fb.share({ storage: keys.files, path: '/album', password: 'right-pass' });
  });

  it('asks for it, locks an address after the wrong ones (the right one too), leaves other addresses be', async () => {
    const form = await raw(fb.port, `/s/${share.id}/dl/photo.jpg`, { from: '127.0.0.2' });
    expect(form.status).toBe(401);
    expect(form.text).toContain('type="password"');
    expect(form.text).not.toContain('photo.jpg');
    for (let i = 0; i < 3; i++) {
      const wrong = await postPassword(fb.port, share.id, `wrong-${i}`, { from: '127.0.0.2' });
      expect(wrong.status, `guess ${i}`).toBe(401);
      expect(wrong.headers['set-cookie']).toBeUndefined();
    }
    const locked = await postPassword(fb.port, share.id, 'right-pass', { from: '127.0.0.2' });
    expect(locked.status).toBe(429);
    expect(locked.headers['set-cookie']).toBeUndefined();
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    const logs = JSON.stringify((await fb.call('GET', '/api/filebrowser/logs?pageSize=100')).body.logs);
    expect(logs).toContain('sharePasswordWrong');
    expect(logs).toContain('sharePasswordLocked');

    const other = await postPassword(fb.port, share.id, 'right-pass', { from: '127.0.0.3' });
    expect(other.status).toBe(303);
    expect(other.headers.location).toBe(`/s/${share.id}`);
    const setCookie = String(other.headers['set-cookie']?.[0]);
    expect(setCookie).toContain(`Path=/s/${share.id}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    const cookie = cookieOf(other);
    const opened = await raw(fb.port, `/s/${share.id}/dl/photo.jpg`, { headers: { cookie }, from: '127.0.0.3' });
    expect(opened.status).toBe(200);
    expect(opened.body.equals(photo)).toBe(true);
    // The cookie is the link's, not a key to another one; a forged one is nothing.
    const plain = await fb.share({ storage: keys.files, path: '/album', password: 'other-pass' });
    expect((await raw(fb.port, `/s/${plain.id}`, { headers: { cookie } })).status).toBe(401);
    const forged = `${cookie.split('.')[0]}.${'A'.repeat(43)}`;
    expect((await raw(fb.port, `/s/${share.id}`, { headers: { cookie: forged } })).status).toBe(401);

    // A new password ends the cookies given for the old one.
    await fb.call('PUT', `/api/filebrowser/shares/${share.key}`, { password: 'new-password' });
    expect((await raw(fb.port, `/s/${share.id}`, { headers: { cookie } })).status).toBe(401);
    const again = await postPassword(fb.port, share.id, 'new-password', { from: '127.0.0.4' });
    expect((await raw(fb.port, `/s/${share.id}`, { headers: { cookie: cookieOf(again) } })).status).toBe(200);
  });

  it('counts the real client behind the console’s own web service (relay header), not 127.0.0.1', async () => {
    const secret = adminRelay()?.secret;
    expect(secret).toBeTruthy();
    const via = (ip: string) => ({ 'x-lucky-relay': `${secret} ${ip} 127.0.0.1:${fb.port}` });
    for (let i = 0; i < 3; i++)
      expect((await postPassword(fb.port, share.id, 'bad-guess', { headers: via('203.0.113.9') })).status).toBe(401);
    expect((await postPassword(fb.port, share.id, 'new-password', { headers: via('203.0.113.9') })).status).toBe(429);
    // Same socket address, another client behind the relay: served.
    expect((await postPassword(fb.port, share.id, 'new-password', { headers: via('203.0.113.10') })).status).toBe(303);
  });
});

describe('the LAN-only gate', () => {
  it('a client outside the LAN reaches /s/ (sharesOutsideLan) but never /api; off, neither', async () => {
    const share = await fb.share({ storage: keys.files, path: '/album' });
    const app = fb.s.server.admin.app;
    const from = (url: string) =>
      app.inject({ method: 'GET', url, remoteAddress: OUTSIDE, headers: { host: '127.0.0.1' } });
    expect(fb.s.server.core.modules.publicOutsideLan()).toBe(true);
    expect((await from(`/s/${share.id}`)).statusCode).toBe(200);
    const api = await from('/api/health');
    expect(api.statusCode).toBe(403);
    expect(api.json().code).toBe('outsideLan');
    // A `..` cannot walk from /s/ into the API: refused as a share path, or resolved to /api and gated.
    expect([400, 403]).toContain((await from(`/s/${share.id}/../../api/health`)).statusCode);
    // Through the web service's relay the same holds.
    const secret = adminRelay()?.secret;
    const relayed = { 'x-lucky-relay': `${secret} ${OUTSIDE} 127.0.0.1:${fb.port}` };
    expect((await raw(fb.port, `/s/${share.id}`, { headers: relayed })).status).toBe(200);
    expect(
      (await raw(fb.port, '/api/filebrowser/shares', { headers: { ...relayed, authorization: fb.token } })).status,
    ).toBe(403);

    expect((await fb.call('PUT', '/api/filebrowser/settings', { sharesOutsideLan: false })).body.ret).toBe(0);
    try {
      expect(fb.s.server.core.modules.publicOutsideLan()).toBe(false);
      expect((await from(`/s/${share.id}`)).statusCode).toBe(403);
      expect((await raw(fb.port, `/s/${share.id}`)).status).toBe(200);
    } finally {
      await fb.call('PUT', '/api/filebrowser/settings', { sharesOutsideLan: true });
    }
  });

  it('a form post anywhere but /s/ stays refused (the admin API takes JSON only)', async () => {
    const r = await raw(fb.port, '/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Account=666&Password=666',
    });
    expect(r.status).toBe(415);
    expect(r.text).not.toContain('token');
  });

  it('share links answer under a security entrance, nothing else does', async () => {
    const share = await fb.share({ storage: keys.files, path: '/album' });
    expect((await fb.call('PUT', '/api/baseconfigure', { securityEntrance: 'door' })).body.ret).toBe(0);
    try {
      expect((await raw(fb.port, `/s/${share.id}`)).status).toBe(200);
      // Under the entrance too (a link copied from the console's address bar).
      expect((await raw(fb.port, `/door/s/${share.id}/dl/photo.jpg`)).body.equals(photo)).toBe(true);
      expect((await raw(fb.port, '/api/health')).status).toBe(404);
    } finally {
      await fb.s.call('PUT', '/door/api/baseconfigure', { token: fb.token, body: { securityEntrance: '' } });
    }
    expect((await raw(fb.port, '/api/health')).status).toBe(200);
  });
});

describe('the escape corpus through /s/', () => {
  it('no answer leaks what lies outside the shared folder and nothing outside changes', async () => {
    const whole = await fb.share({ storage: keys.sandbox, path: '/' });
    const sub = await fb.share({ storage: keys.sandbox, path: '/sub' });
    const prefixes = [`/s/${whole.id}`, `/s/${whole.id}/dl`, `/s/${whole.id}/zip`, `/s/${sub.id}`, `/s/${sub.id}/dl`];
    const paths = prefixes.flatMap((prefix) => httpEscapes(prefix));
    let escapes = 0;
    let answered = 0;
    // Eight at a time: the corpus is ~1,500 requests.
    for (let i = 0; i < paths.length; i += 8)
      await Promise.all(
        paths.slice(i, i + 8).map(async (p) => {
          const r = await raw(fb.port, p).catch(() => undefined);
          if (!r) return;
          answered++;
          const leaked = leakedMarkers(sandbox, r.body.toString('latin1'));
          if (leaked.length) escapes++;
          expect(leaked, p).toEqual([]);
        }),
      );
    expect(answered).toBeGreaterThan(500);
    expect(escapes).toBe(0);
    expect(await sandbox.changedOutside()).toEqual([]);
    // The folder below the link cannot reach its parent's files either.
    for (const p of ['/dl/../inside.txt', '/dl/%2e%2e/inside.txt', '/dl/..%2finside.txt', '/../inside.txt'])
      expect((await raw(fb.port, `/s/${sub.id}${p}`)).status, p).toBe(400);
    // And ordinary reads still work.
    expect((await raw(fb.port, `/s/${whole.id}/dl/inside.txt`)).text).toBe(sandbox.insideContent);
  }, 60_000);
});
