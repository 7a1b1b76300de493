import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../src/core/system/releaseSignature.js';
import { INSTALL_ROOT } from '../src/core/version.js';
import { startTestServer, type TestServer, tempDir } from './harness.js';

// Upload → verify → cancel through the API, with a real package of this build.
// (Confirming would swap this checkout's own build; the swap and the roll-back
// are tested on copies in src/core/system/release.test.ts.)
const run = promisify(execFile);
let s: TestServer;
let token: string;
let pkg: string;
let outDir: string;
// The package is signed with a key made here; the server trusts it through <config dir>/trusted-keys/.
const key = generateKeyPairSync('ed25519');
const privatePem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

beforeAll(async () => {
  outDir = await tempDir('lucky-release-');
  await run(process.execPath, [path.join(INSTALL_ROOT, 'scripts/package.mjs'), '--out', outDir], {
    env: { ...process.env, LUCKY_RELEASE_SIGNING_KEY: privatePem },
  });
  pkg = path.join(outDir, (await fs.readdir(outDir)).find((n) => n.endsWith('.tar.gz'))!);
  const configDir = await tempDir();
  await fs.mkdir(path.join(configDir, 'trusted-keys'));
  await fs.writeFile(
    path.join(configDir, 'trusted-keys/test.pem'),
    key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  );
  s = await startTestServer({ configDir });
  token = await s.login();
}, 60_000);
afterAll(async () => {
  await s.close();
  await fs.rm(s.configDir, { recursive: true, force: true });
  await fs.rm(outDir, { recursive: true, force: true });
});

async function upload(file: Buffer, name: string, query = '') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const res = await fetch(`${s.url}/api/update${query}`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

/** Unpacks the package, lets `edit` change lucky-console/, packs it again. */
async function repack(edit: (top: string) => Promise<void>): Promise<Buffer> {
  const dir = await tempDir('lucky-repack-');
  try {
    await run('tar', ['-xzf', pkg, '-C', dir]);
    await edit(path.join(dir, 'lucky-console'));
    await run('tar', ['-czf', path.join(dir, 'out.tar.gz'), '-C', dir, 'lucky-console']);
    return await fs.readFile(path.join(dir, 'out.tar.gz'));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe('update by upload', () => {
  it('verifies a real release package, reports its version, and cancels it', async () => {
    const r = await upload(await fs.readFile(pkg), path.basename(pkg));
    expect(r.body, JSON.stringify(r.body)).toMatchObject({
      ret: 0,
      version: s.server.core.version,
      signature: { status: 'trusted', keyId: keyIdOf(key.publicKey), keyName: 'trusted-keys/test.pem' },
    });
    expect(r.body.key).toBeTruthy();
    expect((await s.call('GET', '/api/update/cancel', { token })).body.ret).toBe(0);
    const late = await s.call('PUT', '/api/update/comfire', { token, body: { key: r.body.key } });
    expect(late.body.ret).not.toBe(0);
    expect(late.body.field).toBe('key');
  });

  it('refuses a damaged package and anything that is not one, naming the field', async () => {
    const bytes = await fs.readFile(pkg);
    const damaged = Buffer.from(bytes);
    damaged[Math.floor(damaged.length / 2)] ^= 0xff;
    const r = await upload(damaged, 'damaged.tar.gz');
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.body).toMatchObject({ ret: 1, field: 'file' });
    const junk = await upload(Buffer.from('not a tarball'), 'x.tar.gz');
    expect(junk.body).toMatchObject({ ret: 1, field: 'file' });
  });
});

describe('signed updates', () => {
  // Each upload is unpacked and hashed (seconds on a loaded machine): the variants are made once.
  const other = generateKeyPairSync('ed25519');
  let unsigned: Buffer;
  let foreign: Buffer;
  let tampered: Buffer;
  beforeAll(async () => {
    unsigned = await repack((top) => fs.rm(path.join(top, 'release.sig')));
    foreign = await repack(async (top) => {
      const manifest = await fs.readFile(path.join(top, 'release.json'));
      const sig = sign(null, manifest, other.privateKey).toString('base64');
      await fs.writeFile(
        path.join(top, 'release.sig'),
        JSON.stringify({ alg: 'ed25519', keyId: keyIdOf(other.publicKey), sig }),
      );
    });
    // A changed file with its checksum updated: self-consistent, but no longer what was signed.
    tampered = await repack(async (top) => {
      const main = path.join(top, 'packages/server/dist/main.js');
      await fs.appendFile(main, '\n// injected\n');
      const m = JSON.parse(await fs.readFile(path.join(top, 'release.json'), 'utf8'));
      m.files['packages/server/dist/main.js'] = createHash('sha256')
        .update(await fs.readFile(main))
        .digest('hex');
      await fs.writeFile(path.join(top, 'release.json'), `${JSON.stringify(m, null, 2)}\n`);
    });
  }, 120_000);
  const refusedUnsigned = (r: { status: number; body: { ret: number; field?: string; code?: string } }) => {
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ ret: 1, field: 'file', code: 'releaseUnsigned' });
  };

  it('refuses an unsigned package with a clear message', async () => {
    const r = await upload(unsigned, 'u.tar.gz');
    refusedUnsigned(r);
    expect(r.body.msg).toMatch(/not signed/);
    const bad = await upload(unsigned, 'u.tar.gz', '?allowUnsigned=yes');
    expect(bad.body).toMatchObject({ ret: 1, field: 'allowUnsigned' });
  });

  it('stages an unsigned package once the admin confirmed the warning (?allowUnsigned=1), and logs it', async () => {
    const ok = await upload(unsigned, 'u.tar.gz', '?allowUnsigned=1');
    expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ ret: 0, signature: { status: 'unsigned' } });
    const logs = (await s.call('GET', '/api/logs', { token })).body;
    expect(JSON.stringify(logs)).toMatch(/WITHOUT a trusted signature \(unsigned\); the admin confirmed/);
    expect((await s.call('GET', '/api/update/cancel', { token })).body.ret).toBe(0);
  });

  it('treats a signature by a key the install does not hold as unsigned', async () => {
    const r = await upload(foreign, 'f.tar.gz');
    refusedUnsigned(r);
    expect(r.body.msg).toContain(keyIdOf(other.publicKey));
  });

  it('stages a package by an unknown key once confirmed, naming the key', async () => {
    const ok = await upload(foreign, 'f.tar.gz', '?allowUnsigned=1');
    expect(ok.body).toMatchObject({ ret: 0, signature: { status: 'unknown-key', keyId: keyIdOf(other.publicKey) } });
    expect((await s.call('GET', '/api/update/cancel', { token })).body.ret).toBe(0);
  });

  for (const q of ['', '?allowUnsigned=1']) {
    it(`refuses a tampered signed package${q ? ' even when the admin confirms' : ''}`, async () => {
      const r = await upload(tampered, 't.tar.gz', q);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ ret: 1, field: 'file', code: 'releaseBadSignature' });
      expect(r.body.msg).toMatch(/bad signature/);
    });
  }
});
