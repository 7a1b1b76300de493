import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../src/core/system/releaseSignature.js';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { adminFingerprint, apiToken, recordingTls } from './wanji_admin-helpers.js';

// Bulk update: the manager checks the package with its own trusted keys before anything leaves;
// a good one is uploaded to each console, which verifies it again (install=0: it stays staged
// there — installing would swap this checkout's build; the swap is the release tests' part).
const run = promisify(execFile);
const trusted = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');

let a: TestServer;
let c: TestServer;
let d: TestServer;
let session: string;
let work: string;
const keys: Record<string, string> = {};
let rec: Awaited<ReturnType<typeof recordingTls>>;

async function trustingDir(): Promise<string> {
  const dir = await tempDir();
  await fs.mkdir(path.join(dir, 'trusted-keys'));
  await fs.writeFile(
    path.join(dir, 'trusted-keys/test.pem'),
    trusted.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  );
  return dir;
}

/** A release package in the updater's layout, signed by `key` (or not), `edit` applied after signing. */
async function makePackage(
  name: string,
  key: KeyObject | undefined,
  publicKey?: KeyObject,
  tamper = false,
): Promise<string> {
  const root = path.join(work, name);
  const top = path.join(root, 'lucky-console');
  const files: Record<string, string> = {
    'packages/server/dist/main.js': 'console.log("7.7.7");\n',
    'packages/web/dist/index.html': '<!doctype html>\n',
    'packages/shared/dist/index.js': 'export {};\n',
  };
  const manifest = {
    name: 'lucky-console',
    version: '7.7.7',
    createdAt: new Date().toISOString(),
    files: {} as Record<string, string>,
  };
  for (const [p, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(top, p)), { recursive: true });
    await fs.writeFile(path.join(top, p), text);
    manifest.files[p] = createHash('sha256').update(text).digest('hex');
  }
  const bytes = Buffer.from(JSON.stringify(manifest, null, 2));
  await fs.writeFile(path.join(top, 'release.json'), bytes);
  if (key && publicKey) {
    const sig = sign(null, bytes, key).toString('base64');
    await fs.writeFile(
      path.join(top, 'release.sig'),
      JSON.stringify({ alg: 'ed25519', keyId: keyIdOf(publicKey), sig }),
    );
  }
  if (tamper) {
    // signed, then release.json changed (a checksum rewritten with it): the signature no longer matches
    const changed = { ...manifest, version: '7.7.8' };
    await fs.writeFile(path.join(top, 'release.json'), JSON.stringify(changed, null, 2));
  }
  const out = path.join(root, 'pkg.tar.gz');
  await run('tar', ['-czf', out, '-C', root, 'lucky-console']);
  return out;
}

async function bulkUpdate(file: string | undefined, keyList: string[]) {
  const form = new FormData();
  if (file) form.append('file', new Blob([new Uint8Array(await fs.readFile(file))]), 'pkg.tar.gz');
  const res = await fetch(`${a.url}/api/wanji_admin/bulk/update?keys=${keyList.join(',')}&install=0`, {
    method: 'POST',
    headers: { authorization: session },
    body: file ? form : undefined,
  });
  return { status: res.status, body: await res.json() };
}
const uploadsSeenBy = (s: TestServer) =>
  s.server.core.ring.since().filter((l) => l.log.includes('release package 7.7.')).length;

beforeAll(async () => {
  work = await tempDir('wanji-pkg-');
  [a, c, d, rec] = await Promise.all([
    trustingDir().then((configDir) => startTestServer({ configDir })),
    trustingDir().then((configDir) => startTestServer({ configDir })),
    startTestServer(),
    recordingTls(),
  ]);
  session = await a.login();
  const add = async (name: string, s: TestServer) => {
    const body = {
      name,
      url: `https://127.0.0.1:${s.server.port}`,
      token: await apiToken(s),
      tls: { mode: 'pin', fingerprint: await adminFingerprint(s.configDir) },
    };
    keys[name] = (await a.call('POST', '/api/wanji_admin/consoles', { token: session, body })).body.console.key;
  };
  await Promise.all([add('C', c), add('D', d)]);
  // R shows another certificate than the one pinned (C's): nothing may ever be written to it.
  const impostor = {
    name: 'R',
    url: `https://127.0.0.1:${rec.port}`,
    token: 'lkt_secret',
    tls: { mode: 'pin', fingerprint: await adminFingerprint(c.configDir) },
  };
  keys.R = (await a.call('POST', '/api/wanji_admin/consoles', { token: session, body: impostor })).body.console.key;
}, 30_000);
afterAll(async () => {
  await Promise.all([a?.close(), c?.close(), d?.close(), rec?.close()]);
  for (const s of [a, c]) if (s) await fs.rm(s.configDir, { recursive: true, force: true });
  await fs.rm(work, { recursive: true, force: true });
});

describe('bulk update', () => {
  it('refuses unsigned, unknown-key, tampered and missing packages before sending anything', async () => {
    const cases: [string | undefined, string][] = [
      [await makePackage('unsigned', undefined), 'packageUnsigned'],
      [await makePackage('stranger', stranger.privateKey, stranger.publicKey), 'packageUnsigned'],
      [await makePackage('tampered', trusted.privateKey, trusted.publicKey, true), 'packageBadSignature'],
      [undefined, 'packageRequired'],
    ];
    for (const [file, code] of cases) {
      const r = await bulkUpdate(file, [keys.C, keys.R]);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect([r.body.field, r.body.code]).toEqual(['file', code]);
    }
    expect(uploadsSeenBy(c)).toBe(0);
    expect(rec.bytes()).toBe('');
  });

  it('a bad signature by a trusted key is refused as such', async () => {
    const file = await makePackage('badsig', trusted.privateKey, trusted.publicKey);
    // the signature of another manifest under the same key id
    const dir = path.join(work, 'badsig', 'lucky-console');
    const sig = JSON.parse(await fs.readFile(path.join(dir, 'release.sig'), 'utf8'));
    sig.sig = sign(null, Buffer.from('something else'), trusted.privateKey).toString('base64');
    await fs.writeFile(path.join(dir, 'release.sig'), JSON.stringify(sig));
    await run('tar', ['-czf', file, '-C', path.join(work, 'badsig'), 'lucky-console']);
    const r = await bulkUpdate(file, [keys.C]);
    expect([r.body.field, r.body.code]).toEqual(['file', 'packageBadSignature']);
    expect(uploadsSeenBy(c)).toBe(0);
  });

  it('a signed package reaches each console; one that does not trust the key refuses with its own code', async () => {
    const file = await makePackage('good', trusted.privateKey, trusted.publicKey);
    const r = await bulkUpdate(file, [keys.C, keys.D, keys.R]);
    expect(r.status).toBe(200);
    const [cr, dr, rr] = r.body.results;
    expect(cr).toEqual({ key: keys.C, name: 'C', ok: true, version: '7.7.7' });
    expect(uploadsSeenBy(c)).toBe(1);
    expect(dr).toMatchObject({ key: keys.D, ok: false, code: 'remoteRefused', params: { status: 409 } });
    expect(uploadsSeenBy(d)).toBe(0);
    // the impostor: refused after the handshake, the token and the package never sent
    expect(rr).toMatchObject({ key: keys.R, ok: false, code: 'fingerprintMismatch' });
    expect(rec.bytes()).toBe('');
  });
});
