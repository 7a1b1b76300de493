import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createUpdater,
  readUpdateMarker,
  rollbackRelease,
  UPDATE_MARKER,
  UpdateError,
  type Updater,
} from './release.js';

const PACKAGE_SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../scripts/package.mjs');
const DEPS = { fastify: '5.12.8' };

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lucky-release-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function write(root: string, rel: string, content: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

/** A built checkout (or an install) of `version`. */
function makeTree(root: string, version: string, deps: Record<string, string> = DEPS): void {
  write(root, 'package.json', JSON.stringify({ name: 'lucky-console', version, private: true }));
  write(root, 'packages/server/package.json', JSON.stringify({ name: '@lucky/server', version, dependencies: deps }));
  write(
    root,
    'packages/shared/package.json',
    JSON.stringify({ name: '@lucky/shared', version, dependencies: { zod: '4.6.7' } }),
  );
  write(root, 'packages/web/package.json', JSON.stringify({ name: '@lucky/web', version }));
  write(root, 'packages/server/dist/main.js', `console.log('server ${version}');\n`);
  write(root, 'packages/server/dist/core/app.js', `export const v = '${version}';\n`);
  write(root, 'packages/web/dist/index.html', `<html>${version}</html>`);
  write(root, 'packages/web/dist/assets/app.js', `/* ${version} */`);
  write(root, 'packages/shared/dist/index.js', `export {};\n`);
}

/** Runs scripts/package.mjs on a fake checkout; returns the .tar.gz path. */
function buildPackage(version: string, deps: Record<string, string> = DEPS): string {
  const src = join(tmp, `src-${version}-${Math.random().toString(36).slice(2)}`);
  makeTree(src, version, deps);
  write(src, 'packages/shared/dist/skip.tsbuildinfo', 'x');
  const out = join(tmp, 'out');
  execFileSync(process.execPath, [PACKAGE_SCRIPT, '--root', src, '--out', out], { stdio: 'pipe' });
  return join(out, `lucky-console-${version}.tar.gz`);
}

/** Unpacks a package, lets `mutate` change it, packs it again. */
function repack(pkg: string, mutate: (top: string) => void, extraTarArgs: string[] = []): string {
  const dir = mkdtempSync(join(tmp, 'repack-'));
  execFileSync('tar', ['-xzf', pkg, '-C', dir]);
  mutate(join(dir, 'lucky-console'));
  const out = join(tmp, `repacked-${Math.random().toString(36).slice(2)}.tar.gz`);
  execFileSync('tar', ['-czf', out, '-C', dir, ...extraTarArgs, 'lucky-console']);
  return out;
}

function rehash(top: string, edit: (files: Record<string, string>) => void = () => {}): void {
  const m = JSON.parse(readFileSync(join(top, 'release.json'), 'utf8'));
  edit(m.files);
  for (const k of Object.keys(m.files)) {
    m.files[k] = createHash('sha256')
      .update(readFileSync(join(top, k)))
      .digest('hex');
  }
  writeFileSync(join(top, 'release.json'), JSON.stringify(m));
}

async function expectUpdateError(p: Promise<unknown>, code: string, msg?: RegExp): Promise<void> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UpdateError);
  expect((e as UpdateError).code).toBe(code);
  if (msg) expect((e as UpdateError).message).toMatch(msg);
}

describe('scripts/package.mjs', () => {
  it('builds the documented layout with a manifest', () => {
    const pkg = buildPackage('2.0.0');
    const names = execFileSync('tar', ['-tzf', pkg], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toContain('lucky-console/release.json');
    expect(names).toContain('lucky-console/packages/server/dist/main.js');
    expect(names).toContain('lucky-console/packages/web/dist/assets/app.js');
    expect(names).toContain('lucky-console/packages/shared/package.json');
    expect(names.some((n) => n.endsWith('.tsbuildinfo'))).toBe(false);
    expect(names.every((n) => n.startsWith('lucky-console/'))).toBe(true);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', pkg, 'lucky-console/release.json'], { encoding: 'utf8' }),
    );
    expect(manifest).toMatchObject({ name: 'lucky-console', version: '2.0.0' });
    expect(Number.isNaN(Date.parse(manifest.createdAt))).toBe(false);
    expect(manifest.files['packages/server/dist/main.js']).toBe(
      createHash('sha256').update("console.log('server 2.0.0');\n").digest('hex'),
    );
    expect(Object.keys(manifest.files)).toHaveLength(9);
  });
  it('refuses an unbuilt checkout', () => {
    const src = join(tmp, 'unbuilt');
    write(src, 'package.json', JSON.stringify({ version: '1.0.0' }));
    expect(() =>
      execFileSync(process.execPath, [PACKAGE_SCRIPT, '--root', src, '--out', join(tmp, 'o')], { stdio: 'pipe' }),
    ).toThrow(/npm run build/);
  });
});

describe('createUpdater', () => {
  let install: string;
  let staging: string;
  let updater: Updater;
  beforeEach(() => {
    install = join(tmp, 'install');
    staging = join(tmp, 'staging');
    makeTree(install, '1.0.0');
    updater = createUpdater({ installRoot: install, stagingDir: staging });
  });
  const read = (rel: string) => readFileSync(join(install, rel), 'utf8');
  const stagingEmpty = () => !existsSync(staging) || readdirSync(staging).length === 0;

  it('happy path: stage, confirm (swap, keep .prev, marker), rollback', async () => {
    const pkg = buildPackage('2.0.0');
    const s = await updater.stage(pkg);
    expect(s.version).toBe('2.0.0');
    expect(s.key).toMatch(/^[0-9a-f]{32}$/);
    expect(s.manifest.name).toBe('lucky-console');
    expect(updater.pending()).toEqual({ key: s.key, version: '2.0.0' });
    expect(read('packages/server/dist/main.js')).toContain('1.0.0'); // nothing changes before confirm

    await expectUpdateError(updater.confirm('nope'), 'bad-key');
    expect(await updater.confirm(s.key)).toEqual({ version: '2.0.0' });
    expect(read('packages/server/dist/main.js')).toContain('2.0.0');
    expect(read('packages/web/dist/index.html')).toContain('2.0.0');
    expect(JSON.parse(read('package.json')).version).toBe('2.0.0');
    expect(read('packages/server/dist.prev/main.js')).toContain('1.0.0');
    expect(read('packages/web/dist.prev/index.html')).toContain('1.0.0');
    expect(read('packages/shared/dist.prev/index.js')).toBe('export {};\n');
    expect(existsSync(join(install, 'packages/server/dist.new'))).toBe(false);
    const marker = await readUpdateMarker(install);
    expect(marker).toMatchObject({ from: '1.0.0', to: '2.0.0' });
    expect(Number.isNaN(Date.parse(marker?.at ?? ''))).toBe(false);
    expect(marker?.paths.map((p) => p.path)).toContain('packages/server/dist');
    expect(stagingEmpty()).toBe(true);
    expect(updater.pending()).toBeNull();
    await expectUpdateError(updater.confirm(s.key), 'no-staged');

    // a second update replaces the older .prev
    const s3 = await updater.stage(buildPackage('3.0.0'));
    await updater.confirm(s3.key);
    expect(read('packages/server/dist/main.js')).toContain('3.0.0');
    expect(read('packages/server/dist.prev/main.js')).toContain('2.0.0');
    expect(await readUpdateMarker(install)).toMatchObject({ from: '2.0.0', to: '3.0.0' });

    expect(await updater.rollback()).toEqual({ version: '2.0.0' });
    expect(read('packages/server/dist/main.js')).toContain('2.0.0');
    expect(read('packages/web/dist/assets/app.js')).toContain('2.0.0');
    expect(existsSync(join(install, 'packages/server/dist.prev'))).toBe(false);
    expect(existsSync(join(install, UPDATE_MARKER))).toBe(false);
    await expectUpdateError(updater.rollback(), 'no-rollback');
  });

  it('rollbackRelease removes paths the update created', async () => {
    rmSync(join(install, 'packages/web'), { recursive: true });
    const s = await updater.stage(buildPackage('2.0.0'));
    await updater.confirm(s.key);
    expect(existsSync(join(install, 'packages/web/dist/index.html'))).toBe(true);
    expect(await rollbackRelease(install)).toEqual({ version: '1.0.0' });
    expect(existsSync(join(install, 'packages/web/dist'))).toBe(false);
    expect(existsSync(join(install, 'packages/web/package.json'))).toBe(false);
    expect(read('packages/server/dist/main.js')).toContain('1.0.0');
  });

  it('refuses a tampered file (hash mismatch)', async () => {
    const pkg = repack(buildPackage('2.0.0'), (top) => write(top, 'packages/server/dist/core/app.js', 'evil()'));
    await expectUpdateError(updater.stage(pkg), 'tampered', /packages\/server\/dist\/core\/app\.js.*checksum/);
    expect(stagingEmpty()).toBe(true);
    expect(updater.pending()).toBeNull();
    expect(read('packages/server/dist/core/app.js')).toContain('1.0.0');
  });

  it('refuses unlisted and missing files', async () => {
    const extra = repack(buildPackage('2.0.0'), (top) => write(top, 'packages/server/dist/extra.js', 'x'));
    await expectUpdateError(updater.stage(extra), 'tampered', /extra\.js.*not listed/);
    const missing = repack(buildPackage('2.0.0'), (top) => rmSync(join(top, 'packages/web/dist/assets/app.js')));
    await expectUpdateError(updater.stage(missing), 'tampered', /app\.js.*missing/);
    expect(stagingEmpty()).toBe(true);
  });

  it('refuses a package without packages/server/dist/main.js', async () => {
    const pkg = repack(buildPackage('2.0.0'), (top) => {
      rmSync(join(top, 'packages/server/dist/main.js'));
      rehash(top, (files) => delete files['packages/server/dist/main.js']);
    });
    await expectUpdateError(updater.stage(pkg), 'invalid-package', /main\.js is missing/);
    expect(stagingEmpty()).toBe(true);
  });

  it('refuses `..` entries before extracting anything', async () => {
    const pkg = repack(buildPackage('2.0.0'), (top) => write(join(top, '..'), 'escape.txt', 'pwned'), [
      '-P',
      '--transform',
      's,^escape\\.txt$,lucky-console/../../escape.txt,',
      'escape.txt',
    ]);
    expect(execFileSync('tar', ['-tzf', pkg], { encoding: 'utf8', stdio: 'pipe' })).toContain(
      'lucky-console/../../escape.txt',
    );
    await expectUpdateError(updater.stage(pkg), 'unsafe-entry', /\.\.\/\.\.\/escape\.txt/);
    expect(existsSync(join(tmp, 'escape.txt'))).toBe(false);
    expect(stagingEmpty()).toBe(true);
  });

  it('refuses absolute paths, symlinks, hard links and foreign top folders', async () => {
    const abs = join(tmp, 'abs.txt');
    writeFileSync(abs, 'x');
    const absPkg = repack(buildPackage('2.0.0'), () => {}, ['-P', abs]);
    await expectUpdateError(updater.stage(absPkg), 'unsafe-entry', /abs\.txt/);

    const sym = repack(buildPackage('2.0.0'), (top) => symlinkSync('/etc', join(top, 'packages/server/dist/etc')));
    await expectUpdateError(updater.stage(sym), 'unsafe-entry', /symbolic link/);

    const hard = repack(buildPackage('2.0.0'), (top) =>
      linkSync(join(top, 'packages/server/dist/main.js'), join(top, 'packages/server/dist/main2.js')),
    );
    await expectUpdateError(updater.stage(hard), 'unsafe-entry', /hard link/);

    const other = join(tmp, 'other.tar.gz');
    mkdirSync(join(tmp, 'o/other'), { recursive: true });
    writeFileSync(join(tmp, 'o/other/x'), 'x');
    execFileSync('tar', ['-czf', other, '-C', join(tmp, 'o'), 'other']);
    await expectUpdateError(updater.stage(other), 'unsafe-entry', /under lucky-console/);
    expect(stagingEmpty()).toBe(true);
  });

  it('refuses a wrong name, garbage, oversize and changed dependencies', async () => {
    const named = repack(buildPackage('2.0.0'), (top) => {
      const m = JSON.parse(readFileSync(join(top, 'release.json'), 'utf8'));
      m.name = 'something-else';
      writeFileSync(join(top, 'release.json'), JSON.stringify(m));
    });
    await expectUpdateError(updater.stage(named), 'invalid-package', /name/);

    const junk = join(tmp, 'junk.tar.gz');
    writeFileSync(junk, 'not a tarball');
    await expectUpdateError(updater.stage(junk), 'invalid-package', /not a \.tar\.gz/);
    await expectUpdateError(updater.stage(join(tmp, 'absent.tar.gz')), 'invalid-package');

    const small = createUpdater({ installRoot: install, stagingDir: staging, maxBytes: 100 });
    await expectUpdateError(small.stage(buildPackage('2.0.0')), 'too-large');
    const tinyUnpacked = createUpdater({ installRoot: install, stagingDir: staging, maxUnpackedBytes: 2000 });
    await expectUpdateError(tinyUnpacked.stage(buildPackage('2.0.0')), 'too-large', /unpacks/);

    const deps = buildPackage('2.0.0', { fastify: '5.12.8', undici: '7.30.2' });
    await expectUpdateError(updater.stage(deps), 'incompatible', /packages\/server\/package\.json/);
    expect(stagingEmpty()).toBe(true);
  });

  it('cancel removes staging; a new upload replaces the old one', async () => {
    const a = await updater.stage(buildPackage('2.0.0'));
    expect(readdirSync(staging)).toEqual([a.key]);
    const b = await updater.stage(buildPackage('2.0.1'));
    expect(readdirSync(staging)).toEqual([b.key]);
    await expectUpdateError(updater.confirm(a.key), 'bad-key');
    await updater.cancel();
    expect(stagingEmpty()).toBe(true);
    expect(updater.pending()).toBeNull();
    await expectUpdateError(updater.confirm(b.key), 'no-staged');
    await updater.cancel(); // idempotent
    expect(read('packages/server/dist/main.js')).toContain('1.0.0');
  });

  it('a staged package expires', async () => {
    const u = createUpdater({ installRoot: install, stagingDir: staging, ttlMs: 1 });
    const s = await u.stage(buildPackage('2.0.0'));
    await new Promise((r) => setTimeout(r, 10));
    expect(u.pending()).toBeNull();
    await expectUpdateError(u.confirm(s.key), 'no-staged');
    expect(stagingEmpty()).toBe(true);
  });

  it('one operation at a time', async () => {
    const pkg = buildPackage('2.0.0');
    const first = updater.stage(pkg);
    await expectUpdateError(updater.stage(pkg), 'busy');
    await first;
  });
});
