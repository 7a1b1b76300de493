import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { waitFor } from './wait.js';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = await s.login();
});
afterAll(async () => s.close());

async function upload(path: string, name: string, content: string | Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const res = await fetch(s.url + path, { method: 'POST', headers: { authorization: token }, body: form });
  return { status: res.status, body: await res.json() };
}

describe('backup and restore', () => {
  it('downloads the config, restores an edited copy after confirmation, and restarts', async () => {
    const res = await fetch(`${s.url}/api/configure`, { headers: { authorization: token } });
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="lucky_\d{14}\.json"/);
    const backup = await res.json();
    expect(backup.schemaVersion).toBe(1);
    backup.base.logMaxSize = 12345;
    const up = await upload('/api/configure', 'lucky.json', JSON.stringify(backup));
    expect(up.body, JSON.stringify(up.body)).toMatchObject({ ret: 0, file: 'lucky.json' });
    expect(up.body.restoreConfigureKey).toMatch(/^\d{16}$/);
    // Not applied before the confirmation.
    expect(s.server.core.store.get().base.logMaxSize).not.toBe(12345);
    const wrong = await s.call('GET', '/api/restoreconfigureconfirm?key=1234567890123456', { token });
    expect(wrong.body).toMatchObject({ ret: 1, field: 'key' });
    const restarts = s.restarts;
    const ok = await s.call('GET', `/api/restoreconfigureconfirm?key=${up.body.restoreConfigureKey}`, { token });
    expect(ok.body).toMatchObject({ ret: 0, port: 16601 });
    expect(s.server.core.store.get().base.logMaxSize).toBe(12345);
    // The answer goes out first, then the restart is asked for.
    await waitFor(() => s.restarts > restarts, { what: 'the restart' });
    expect(s.restarts).toBe(restarts + 1);
    // The same key cannot be used twice.
    const again = await s.call('GET', `/api/restoreconfigureconfirm?key=${up.body.restoreConfigureKey}`, { token });
    expect(again.body.ret).toBe(1);
  });

  it('refuses files that are not a Lucky config, naming the problem', async () => {
    const notJson = await upload('/api/configure', 'x.json', 'hello');
    expect(notJson.status).toBe(400);
    expect(notJson.body.msg).toMatch(/not valid JSON/);
    const badField = await upload(
      '/api/configure',
      'x.json',
      JSON.stringify({ schemaVersion: 1, base: { adminPort: -1 }, auth: {} }),
    );
    expect(badField.body.ret).toBe(1);
    expect(badField.body.msg).toMatch(/base\.adminPort|auth/);
  });

  it('getfilebase64 returns the bytes and refuses files over 1 MB', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const r = await upload('/api/getfilebase64', 'a.pem', pem);
    expect(r.body).toEqual({ ret: 0, file: 'a.pem', base64: Buffer.from(pem).toString('base64') });
    const big = await upload('/api/getfilebase64', 'big.bin', Buffer.alloc(1024 * 1024 + 1));
    expect(big.status).toBe(413);
    expect(big.body.ret).toBe(1);
  });
});
