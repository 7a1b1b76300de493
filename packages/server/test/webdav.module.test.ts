// The WebDAV module on a real console: settings, mounts and users through the API (password hashes
// never read back), sign-in (401 and its challenge, the throttle that locks one address while the
// owner's other address gets in), read-only access refused by every write verb, the address rules
// at accept and per request, HTTPS with a certificate of the store, the escape corpus through the
// module, and a reload that keeps the listener and its connections. Storages are local folders
// added in storage management.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, makeCert } from './certs-helpers.js';
import { type OutsideNamespace, outsideNamespace } from './outsideNamespace.js';
import { type EscapeSandbox, httpEscapes, leakedMarkers, plantEscapeTargets } from './storage/escapeCorpus.js';
import { waitFor } from './wait.js';
import { type DavConsole, request, startDavConsole } from './webdav-helpers.js';

const run = promisify(execFile);
const ALICE = 'alice:alice-password';
const RO = 'reader:reader-password';

let dav: DavConsole;
let box: string;
let sandbox: EscapeSandbox;
let locked: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  box = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-webdav-module-'));
  sandbox = await plantEscapeTargets(path.join(box, 'sandbox'));
  locked = path.join(box, 'locked');
  await fs.mkdir(locked);
  await fs.writeFile(path.join(locked, 'kept.txt'), 'kept');
  dav = await startDavConsole();
  keys.files = await dav.addStorage('files', sandbox.root);
  keys.locked = await dav.addStorage('locked', locked, true);
  keys.mFiles = await dav.addMount({ name: 'files', storage: keys.files });
  keys.mShared = await dav.addMount({ name: 'shared', storage: keys.files });
  keys.mLocked = await dav.addMount({ name: 'locked', storage: keys.locked });
  keys.alice = await dav.addUser({
    name: 'alice',
    password: 'alice-password',
    access: { [keys.mFiles]: 'rw', [keys.mShared]: 'rw', [keys.mLocked]: 'rw' },
  });
  keys.reader = await dav.addUser({ name: 'reader', password: 'reader-password', access: { [keys.mShared]: 'ro' } });
}, 30_000);
afterAll(async () => {
  await dav?.close();
  await fs.rm(box, { recursive: true, force: true });
});

describe('settings, mounts and users through the API', () => {
  it('a user’s password is stored as a scrypt hash and never read back', async () => {
    const users = (await dav.call('GET', '/api/webdav/users')).body.list;
    expect(users.map((u: { name: string; password: string }) => [u.name, u.password])).toEqual([
      ['alice', '******'],
      ['reader', '******'],
    ]);
    const file = JSON.parse(await fs.readFile(path.join(dav.s.configDir, 'lucky.json'), 'utf8'));
    const stored = file.modules?.webdav ?? file.webdav;
    for (const u of stored.users) expect(u.password).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(JSON.stringify(stored)).not.toContain('alice-password');
  });

  it('refusals are coded and land on their field', async () => {
    const cases: [string, string, unknown, string, string][] = [
      ['POST', '/api/webdav/users', { name: 'carol', access: {} }, 'password', 'passwordRequired'],
      ['POST', '/api/webdav/users', { name: 'carol', password: 'short' }, 'password', 'passwordTooShort'],
      ['POST', '/api/webdav/users', { name: 'ALICE', password: 'long-enough' }, 'name', 'userNameTaken'],
      ['POST', '/api/webdav/users', { name: 'a:b', password: 'long-enough' }, 'name', 'userNameInvalid'],
      [
        'POST',
        '/api/webdav/users',
        { name: 'carol', password: 'long-enough', access: { Nope1: 'rw' } },
        'access.Nope1',
        'accessMountUnknown',
      ],
      ['POST', '/api/webdav/mounts', { name: '..', storage: keys.files }, 'name', 'mountNameInvalid'],
      ['POST', '/api/webdav/mounts', { name: 'a/b', storage: keys.files }, 'name', 'mountNameInvalid'],
      ['POST', '/api/webdav/mounts', { name: 'Files', storage: keys.files }, 'name', 'mountNameTaken'],
      ['POST', '/api/webdav/mounts', { name: 'new', storage: 'NoSuchStorage' }, 'mounts.3.storage', 'storageUnknown'],
      ['PUT', '/api/webdav/settings', { pathPrefix: '/a/../b' }, 'pathPrefix', 'pathPrefixInvalid'],
      ['PUT', '/api/webdav/settings', { allowList: ['10.0.0.0/33'] }, 'allowList.0', 'cidrInvalid'],
      ['PUT', '/api/webdav/settings', { port: 70000 }, 'port', 'tooBig'],
    ];
    for (const [method, p, body, field, code] of cases) {
      const r = await dav.call(method, p, body);
      expect(r.status, `${method} ${p} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body, JSON.stringify(body)).toMatchObject({ ret: 1, field, code });
    }
  });

  it('a storage mounted here cannot be removed in storage management; a mount’s delete takes it out of the users’ access', async () => {
    const refused = await dav.call('DELETE', `/api/storagemanagement/storages/${keys.locked}`);
    expect(refused.body.ret).not.toBe(0);
    expect(JSON.stringify(refused.body)).toContain('webdav');
    const tmp = await dav.addMount({ name: 'tmp', storage: keys.locked });
    const bob = await dav.addUser({ name: 'bob', password: 'bob-password', access: { [tmp]: 'ro' } });
    expect((await dav.call('DELETE', `/api/webdav/mounts/${tmp}`)).body.ret).toBe(0);
    const users = (await dav.call('GET', '/api/webdav/users')).body.list;
    expect(users.find((u: { key: string }) => u.key === bob).access).toEqual({});
    expect((await dav.call('DELETE', `/api/webdav/users/${bob}`)).body.ret).toBe(0);
  });

  it('a settings change names only what changes: the rest, the prefix and the certificate included, stays', async () => {
    const set = (patch: unknown) => dav.call('PUT', '/api/webdav/settings', patch);
    expect((await set({ pathPrefix: '/dav/', tls: { certificate: 'nas.test' } })).body.settings).toMatchObject({
      pathPrefix: '/dav',
      tls: { enabled: false, certificate: 'nas.test' },
    });
    const after = (await set({ maxConnections: 500 })).body.settings;
    expect(after).toMatchObject({
      pathPrefix: '/dav',
      tls: { enabled: false, certificate: 'nas.test' },
      maxConnections: 500,
    });
    const back = (await set({ pathPrefix: '/', tls: { certificate: '' }, maxConnections: 1024 })).body.settings;
    expect(back).toMatchObject({ pathPrefix: '/', tls: { certificate: '' }, lanOnly: true });
  });

  it('the status says where it listens and warns that passwords cross plain HTTP', async () => {
    const st = (await dav.call('GET', '/api/webdav/status')).body;
    expect(st).toMatchObject({ ret: 0, enabled: true, status: { state: 'running', port: dav.port, scheme: 'http' } });
    expect(st.status.warnings.map((w: { code: string }) => w.code)).toContain('plainHttpPasswords');
    expect(st.lastLogs.some((l: { code: string }) => l.code === 'listening')).toBe(true);
  });
});

describe('sign-in', () => {
  it('no credentials, a wrong password or an unknown user: 401 with the UTF-8 Basic challenge; OPTIONS too', async () => {
    for (const [method, auth] of [
      ['GET', undefined],
      ['OPTIONS', undefined],
      ['PROPFIND', undefined],
      ['GET', 'alice:wrong-password'],
      ['GET', 'nobody:alice-password'],
      ['GET', 'alice'],
    ] as const) {
      const r = await request(dav.port, '/files/inside.txt', { method, auth, from: '127.0.0.11' });
      expect(r.status, `${method} ${auth}`).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Basic realm="Lucky WebDAV", charset="UTF-8"');
      expect(r.body).not.toContain(sandbox.insideContent);
    }
    const ok = await request(dav.port, '/files/inside.txt', { auth: ALICE });
    expect([ok.status, ok.body]).toEqual([200, sandbox.insideContent]);
    const options = await request(dav.port, '/', { method: 'OPTIONS', auth: ALICE });
    expect(options.headers.dav).toContain('2');
    expect(options.headers['ms-author-via']).toBe('DAV');
  });

  it('after loginMaxFailures wrong passwords the address is locked (429, even with the right one); the owner’s other address gets in', async () => {
    expect((await dav.call('PUT', '/api/baseconfigure', { loginMaxFailures: 3 })).body.ret).toBe(0);
    try {
      for (let i = 0; i < 3; i++) {
        const r = await request(dav.port, '/files/inside.txt', { auth: `alice:guess-${i}`, from: '127.0.0.12' });
        expect(r.status).toBe(401);
      }
      const lockedOut = await request(dav.port, '/files/inside.txt', { auth: ALICE, from: '127.0.0.12' });
      expect(lockedOut.status).toBe(429);
      expect(Number(lockedOut.headers['retry-after'])).toBeGreaterThan(60);
      const owner = await request(dav.port, '/files/inside.txt', { auth: ALICE, from: '127.0.0.13' });
      expect([owner.status, owner.body]).toEqual([200, sandbox.insideContent]);
      const log = (await dav.call('GET', '/api/webdav/logs')).body.logs.map((l: { code: string }) => l.code);
      expect(log).toContain('authFailed');
      expect(log).toContain('authLocked');
    } finally {
      await dav.call('PUT', '/api/baseconfigure', { loginMaxFailures: 5 });
    }
  });

  it('a changed password or a switched-off user holds at the next request, on a connection that stays open', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (auth: string) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port: dav.port,
            path: '/files/inside.txt',
            agent,
            headers: { authorization: `Basic ${b64(auth)}` },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
          },
        );
        req.on('error', reject);
      });
    try {
      const carol = await dav.addUser({ name: 'carol', password: 'carol-password', access: { [keys.mFiles]: 'ro' } });
      const first = await get('carol:carol-password');
      expect(first.status).toBe(200);
      await dav.call('PUT', `/api/webdav/users/${carol}`, {
        name: 'carol',
        password: 'carol-new-password',
        access: { [keys.mFiles]: 'ro' },
      });
      const old = await get('carol:carol-password');
      expect(old.status).toBe(401);
      // The reload kept the listener: the same keep-alive connection carried both answers.
      expect(old.socket).toBe(first.socket);
      expect((await get('carol:carol-new-password')).status).toBe(200);
      await dav.call('PUT', `/api/webdav/users/${carol}/enable`, { enabled: false });
      expect((await get('carol:carol-new-password')).status).toBe(401);
      await dav.call('DELETE', `/api/webdav/users/${carol}`);
    } finally {
      agent.destroy();
    }
  });
});

describe('anonymous read', () => {
  it('with anonymous read on, clients without credentials read the public mounts only; writing and OPTIONS still ask to sign in', async () => {
    expect((await dav.call('PUT', '/api/webdav/settings', { anonymousReadOnly: true })).body.ret).toBe(0);
    const pub = await dav.call('PUT', `/api/webdav/mounts/${keys.mShared}`, {
      name: 'shared',
      storage: keys.files,
      public: true,
    });
    expect(pub.body.mount.public).toBe(true);
    try {
      const file = await request(dav.port, '/shared/inside.txt');
      expect([file.status, file.body]).toEqual([200, sandbox.insideContent]);
      const root = await request(dav.port, '/', { method: 'PROPFIND', headers: { depth: '1' } });
      expect(root.status).toBe(207);
      expect(root.body).toContain('/shared/');
      expect(root.body).not.toContain('/files/');
      expect((await request(dav.port, '/files/inside.txt')).status).toBe(404);
      for (const [method, body] of [
        ['PUT', 'x'],
        ['DELETE', undefined],
        ['MKCOL', undefined],
        ['OPTIONS', undefined],
      ] as const) {
        const r = await request(dav.port, '/shared/anon.txt', { method, body });
        expect(r.status, method).toBe(401);
      }
      // Signed in, the same client gets its own access (alice writes where anonymous only reads).
      const put = await request(dav.port, '/shared/by-alice.txt', { method: 'PUT', body: 'a', auth: ALICE });
      expect(put.status).toBe(201);
      await fs.rm(path.join(sandbox.root, 'by-alice.txt'));
    } finally {
      await dav.call('PUT', '/api/webdav/settings', { anonymousReadOnly: false });
      await dav.call('PUT', `/api/webdav/mounts/${keys.mShared}`, {
        name: 'shared',
        storage: keys.files,
        public: false,
      });
    }
    expect((await request(dav.port, '/shared/inside.txt')).status).toBe(401);
  });
});

describe('read-only access', () => {
  const writes = (mount: string): [string, string, Record<string, string>, string?][] => [
    ['PUT', `/${mount}/new.txt`, {}, 'x'],
    ['PUT', `/${mount}/inside.txt`, {}, 'x'],
    ['DELETE', `/${mount}/inside.txt`, {}],
    ['MKCOL', `/${mount}/newdir`, {}],
    ['COPY', `/${mount}/inside.txt`, { destination: `/${mount}/copy.txt` }],
    ['MOVE', `/${mount}/inside.txt`, { destination: `/${mount}/moved.txt` }],
    [
      'PROPPATCH',
      `/${mount}/inside.txt`,
      { 'content-type': 'application/xml' },
      '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x:a xmlns:x="urn:x">1</x:a></D:prop></D:set></D:propertyupdate>',
    ],
    [
      'LOCK',
      `/${mount}/inside.txt`,
      { 'content-type': 'application/xml', timeout: 'Second-60' },
      '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    ],
  ];

  it('a read-only user is refused every write verb with 403, and can still read', async () => {
    for (const [method, p, headers, body] of writes('shared')) {
      const r = await request(dav.port, p, { method, headers, body, auth: RO });
      expect(r.status, `${method} ${p}`).toBe(403);
    }
    expect((await request(dav.port, '/shared/inside.txt', { auth: RO })).body).toBe(sandbox.insideContent);
    // The mounts the reader was not given are not there for them.
    expect((await request(dav.port, '/files/inside.txt', { auth: RO })).status).toBe(404);
    expect(await sandbox.changedOutside()).toEqual([]);
    expect(await fs.readFile(path.join(sandbox.root, 'inside.txt'), 'utf8')).toBe(sandbox.insideContent);
  });

  it('a read-only storage refuses writes whatever the user may do', async () => {
    for (const [method, p, headers, body] of writes('locked')) {
      const r = await request(dav.port, p.replace('inside.txt', 'kept.txt'), { method, headers, body, auth: ALICE });
      expect(r.status, `${method} ${p}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${method} ${p}`).toBeLessThan(500);
    }
    expect(await fs.readdir(locked)).toEqual(['kept.txt']);
    expect(await fs.readFile(path.join(locked, 'kept.txt'), 'utf8')).toBe('kept');
  });
});

describe('the escape corpus through the module', () => {
  it('no answer carries a secret and nothing outside the storage changes, for every method', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const send = (method: string, p: string, headers: Record<string, string> = {}, body?: string) =>
      new Promise<string>((resolve) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: dav.port,
            path: p,
            method,
            agent,
            headers: { authorization: `Basic ${b64(ALICE)}`, depth: '1', ...headers },
          },
          (res) => {
            let text = JSON.stringify(res.headers);
            res.setEncoding('latin1');
            res.on('data', (d: string) => {
              text += d;
            });
            res.on('end', () => resolve(`${res.statusCode} ${text}`));
          },
        );
        // A path node refuses to send at all (a raw space …) cannot reach the server either.
        req.on('error', (err) => resolve(`client refused: ${err.message}`));
        req.end(body);
      });
    const leaks: string[] = [];
    const paths = httpEscapes('/files');
    let sent = 0;
    for (const p of paths) {
      const answers = await Promise.all([
        send('GET', p),
        send('PROPFIND', p),
        send('PUT', p, {}, 'ESCAPED-WRITE'),
        send('DELETE', p),
        send('MKCOL', p),
        send('COPY', '/files/inside.txt', { destination: p }),
        send('MOVE', p, { destination: '/files/moved-back.txt' }),
        send('LOCK', p, { 'content-type': 'application/xml' }),
      ]);
      sent += answers.length;
      for (const a of answers) if (leakedMarkers(sandbox, a).length > 0) leaks.push(`${p}: ${a.slice(0, 200)}`);
    }
    agent.destroy();
    console.log(
      `webdav escape corpus: ${paths.length} paths, ${sent} requests through the module, ${leaks.length} leaks`,
    );
    expect(leaks).toEqual([]);
    expect(await sandbox.changedOutside()).toEqual([]);
  }, 40_000);
});

describe('who may connect', () => {
  /** Resolves 'reset' when the server closed the connection without an answer. */
  const attempt = (from: string, extra: { headers?: Record<string, string> } = {}) =>
    request(dav.port, '/files/inside.txt', { auth: ALICE, from, ...extra }).then(
      (r) => r.status,
      (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? 'reset' : err.message),
    );

  it('the block and allow lists reset refused addresses at accept; the others are served', async () => {
    expect((await dav.call('PUT', '/api/webdav/settings', { blockList: ['127.0.0.20/31'] })).body.ret).toBe(0);
    expect(await attempt('127.0.0.20')).toBe('reset');
    expect(await attempt('127.0.0.21')).toBe('reset');
    expect(await attempt('127.0.0.22')).toBe(200);
    expect((await dav.call('PUT', '/api/webdav/settings', { blockList: [], allowList: ['127.0.0.1'] })).body.ret).toBe(
      0,
    );
    expect(await attempt('127.0.0.23')).toBe('reset');
    expect(await attempt('127.0.0.1')).toBe(200);
    await dav.call('PUT', '/api/webdav/settings', { allowList: [] });
    const log = (await dav.call('GET', '/api/webdav/logs?pageSize=200')).body.logs.map((l: { code: string }) => l.code);
    expect(log).toContain('refusedBlocked');
    expect(log).toContain('refusedNotAllowed');
    expect((await dav.call('GET', '/api/webdav/status')).body.status.refused).toBeGreaterThanOrEqual(3);
  });

  it('a trusted proxy’s X-Forwarded-For is the client the rules judge; from an untrusted peer it is ignored', async () => {
    const outside = { headers: { 'x-forwarded-for': '198.51.100.9' } };
    // 127.0.0.1 is trusted by default (the web service on this box): the client is the outside one.
    expect(await attempt('127.0.0.1', outside)).toBe(403);
    await dav.call('PUT', '/api/webdav/settings', { trustedProxies: [] });
    expect(await attempt('127.0.0.1', outside)).toBe(200);
    await dav.call('PUT', '/api/webdav/settings', { trustedProxies: ['127.0.0.1', '::1'] });
  });

  describe('LAN only, from a namespace with a public address', () => {
    let outside: OutsideNamespace;
    let publicPort: number;

    beforeAll(async () => {
      outside = outsideNamespace('lkdav', '198.51.100');
      // Listen on every address so the namespace can reach it.
      publicPort = dav.port;
      expect((await dav.call('PUT', '/api/webdav/settings', { address: '' })).body.ret).toBe(0);
      await waitFor(
        async () => (await dav.call('GET', '/api/webdav/status')).body.status.state,
        (s) => s === 'running',
      );
    });
    afterAll(async () => {
      outside?.remove();
      await dav.call('PUT', '/api/webdav/settings', { address: '127.0.0.1', lanOnly: true });
    });

    /** The HTTP status as curl prints it (`000`: no answer at all). */
    const curl = async () => {
      const r = await outside.curl(`http://${outside.gateway}:${publicPort}/files/inside.txt`, ['-u', ALICE]);
      return String(r.status).padStart(3, '0');
    };

    it('a client outside the LAN is reset at accept while LAN only is on, and served once it is off', async () => {
      // 000: no HTTP answer at all (the connection was reset before a byte was read).
      expect(await curl()).toBe('000');
      const log = (await dav.call('GET', '/api/webdav/logs?pageSize=200')).body.logs;
      expect(
        log.some(
          (l: { code: string; params: { client: string } }) =>
            l.code === 'refusedNotLan' && l.params.client === outside.outside,
        ),
      ).toBe(true);
      expect((await dav.call('PUT', '/api/webdav/settings', { lanOnly: false })).body.ret).toBe(0);
      expect(await curl()).toBe('200');
    }, 30_000);
  });
});

describe('HTTPS with a certificate of the store', () => {
  it('serves HTTPS only, by SNI and with the named certificate for clients without one; curl trusts it with --cacert', async () => {
    const cert = await makeCert(['nas.test']);
    const other = await makeCert(['other.test']);
    for (const c of [other, cert]) {
      const r = await dav.call('POST', '/api/ssl', { CertBase64: b64(c.cert), KeyBase64: b64(c.key) });
      expect(r.body.ret).toBe(0);
    }
    const ca = path.join(box, 'nas.pem');
    await fs.writeFile(ca, cert.cert);
    expect(
      (await dav.call('PUT', '/api/webdav/settings', { tls: { enabled: true, certificate: 'nas.test' } })).body.ret,
    ).toBe(0);
    try {
      const { stdout } = await run('curl', [
        '-s',
        '--cacert',
        ca,
        '--resolve',
        `nas.test:${dav.port}:127.0.0.1`,
        '-u',
        ALICE,
        `https://nas.test:${dav.port}/files/inside.txt`,
      ]);
      expect(stdout).toBe(sandbox.insideContent);
      // A client that connects by IP sends no server name: it gets nas.test's certificate, not the other one.
      const names = await new Promise<string>((resolve, reject) => {
        const s = tls.connect({ host: '127.0.0.1', port: dav.port, rejectUnauthorized: false }, () => {
          resolve(s.getPeerCertificate().subjectaltname ?? '');
          s.destroy();
        });
        s.on('error', reject);
      });
      expect(names).toBe('DNS:nas.test');
      // Plain HTTP on the TLS port gets no answer: a password never crosses in the clear.
      const plain = await request(dav.port, '/files/inside.txt', { auth: ALICE }).then(
        (r) => r.status,
        () => 'closed',
      );
      expect(plain).toBe('closed');
      const st = (await dav.call('GET', '/api/webdav/status')).body.status;
      expect(st.scheme).toBe('https');
      expect(st.warnings.map((w: { code: string }) => w.code)).not.toContain('plainHttpPasswords');
    } finally {
      await dav.call('PUT', '/api/webdav/settings', { tls: { enabled: false, certificate: '' } });
    }
  });
});
