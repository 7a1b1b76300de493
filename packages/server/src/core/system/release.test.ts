import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
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
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createUpdater,
  readUpdateMarker,
  rollbackRelease,
  UPDATE_MARKER,
  UpdateError,
  type Updater,
} from './release.js';
import { keyIdOf, loadTrustedKeys } from './releaseSignature.js';

const PACKAGE_SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../scripts/package.mjs');
const DEPS = { fastify: '5.12.8' };

/** A signing key made for these tests; installs trust it through <config dir>/trusted-keys/. */
function testKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    keyId: keyIdOf(publicKey),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
const KEY = testKey();

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

/**
 * Runs scripts/package.mjs on a fake checkout; returns the .tar.gz path. Signed with the test
 * key unless `signWith` is null (unsigned) or another PEM / key file path.
 */
function buildPackage(
  version: string,
  deps: Record<string, string> = DEPS,
  signWith: string | null = KEY.privatePem,
  extra: (src: string) => void = () => {},
) {
  const src = join(tmp, `src-${version}-${Math.random().toString(36).slice(2)}`);
  makeTree(src, version, deps);
  extra(src);
  write(src, 'packages/shared/dist/skip.tsbuildinfo', 'x');
  const out = join(tmp, 'out');
  const env = { ...process.env };
  delete env.LUCKY_RELEASE_SIGNING_KEY;
  if (signWith !== null) env.LUCKY_RELEASE_SIGNING_KEY = signWith;
  execFileSync(process.execPath, [PACKAGE_SCRIPT, '--root', src, '--out', out], { stdio: 'pipe', env });
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
  it('carries the native helper, built outside dist/, inside packages/server/dist/ (which the updater swaps)', () => {
    const helper = 'not really ELF, only bytes to follow';
    const pkg = buildPackage('2.0.0', DEPS, KEY.privatePem, (src) =>
      write(src, 'packages/server/native/build/sharedport.node', helper),
    );
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', pkg, 'lucky-console/release.json'], { encoding: 'utf8' }),
    );
    expect(manifest.files['packages/server/dist/native/sharedport.node']).toBe(
      createHash('sha256').update(helper).digest('hex'),
    );
    expect(Object.keys(manifest.files).some((f) => f.includes('native/build'))).toBe(false);
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
  let configDir: string;
  const trustedKeys = () => loadTrustedKeys(configDir);
  beforeEach(() => {
    install = join(tmp, 'install');
    staging = join(tmp, 'staging');
    configDir = join(tmp, 'config');
    write(configDir, 'trusted-keys/test.pem', KEY.publicPem);
    makeTree(install, '1.0.0');
    updater = createUpdater({ installRoot: install, stagingDir: staging, trustedKeys });
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

    const small = createUpdater({ installRoot: install, stagingDir: staging, maxBytes: 100, trustedKeys });
    await expectUpdateError(small.stage(buildPackage('2.0.0')), 'too-large');
    const tinyUnpacked = createUpdater({
      installRoot: install,
      stagingDir: staging,
      maxUnpackedBytes: 2000,
      trustedKeys,
    });
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
    const u = createUpdater({ installRoot: install, stagingDir: staging, ttlMs: 60_000, trustedKeys });
    const s = await u.stage(buildPackage('2.0.0'));
    // The clock jumps instead of the test sleeping through the time-to-live (only Date is faked:
    // the file work below runs as usual).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.advanceTimersByTime(59_000);
      expect(u.pending()?.key).toBe(s.key);
      vi.advanceTimersByTime(1_001);
      expect(u.pending()).toBeNull();
      await expectUpdateError(u.confirm(s.key), 'no-staged');
    } finally {
      vi.useRealTimers();
    }
    expect(stagingEmpty()).toBe(true);
  });

  it('one operation at a time', async () => {
    const pkg = buildPackage('2.0.0');
    const first = updater.stage(pkg);
    await expectUpdateError(updater.stage(pkg), 'busy');
    await first;
  });
});

describe('release signatures', () => {
  let install: string;
  let staging: string;
  let configDir: string;
  let updater: Updater;
  const skipped: string[] = [];
  beforeEach(() => {
    install = join(tmp, 'install');
    staging = join(tmp, 'staging');
    configDir = join(tmp, 'config');
    write(configDir, 'trusted-keys/test.pem', KEY.publicPem);
    write(configDir, 'trusted-keys/junk.pem', 'not a key');
    write(configDir, 'trusted-keys/readme.txt', KEY.publicPem.replace('PUBLIC', 'IGNORED'));
    makeTree(install, '1.0.0');
    skipped.length = 0;
    updater = createUpdater({
      installRoot: install,
      stagingDir: staging,
      trustedKeys: () => loadTrustedKeys(configDir, (f) => skipped.push(f)),
    });
  });
  const readSig = (pkg: string) =>
    JSON.parse(execFileSync('tar', ['-xzOf', pkg, 'lucky-console/release.sig'], { encoding: 'utf8' }));

  it('package.mjs signs release.json with the key from the environment (PEM or a file path)', () => {
    const sig = readSig(buildPackage('2.0.0'));
    expect(sig).toMatchObject({ alg: 'ed25519', keyId: KEY.keyId });
    expect(Buffer.from(sig.sig, 'base64')).toHaveLength(64);
    const keyFile = join(tmp, 'signing.pem');
    writeFileSync(keyFile, KEY.privatePem);
    expect(readSig(buildPackage('2.0.1', DEPS, keyFile)).keyId).toBe(KEY.keyId);
    const names = execFileSync('tar', ['-tzf', buildPackage('2.0.2', DEPS, null)], { encoding: 'utf8' });
    expect(names).not.toContain('release.sig');
    expect(() => buildPackage('2.0.3', DEPS, join(tmp, 'absent.pem'))).toThrow(/cannot read/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect(() => buildPackage('2.0.4', DEPS, rsa.toString())).toThrow(/ed25519/);
  });

  it('a package signed by a trusted key is accepted (key from trusted-keys/, bad files there skipped)', async () => {
    const s = await updater.stage(buildPackage('2.0.0'));
    expect(s.signature).toEqual({ status: 'trusted', keyId: KEY.keyId, keyName: 'trusted-keys/test.pem' });
    expect(skipped).toEqual(['junk.pem']);
    await updater.confirm(s.key);
    expect(readFileSync(join(install, 'packages/server/dist/main.js'), 'utf8')).toContain('2.0.0');
  });

  it('a tampered signed package is refused, always, even with the admin confirmation', async () => {
    // Self-consistent: the file changed and its checksum in release.json with it.
    const changed = repack(buildPackage('2.0.0'), (top) => {
      writeFileSync(join(top, 'packages/server/dist/main.js'), 'evil()');
      rehash(top);
    });
    await expectUpdateError(updater.stage(changed), 'bad-signature', /does not match release\.json/);
    await expectUpdateError(updater.stage(changed, { allowUnsigned: true }), 'bad-signature');
    // The version in the manifest edited, nothing else.
    const relabelled = repack(buildPackage('2.0.0'), (top) => {
      const text = readFileSync(join(top, 'release.json'), 'utf8');
      writeFileSync(join(top, 'release.json'), text.replace('"2.0.0"', '"9.9.9"'));
    });
    await expectUpdateError(updater.stage(relabelled, { allowUnsigned: true }), 'bad-signature');
    const garbled = repack(buildPackage('2.0.0'), (top) => writeFileSync(join(top, 'release.sig'), '{"alg":"rsa"'));
    await expectUpdateError(updater.stage(garbled, { allowUnsigned: true }), 'bad-signature', /not valid JSON/);
    const listed = repack(buildPackage('2.0.0'), (top) => rehash(top, (f) => Object.assign(f, { 'release.sig': '' })));
    await expectUpdateError(updater.stage(listed, { allowUnsigned: true }), 'invalid-package', /release\.sig/);
    expect(existsSync(join(install, 'packages/server/dist/main.js.prev'))).toBe(false);
  });

  it('an unsigned package is refused with a clear message, and staged once the admin confirms', async () => {
    const pkg = buildPackage('2.0.0', DEPS, null);
    await expectUpdateError(updater.stage(pkg), 'unsigned', /not signed.*confirm/);
    expect(updater.pending()).toBeNull();
    const s = await updater.stage(pkg, { allowUnsigned: true });
    expect(s.signature).toEqual({ status: 'unsigned' });
    expect(updater.pending()?.version).toBe('2.0.0');
    // Removing the signature of a signed package makes it unsigned, not trusted.
    const stripped = repack(buildPackage('2.0.1'), (top) => rmSync(join(top, 'release.sig')));
    await expectUpdateError(updater.stage(stripped), 'unsigned');
  });

  it('a package signed by a key this install does not trust counts as unsigned', async () => {
    const other = testKey();
    const pkg = buildPackage('2.0.0', DEPS, other.privatePem);
    await expectUpdateError(updater.stage(pkg), 'unsigned', new RegExp(`key ${other.keyId}.*does not trust`));
    const s = await updater.stage(pkg, { allowUnsigned: true });
    expect(s.signature).toEqual({ status: 'unknown-key', keyId: other.keyId });
    // Without the trusted-keys folder only the built-in project key is trusted.
    const bare = createUpdater({ installRoot: install, stagingDir: staging });
    await expectUpdateError(bare.stage(buildPackage('2.0.1')), 'unsigned', new RegExp(KEY.keyId));
  });

  it('ships the project public key', async () => {
    const keys = await loadTrustedKeys();
    expect(keys.map((k) => k.keyId)).toEqual(['f1492102f0ff79ec']);
  });
});
