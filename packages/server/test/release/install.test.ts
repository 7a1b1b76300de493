import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_ROOT } from '../../src/core/version.js';
import { waitFor } from '../wait.js';

// The installable archive end to end: `scripts/package.mjs --arch <this CPU>` builds it from this
// checkout's build, its install.sh puts it into a temp prefix, the console runs on the archive's own
// Node, updates itself through the API with a signed package, rolls back from a broken one, and
// install.sh --uninstall removes the program and keeps the config.
const run = promisify(execFile);
const ARCH = process.arch === 'arm64' ? 'arm64' : 'x64';
/** ELF e_machine values. */
const MACHINE = { x64: 62, arm64: 183 } as const;
const key = generateKeyPairSync('ed25519');
const privatePem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let tmp: string;
let unpacked: string;
let prefix: string;
let configDir: string;
let version: string;
let v2: string;
let v3: string;
let pkg2: string;
let pkg3: string;
let console_: ChildProcess | undefined;
let output = '';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A fake checkout for package.mjs: this build's dist trees (symlinked) under a bumped version. */
async function fakeRoot(dir: string, v: string, serverDist?: (dist: string) => Promise<void>): Promise<string> {
  const rootPkg = JSON.parse(await fs.readFile(path.join(INSTALL_ROOT, 'package.json'), 'utf8'));
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ ...rootPkg, version: v }, null, 2));
  for (const p of ['server', 'shared', 'web']) {
    await fs.mkdir(path.join(dir, 'packages', p), { recursive: true });
    await fs.copyFile(
      path.join(INSTALL_ROOT, 'packages', p, 'package.json'),
      path.join(dir, 'packages', p, 'package.json'),
    );
    if (p !== 'server' || !serverDist) {
      await fs.symlink(path.join(INSTALL_ROOT, 'packages', p, 'dist'), path.join(dir, 'packages', p, 'dist'));
    }
  }
  // The native helper's build output (beside dist/ in a checkout; package.mjs moves it into dist/).
  await fs.symlink(path.join(INSTALL_ROOT, 'packages/server/native'), path.join(dir, 'packages/server/native'));
  if (serverDist) {
    const real = path.join(INSTALL_ROOT, 'packages/server/dist');
    const dist = path.join(dir, 'packages/server/dist');
    await fs.mkdir(dist);
    for (const e of await fs.readdir(real)) await fs.symlink(path.join(real, e), path.join(dist, e));
    await serverDist(dist);
  }
  return dir;
}

/** A signed self-update package of a fake checkout; returns its path. */
async function selfUpdatePackage(root: string, v: string): Promise<string> {
  const out = path.join(tmp, `out-${v}`);
  await run(process.execPath, [path.join(INSTALL_ROOT, 'scripts/package.mjs'), '--root', root, '--out', out], {
    env: { ...process.env, LUCKY_RELEASE_SIGNING_KEY: privatePem },
  });
  return path.join(out, `lucky-console-${v}.tar.gz`);
}

async function installSh(script: string, ...args: string[]) {
  return run('sh', [script, ...args], { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' } });
}

/** ELF files under dir (relative path → e_machine). */
async function elfFiles(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const walk = async (rel: string) => {
    for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else if (e.isFile()) {
        const fh = await fs.open(path.join(dir, r));
        const { bytesRead, buffer } = await fh.read(Buffer.alloc(20), 0, 20, 0);
        await fh.close();
        if (bytesRead === 20 && buffer.readUInt32BE(0) === 0x7f454c46) out.set(r, buffer.readUInt16LE(18));
      }
    }
  };
  await walk('');
  return out;
}

function sharpVersion(): string {
  const server = JSON.parse(readFileSync(path.join(INSTALL_ROOT, 'packages/server/package.json'), 'utf8'));
  return server.dependencies.sharp;
}

/** Every file under dir with its size and mode: what "the same install" means here. */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      const st = await fs.lstat(path.join(dir, r));
      out.push(`${r} ${st.isDirectory() ? 'dir' : st.size} ${(st.mode & 0o777).toString(8)}`);
      if (e.isDirectory()) await walk(r);
    }
  };
  await walk('');
  return out.sort();
}

let port: number;
const base = () => `http://127.0.0.1:${port}`;
async function get(p: string, token?: string) {
  const r = await fetch(`${base()}${p}`, { headers: token ? { authorization: token } : {} });
  return r.json();
}
const versionNow = () => get('/version').then((b: { version?: string }) => b.version);

/**
 * The archive unpacks to ~200 MB and is copied a few times: in memory (tmpfs) when the machine has
 * one, so the test waits on the CPU rather than on a shared disk.
 */
async function scratchBase(): Promise<string> {
  const shm = await fs.stat('/dev/shm').catch(() => null);
  if (
    shm?.isDirectory() &&
    (await fs.access('/dev/shm', 2).then(
      () => true,
      () => false,
    ))
  )
    return '/dev/shm';
  return os.tmpdir();
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(await scratchBase(), 'lucky-install-'));
  version = JSON.parse(await fs.readFile(path.join(INSTALL_ROOT, 'package.json'), 'utf8')).version;
  v2 = `${version}-test.2`;
  v3 = `${version}-test.3`;
  prefix = path.join(tmp, 'prefix');
  configDir = path.join(tmp, 'config');
  unpacked = path.join(tmp, 'unpacked');
  const archive = async () => {
    const out = path.join(tmp, 'out');
    await run(process.execPath, [path.join(INSTALL_ROOT, 'scripts/package.mjs'), '--out', out, '--arch', ARCH], {
      maxBuffer: 16 << 20,
      env: { ...process.env, TMPDIR: path.dirname(tmp) },
    });
    await fs.mkdir(unpacked);
    await run('tar', ['-xzf', path.join(out, `lucky-console-${version}-linux-${ARCH}.tar.gz`), '-C', unpacked]);
  };
  // The two update packages: a second version of the same program, and a third whose server
  // throws on start. Built while the archive builds (they need only the checkout).
  const second = async () => {
    pkg2 = await selfUpdatePackage(await fakeRoot(path.join(tmp, 'root2'), v2), v2);
  };
  const third = async () => {
    const broken = await fakeRoot(path.join(tmp, 'root3'), v3, async (dist) => {
      await fs.rm(path.join(dist, 'main.js'));
      await fs.writeFile(path.join(dist, 'main.js'), "throw new Error('release test: broken on purpose');\n");
    });
    pkg3 = await selfUpdatePackage(broken, v3);
  };
  await Promise.all([archive(), second(), third()]);
}, 120_000);

afterAll(async () => {
  if (console_?.exitCode === null) {
    const exited = new Promise((r) => console_?.once('exit', r));
    console_.kill('SIGTERM');
    await exited;
  }
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe('installable archive', () => {
  it(`carries Node, the app and its production dependencies, all for ${ARCH}`, async () => {
    const top = path.join(unpacked, `lucky-console-${version}-linux-${ARCH}`);
    // Every ELF file (executables, .node addons, shared libraries) by its header's e_machine.
    const elves = await elfFiles(top);
    expect(elves.get('node/bin/node')).toBe(MACHINE[ARCH]);
    expect(elves.get(`app/node_modules/@img/sharp-linux-${ARCH}/lib/sharp-linux-${ARCH}-${sharpVersion()}.node`)).toBe(
      MACHINE[ARCH],
    );
    expect([...elves.keys()].some((f) => f.startsWith(`app/node_modules/@img/sharp-libvips-linux-${ARCH}/`))).toBe(
      true,
    );
    expect([...elves].filter(([, m]) => m !== MACHINE[ARCH])).toEqual([]);
    // Node is shipped stripped (no symbol table, no debug info), and the add-ons still link
    // against its dynamic symbols: sharp makes an image with the archive's own Node.
    const sections = (await run('readelf', ['-S', '-W', path.join(top, 'node/bin/node')])).stdout;
    expect(sections).toContain('.dynsym');
    expect(sections).not.toMatch(/\.symtab|\.debug_info/);
    if (ARCH === process.arch) {
      const png = await run(
        path.join(top, 'node/bin/node'),
        [
          '-e',
          "require('sharp')({create:{width:2,height:2,channels:3,background:'#000'}}).png().toBuffer().then(b=>console.log(b.subarray(1,4).toString()))",
        ],
        { cwd: path.join(top, 'app/packages/server') },
      );
      expect(png.stdout.trim()).toBe('PNG');
    }
    // Production only: a dev dependency of the server and the web's source dependencies are absent.
    const has = (p: string) =>
      fs.stat(path.join(top, 'app/node_modules', p)).then(
        () => true,
        () => false,
      );
    expect(await has('fastify/package.json')).toBe(true);
    expect(await has('sharp/package.json')).toBe(true);
    expect(await has('vitest')).toBe(false);
    expect(await has('ws')).toBe(false);
    expect(await has('react')).toBe(false);
    expect(await has('@lucky/shared/dist/index.js')).toBe(true);
  });

  it('install.sh installs into a fresh prefix, twice with the same result, and prints the start command', async () => {
    const script = path.join(unpacked, `lucky-console-${version}-linux-${ARCH}/install.sh`);
    const first = await installSh(script, '--prefix', prefix, '--config-dir', configDir, '--no-systemd');
    const startLine = `  ${prefix}/bin/lucky -cd ${configDir}`;
    expect(first.stdout).toContain(`created the config dir ${configDir}`);
    expect(first.stdout.split('\n')).toContain(startLine);
    expect((await fs.stat(configDir)).mode & 0o777).toBe(0o700);
    const before = await listing(prefix);
    await fs.writeFile(path.join(configDir, 'keep.txt'), 'mine');
    const second = await installSh(script, '--prefix', prefix, '--config-dir', configDir, '--no-systemd');
    expect(second.stdout).not.toContain('created the config dir');
    expect(second.stdout.split('\n')).toContain(startLine);
    expect(await listing(prefix)).toEqual(before);
    expect(await fs.readFile(path.join(configDir, 'keep.txt'), 'utf8')).toBe('mine');
    expect(await fs.readdir(configDir)).toEqual(['keep.txt']);
  }, 60_000);

  it("runs on the archive's own Node 24, updates itself with a signed package, and rolls back from a broken one", async () => {
    await fs.mkdir(path.join(configDir, 'trusted-keys'));
    await fs.writeFile(
      path.join(configDir, 'trusted-keys/test.pem'),
      key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    port = await freePort();
    // PATH holds only the machine's directories (its /usr/bin/node is Node 20): the console must not use them.
    console_ = spawn(path.join(prefix, 'bin/lucky'), ['-p', String(port), '-cd', configDir], {
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    console_.stdout?.on('data', (d) => (output += d));
    console_.stderr?.on('data', (d) => (output += d));
    expect(await waitFor(versionNow, (v) => v === version, { timeout: 30_000, what: 'first /version' })).toBe(version);
    expect(await fs.readlink(`/proc/${console_.pid}/exe`)).toBe(path.join(prefix, 'node/bin/node'));

    const login = await fetch(`${base()}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: '666', Password: '666' }),
    }).then((r) => r.json());
    expect(login.ret, JSON.stringify(login)).toBe(0);
    const token: string = login.token;
    const info = (await get('/api/info', token)).info;
    expect(info.NodeVersion).toMatch(/^v24\./);
    expect(info.Version).toBe(version);

    const update = async (pkg: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await fs.readFile(pkg))]), path.basename(pkg));
      const up = await fetch(`${base()}/api/update`, { method: 'POST', headers: { authorization: token }, body: form });
      const staged = await up.json();
      expect(staged, JSON.stringify(staged)).toMatchObject({ ret: 0, signature: { status: 'trusted' } });
      const ok = await fetch(`${base()}/api/update/comfire`, {
        method: 'PUT',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ key: staged.key }),
      }).then((r) => r.json());
      expect(ok, JSON.stringify(ok)).toMatchObject({ ret: 0 });
    };

    await update(pkg2);
    await waitFor(versionNow, (v) => v === v2, { timeout: 30_000, what: `the console at ${v2}` });
    expect(await fs.readFile(path.join(prefix, 'app/package.json'), 'utf8')).toContain(`"version": "${v2}"`);

    // The broken third: the supervisor puts the second back.
    await update(pkg3);
    await waitFor(
      () => output,
      (o) => o.includes(`version ${v3} did not start; rolled back to ${v2}`),
      {
        timeout: 30_000,
        what: 'the roll-back message',
      },
    );
    await waitFor(versionNow, (v) => v === v2, { timeout: 30_000, what: `the console back at ${v2}` });
    expect(await fs.readFile(path.join(prefix, 'app/packages/server/dist/main.js'), 'utf8')).not.toContain(
      'broken on purpose',
    );
    await expect(fs.stat(path.join(prefix, 'app/.lucky-update.json'))).rejects.toMatchObject({ code: 'ENOENT' });

    const exited = new Promise((r) => console_?.once('exit', r));
    console_.kill('SIGTERM');
    await exited;
  }, 90_000);

  it('install.sh --uninstall removes the program and keeps the config', async () => {
    const { stdout } = await installSh(path.join(prefix, 'install.sh'), '--uninstall', '--prefix', prefix);
    expect(stdout).toContain(`removed ${prefix}`);
    expect(stdout).toContain(`kept the config dir ${configDir}`);
    await expect(fs.stat(prefix)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await fs.readFile(path.join(configDir, 'keep.txt'), 'utf8')).toBe('mine');
    expect((await fs.readdir(configDir)).length).toBeGreaterThan(1); // the console's own state files too
  });
});
