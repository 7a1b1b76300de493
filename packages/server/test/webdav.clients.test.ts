// Real clients against the WebDAV module on a real console, signed in as a user: litmus (the
// WebDAV conformance suite, Debian package) directly on the module's port and published by a web
// service rule under a path of a site (sub rule /dav → http://127.0.0.1:<WebDAV port>, the
// module's path prefix /dav), and rclone over HTTPS with a certificate of the store (a tree up and
// back byte-exact). davfs2 cannot mount in this container (its FUSE mount fails every directory
// read, against Apache mod_dav too: see webdav-engine.rclone.test.ts), so rclone is the
// file-system-level client.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, makeCert } from './certs-helpers.js';
import { freePort } from './portforward-helpers.js';
import { type DavConsole, startDavConsole } from './webdav-helpers.js';

const run = promisify(execFile);

interface Suite {
  run: number;
  passed: number;
  failed: number;
}

/** Runs litmus's `suites` against `url`; per suite its counts, and the warnings it printed. */
async function litmus(
  url: string,
  suites: string[],
): Promise<{ suites: Record<string, Suite>; warnings: string[]; out: string }> {
  // litmus writes its debug.log into its working directory: a temp folder, not the checkout.
  const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-litmus-'));
  const r = await run('litmus', [url, 'alice', 'alice-password'], {
    cwd,
    env: { ...process.env, TESTS: suites.join(' ') },
    maxBuffer: 8 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
  await fs.rm(cwd, { recursive: true, force: true });
  const out = `${r.stdout}${r.stderr}`;
  const found: Record<string, Suite> = {};
  for (const m of out.matchAll(/summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)) {
    found[m[1]] = { run: Number(m[2]), passed: Number(m[3]), failed: Number(m[4]) };
  }
  const warnings = out.split('\n').filter((l) => /WARNING/.test(l));
  return { suites: found, warnings, out };
}

let dav: DavConsole;
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-webdav-litmus-'));
  dav = await startDavConsole({ pathPrefix: '/dav' });
  const storage = await dav.addStorage('litmus', dir);
  const mount = await dav.addMount({ name: 'files', storage });
  await dav.addUser({ name: 'alice', password: 'alice-password', access: { [mount]: 'rw' } });
}, 30_000);
afterAll(async () => {
  await dav?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('litmus through the module, signed in', () => {
  it('basic, copymove and locks pass with no failure', async () => {
    const r = await litmus(`http://127.0.0.1:${dav.port}/dav/files/`, ['basic', 'copymove', 'locks']);
    console.log(`litmus via the module: ${JSON.stringify(r.suites)}; warnings: ${r.warnings.length}`);
    for (const suite of ['basic', 'copymove', 'locks']) {
      expect(r.suites[suite], r.out).toBeDefined();
      expect(r.suites[suite].failed, r.out).toBe(0);
      expect(r.suites[suite].passed).toBe(r.suites[suite].run);
    }
    expect(r.warnings, r.out).toEqual([]);
  }, 40_000);
});

describe('published under /dav of a web service rule', () => {
  it('litmus basic passes through the web service’s proxy; the client the module sees is the real one', async () => {
    const webPort = await freePort();
    const rule = await dav.call('POST', '/api/reverseproxy/rules', {
      address: '127.0.0.1',
      port: webPort,
      defaultRule: { serviceType: 'text', text: 'site' },
      subRules: [
        {
          domains: ['127.0.0.1'],
          pathPrefix: '/dav',
          serviceType: 'proxy',
          targets: [`http://127.0.0.1:${dav.port}`],
        },
      ],
    });
    expect(rule.body.ret, JSON.stringify(rule.body)).toBe(0);
    const r = await litmus(`http://127.0.0.1:${webPort}/dav/files/`, ['basic']);
    console.log(`litmus via the web service: ${JSON.stringify(r.suites)}`);
    expect(r.suites.basic, r.out).toBeDefined();
    expect(r.suites.basic.failed, r.out).toBe(0);
    // The module logged the writes with the client the web service named (X-Forwarded-For).
    const logs = (await dav.call('GET', '/api/webdav/logs?pageSize=500')).body.logs;
    const puts = logs.filter(
      (l: { code: string; params: { method: string } }) => l.code === 'request' && l.params.method === 'PUT',
    );
    expect(puts.length).toBeGreaterThan(0);
    expect(puts[0].params).toMatchObject({ client: '127.0.0.1', user: 'alice' });
  }, 40_000);
});

describe('rclone over HTTPS with a certificate of the store', () => {
  it('a tree goes up and comes back byte-exact, signed in; a wrong password is refused', async () => {
    // An IP address in the certificate: rclone is pointed at 127.0.0.1 (no name to resolve).
    const cert = await makeCert(['dav.test'], { ips: ['127.0.0.1'] });
    expect(
      (await dav.call('POST', '/api/ssl', { CertBase64: b64(cert.cert), KeyBase64: b64(cert.key) })).body.ret,
    ).toBe(0);
    expect((await dav.call('PUT', '/api/webdav/settings', { tls: { enabled: true } })).body.ret).toBe(0);
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-webdav-rclone-'));
    try {
      const ca = path.join(work, 'ca.pem');
      await fs.writeFile(ca, cert.cert);
      const files: Record<string, Buffer> = {
        'big.bin': randomBytes(3 * 1024 * 1024 + 7),
        'sub/中文 名字.txt': Buffer.from('中文'),
        'sub/100% #1 & [x].dat': randomBytes(5000),
      };
      for (const [rel, bytes] of Object.entries(files)) {
        await fs.mkdir(path.dirname(path.join(work, 'up', rel)), { recursive: true });
        await fs.writeFile(path.join(work, 'up', rel), bytes);
      }
      const obscured = async (pw: string) => (await run('rclone', ['obscure', pw])).stdout.trim();
      const remote = (pass: string) =>
        `:webdav,url='https://127.0.0.1:${dav.port}/dav/files',vendor=other,user=alice,pass=${pass}:`;
      const rclone = (...args: string[]) =>
        run(
          'rclone',
          ['--config', '/dev/null', '--ca-cert', ca, '--low-level-retries', '1', '--retries', '1', ...args],
          {
            env: { ...process.env, RCLONE_CONFIG: '/dev/null' },
          },
        );
      const good = remote(await obscured('alice-password'));
      await rclone('copy', path.join(work, 'up'), `${good}tree`);
      await rclone('copy', `${good}tree`, path.join(work, 'down'));
      for (const [rel, bytes] of Object.entries(files)) {
        expect((await fs.readFile(path.join(work, 'down', rel))).equals(bytes), rel).toBe(true);
        expect((await fs.readFile(path.join(dir, 'tree', rel))).equals(bytes), rel).toBe(true);
      }
      const bad = await rclone('lsd', remote(await obscured('wrong-password'))).then(
        () => 'listed',
        (err: { stderr?: string }) => err.stderr ?? '',
      );
      expect(bad).toMatch(/401|Unauthorized/);
    } finally {
      await dav.call('PUT', '/api/webdav/settings', { tls: { enabled: false } });
      await fs.rm(work, { recursive: true, force: true });
    }
  }, 40_000);
});
