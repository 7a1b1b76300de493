// The FTP server's admin calls on a real server with the real storage management: settings with
// their refusals (codes + fields), mounts checked against storage management's storages, users
// with hashed passwords (masked on read, the mask keeps the hash), the module switch, status with
// live sessions, closing a session, the log; a reload that keeps sessions when another user
// changes and closes the session of a user who is removed; "in use by" for storage management.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SECRET_MASK } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FtpTestClient } from './ftp-client.js';
import { passiveRange } from './ftpserver-helpers.js';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { freePort } from './portforward-helpers.js';
import { waitFor } from './wait.js';

let ts: TestServer;
let token: string;
let dir: string;
let storageKey: string;
let ftpPort: number;
const call = (method: string, p: string, body?: unknown) => ts.call(method, p, { token, body });

beforeAll(async () => {
  ts = await startTestServer();
  token = await ts.login();
  dir = await tempDir('lucky-ftp-api-');
  await fs.writeFile(path.join(dir, 'hello.txt'), 'hello');
  const st = await call('POST', '/api/storagemanagement/storages', {
    name: 'nas',
    kind: 'local',
    local: { path: dir },
  });
  expect(st.body.ret, JSON.stringify(st.body)).toBe(0);
  storageKey = st.body.storage?.key ?? st.body.key;
  expect(typeof storageKey).toBe('string');
  ftpPort = await freePort();
});
afterAll(async () => {
  await ts?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const storedConfig = () =>
  ts.server.core.modules.configOf<{ users: Array<{ name: string; password: string }> }>('ftpserver');

describe('settings', () => {
  it('reads the defaults: off, port 2121, passive 50000-50100, LAN only, TLS offered', async () => {
    const r = await call('GET', '/api/ftpserver/settings');
    expect(r.body.settings).toMatchObject({
      enabled: false,
      port: 2121,
      passive: { portMin: 50000, portMax: 50100, announceAddress: '' },
      tls: { mode: 'explicit', certificate: '' },
      idleTimeoutSec: 300,
      perAddressMaxConnections: 8,
      lanOnly: true,
      anonymous: { enabled: false },
    });
    expect(r.body.settings.users).toBeUndefined();
  });

  it('refuses bad settings with the field and a code both languages translate', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ passive: { portMin: 50100, portMax: 50000 } }, 'passive.portMax', 'passiveInverted'],
      [{ port: 50050 }, 'passive.portMin', 'passiveHoldsControl'],
      [{ passive: { portMin: 20000, portMax: 29999 } }, 'passive.portMax', 'passiveTooLarge'],
      [{ passive: { announceAddress: 'not a host!' } }, 'passive.announceAddress', 'announceInvalid'],
      [{ allowList: ['10.0.0.0/8', 'nope'] }, 'allowList.1', 'cidrInvalid'],
      [{ tls: { mode: 'sometimes' } }, 'tls.mode', 'invalidValue'],
      [{ address: 'eth0' }, 'address', 'addressInvalid'],
    ];
    for (const [body, field, code] of cases) {
      const r = await call('PUT', '/api/ftpserver/settings', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body, JSON.stringify(body)).toMatchObject({ field, code });
    }
  });

  it('saves a partial change and keeps the rest', async () => {
    const p = passiveRange();
    const r = await call('PUT', '/api/ftpserver/settings', {
      port: ftpPort,
      address: '127.0.0.1',
      passive: { portMin: p.min, portMax: p.max },
      logLevel: 5,
    });
    expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
    expect(r.body.settings).toMatchObject({
      port: ftpPort,
      passive: { portMin: p.min, announceAddress: '' },
      tls: { mode: 'explicit' },
    });
  });
});

describe('mounts and users', () => {
  let mountKey: string;

  it('refuses a mount of a storage storage management does not have', async () => {
    const r = await call('POST', '/api/ftpserver/mounts', { name: 'x', storage: 'nope' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'storageNotFound', params: { storage: 'nope' } });
  });

  it('adds a mount and refuses a second one of the same name', async () => {
    const r = await call('POST', '/api/ftpserver/mounts', { name: 'share', storage: storageKey });
    expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
    mountKey = r.body.mount.key;
    expect(r.body.mount).toMatchObject({ name: 'share', storage: storageKey, enabled: true });
    const dup = await call('POST', '/api/ftpserver/mounts', { name: 'Share', storage: storageKey });
    expect(dup.body).toMatchObject({ code: 'nameTaken' });
    const bad = await call('POST', '/api/ftpserver/mounts', { name: '../up', storage: storageKey });
    expect(bad.body).toMatchObject({ code: 'mountNameInvalid', field: 'name' });
  });

  it('stores a new password as its scrypt hash, reads it masked, keeps it when the mask comes back', async () => {
    const none = await call('POST', '/api/ftpserver/users', { name: 'carol', access: { [mountKey]: 'rw' } });
    expect(none.body).toMatchObject({ code: 'passwordRequired', field: 'password' });
    const r = await call('POST', '/api/ftpserver/users', {
      name: 'carol',
      password: 'carol-pw',
      access: { [mountKey]: 'rw' },
    });
    expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
    expect(r.body.user.password).toBe(SECRET_MASK);
    const key = r.body.user.key;
    const hash = storedConfig().users.find((u) => u.name === 'carol')?.password ?? '';
    expect(hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify((await call('GET', '/api/ftpserver/users')).body)).not.toContain(hash);
    await call('PUT', `/api/ftpserver/users/${key}`, {
      name: 'carol',
      password: SECRET_MASK,
      access: { [mountKey]: 'ro' },
    });
    expect(storedConfig().users.find((u) => u.name === 'carol')?.password).toBe(hash);
    await call('PUT', `/api/ftpserver/users/${key}`, {
      name: 'carol',
      password: 'new-pw',
      access: { [mountKey]: 'rw' },
    });
    expect(storedConfig().users.find((u) => u.name === 'carol')?.password).not.toBe(hash);
  });

  it('refuses reserved and duplicate user names and access to unknown mounts', async () => {
    expect((await call('POST', '/api/ftpserver/users', { name: 'anonymous', password: 'x' })).body).toMatchObject({
      code: 'userNameReserved',
    });
    expect((await call('POST', '/api/ftpserver/users', { name: 'CAROL', password: 'x' })).body).toMatchObject({
      code: 'nameTaken',
    });
    expect(
      (await call('POST', '/api/ftpserver/users', { name: 'dave', password: 'x', access: { zz9: 'rw' } })).body,
    ).toMatchObject({
      code: 'mountNotFound',
    });
    expect((await call('POST', '/api/ftpserver/users', { name: 'a b', password: 'x' })).body).toMatchObject({
      code: 'userNameInvalid',
      field: 'name',
    });
  });

  it('tells storage management who mounts its storage', async () => {
    const r = await call('DELETE', `/api/storagemanagement/storages/${storageKey}`);
    expect(r.body.ret).not.toBe(0);
    expect(JSON.stringify(r.body)).toContain('ftpserver');
  });
});

describe('running', () => {
  let session: FtpTestClient;

  it('listens once switched on and lets the user in', async () => {
    expect((await call('PUT', '/api/modules/ftpserver/enabled', { enabled: true })).body.ret).toBe(0);
    const status = await waitFor(
      async () => (await call('GET', '/api/ftpserver/status')).body.status,
      (s) => s.listening === true,
    );
    // The test server's store has no certificate: AUTH TLS is refused, and the status says so.
    expect(status.reasons).toEqual([{ code: 'noCertificate' }]);
    const mounts = (await call('GET', '/api/ftpserver/mounts')).body.list;
    expect(mounts[0]).toMatchObject({ storageName: 'nas', available: true, storageReadOnly: false });
    session = await FtpTestClient.connect(ftpPort);
    expect((await session.read()).code).toBe(220);
    expect((await session.login('carol', 'new-pw')).code).toBe(230);
    expect((await session.fetch('RETR /share/hello.txt')).data.toString()).toBe('hello');
  });

  it('shows the session in the status and its lines in the log', async () => {
    const s = (await call('GET', '/api/ftpserver/status')).body.status;
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]).toMatchObject({ user: 'carol', tls: false });
    expect(s.bytesOut).toBe(5);
    const logs = (await call('GET', '/api/ftpserver/logs?pageSize=100')).body;
    const codes = logs.logs.map((l: { code: string }) => l.code);
    expect(codes).toContain('loginOk');
    expect(codes).toContain('transferDone');
  });

  it('keeps sessions when another user is added, closes the session of a user who is removed', async () => {
    const add = await call('POST', '/api/ftpserver/users', { name: 'erin', password: 'erin-pw', access: {} });
    expect(add.body.ret).toBe(0);
    expect((await session.cmd('NOOP')).code).toBe(200);
    const carol = (await call('GET', '/api/ftpserver/users')).body.list.find(
      (u: { name: string }) => u.name === 'carol',
    );
    expect((await call('DELETE', `/api/ftpserver/users/${carol.key}`)).body.ret).toBe(0);
    await waitFor(() => session.closed, { what: 'the removed user’s session closed' });
  });

  it('closes a session on request', async () => {
    const c = await FtpTestClient.connect(ftpPort);
    await c.read();
    expect((await c.login('erin', 'erin-pw')).code).toBe(230);
    const id = (await call('GET', '/api/ftpserver/status')).body.status.sessions[0].id;
    expect((await call('DELETE', `/api/ftpserver/sessions/${id}`)).body.ret).toBe(0);
    await waitFor(() => c.closed, { what: 'the session closed' });
    expect((await call('DELETE', '/api/ftpserver/sessions/nope')).body).toMatchObject({ code: 'sessionNotFound' });
  });

  it('removes a deleted mount from every user’s access', async () => {
    const mounts = (await call('GET', '/api/ftpserver/mounts')).body.list;
    const key = mounts[0].key;
    await call('PUT', `/api/ftpserver/settings`, { anonymous: { enabled: true, access: { [key]: 'ro' } } });
    expect((await call('DELETE', `/api/ftpserver/mounts/${key}`)).body.ret).toBe(0);
    const users = (await call('GET', '/api/ftpserver/users')).body.list;
    for (const u of users) expect(Object.keys(u.access)).not.toContain(key);
    expect((await call('GET', '/api/ftpserver/settings')).body.settings.anonymous.access).toEqual({});
  });

  it('answers moduleDisabled in the status once switched off, and holds no port', async () => {
    expect((await call('PUT', '/api/modules/ftpserver/enabled', { enabled: false })).body.ret).toBe(0);
    const s = (await call('GET', '/api/ftpserver/status')).body.status;
    expect(s).toMatchObject({ enabled: false, listening: false, reasons: [{ code: 'moduleDisabled' }] });
    const c = await FtpTestClient.connect(ftpPort);
    await waitFor(() => c.closed, { what: 'the connection refused' });
  });
});
