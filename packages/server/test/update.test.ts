import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

beforeAll(async () => {
  outDir = await tempDir('lucky-release-');
  await run(process.execPath, [path.join(INSTALL_ROOT, 'scripts/package.mjs'), '--out', outDir]);
  pkg = path.join(outDir, (await fs.readdir(outDir)).find((n) => n.endsWith('.tar.gz'))!);
  s = await startTestServer();
  token = await s.login();
}, 60_000);
afterAll(async () => {
  await s.close();
  await fs.rm(outDir, { recursive: true, force: true });
});

async function upload(file: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([file]), name);
  const res = await fetch(`${s.url}/api/update`, { method: 'POST', headers: { authorization: token }, body: form });
  return { status: res.status, body: await res.json() };
}

describe('update by upload', () => {
  it('verifies a real release package, reports its version, and cancels it', async () => {
    const r = await upload(await fs.readFile(pkg), path.basename(pkg));
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ ret: 0, version: s.server.core.version });
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
