// Storage management on a real server: the refusals beside their fields, local and remote
// (Apache mod_dav) entries opened, published to other modules and probed, the password masked
// and kept, the switches, and a removal refused while a file service mounts the entry. The file
// service here is a stand-in module under the webdav key (the real one lives on its own branch):
// it declares mounts from its config and keeps its context, so the test sees exactly what a
// service gets from ctx.storages.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { issueKit } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModuleContext, ModuleDefinition } from '../src/core/modules/types.js';
import { storagemanagementModule } from '../src/modules/storagemanagement/index.js';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { type ApacheDav, startApacheDav } from './storage/apacheDav.js';
import { waitFor } from './wait.js';

const mounterSchema = z.object({
  enabled: z.boolean().default(true),
  mounts: z.array(z.object({ storage: z.string(), name: z.string() })).default([]),
});
type MounterConfig = z.infer<typeof mounterSchema>;
let serviceCtx: ModuleContext | undefined;
const mounter: ModuleDefinition<MounterConfig> = {
  key: 'webdav',
  configSchema: mounterSchema,
  issues: issueKit({}),
  storageMounts: (c) => c.mounts.map((m) => ({ storage: m.storage, owner: m.name })),
  createRuntime: (ctx) => {
    serviceCtx = ctx;
    return { start: async () => undefined, stop: async () => undefined, status: () => ({}) };
  },
};

let s: TestServer;
let token: string;
let dir: string;
let apache: ApacheDav;
const api = '/api/storagemanagement/storages';

beforeAll(async () => {
  dir = await tempDir('lucky-sm-');
  // Apache's workers (www-data) must pass through to their folder below.
  await fs.chmod(dir, 0o755);
  apache = await startApacheDav(path.join(dir, 'apache'));
  s = await startTestServer({
    modules: [storagemanagementModule as unknown as ModuleDefinition, mounter as unknown as ModuleDefinition],
  });
  token = await s.login();
  await s.server.core.modules.saveConfig('webdav', { enabled: true, mounts: [] });
}, 30_000);

afterAll(async () => {
  await s?.close();
  await apache?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

const call = (method: string, p: string, body?: unknown) => s.call(method, p, { token, body });
const local = (name: string, folder: string, extra: Record<string, unknown> = {}) => ({
  name,
  kind: 'local',
  local: { path: folder },
  ...extra,
});
const storages = () => serviceCtx?.storages;

describe('storage management API', () => {
  it('refuses bad entries beside their fields, and saves nothing', async () => {
    const file = path.join(dir, 'a-file');
    await fs.writeFile(file, '');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', 'nameRequired'],
      [local('x', ''), 'local.path', 'pathRequired'],
      [local('x', 'relative/dir'), 'local.path', 'pathNotAbsolute'],
      [local('x', '/tmp/a\u0000b'), 'local.path', 'pathInvalid'],
      [local('x', path.join(dir, 'missing')), 'local.path', 'pathNotFound'],
      [local('x', file), 'local.path', 'pathNotDir'],
      [{ name: 'x', kind: 'webdav' }, 'webdav.url', 'urlRequired'],
      [{ name: 'x', kind: 'webdav', webdav: { url: 'ftp://nas/' } }, 'webdav.url', 'urlInvalid'],
      [{ name: 'x', kind: 'webdav', webdav: { url: 'https://me:pw@nas/dav/' } }, 'webdav.url', 'urlHasCredentials'],
      [{ name: 'x', kind: 'nfs' }, 'kind', 'invalidValue'],
    ];
    for (const [body, field, code] of cases) {
      const r = await call('POST', api, { name: 'x', ...body });
      expect({ field: r.body.field, code: r.body.code, status: r.status }, JSON.stringify(body)).toEqual({
        field,
        code,
        status: 400,
      });
    }
    expect((await call('GET', api)).body.list).toEqual([]);
  });

  it('opens a local folder, publishes it to the file services and shows its space', async () => {
    const folder = path.join(dir, 'share');
    await fs.mkdir(folder);
    await fs.writeFile(path.join(folder, 'hello.txt'), 'hello');
    const r = await call('POST', api, local('Share', folder, { readOnly: true }));
    expect(r.body).toMatchObject({
      ret: 0,
      warnings: [],
      storage: { name: 'Share', kind: 'local', readOnly: true, mounts: [] },
    });
    const key = r.body.storage.key as string;
    const online = await waitFor(
      async () => (await call('GET', api)).body.list[0],
      (e) => e.state === 'online',
    );
    expect(online.space.total).toBeGreaterThan(0);
    expect(online.space.free).toBeGreaterThan(0);
    const st = storages()?.get(key);
    expect(st).toMatchObject({ key, kind: 'local', readOnly: true });
    if (!st) throw new Error('not published');
    const chunks: Buffer[] = [];
    for await (const c of await st.read('/hello.txt')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
    await expect(st.mkdir('/x')).rejects.toMatchObject({ code: 'readOnly' });
    expect(storages()?.list()).toEqual([{ key, name: 'Share', kind: 'local', readOnly: true }]);
    expect((await call('POST', api, local('Share', folder))).body).toMatchObject({ code: 'nameTaken', field: 'name' });
  });

  it('says why a storage is offline, and when it is back', async () => {
    const folder = path.join(dir, 'usb');
    await fs.mkdir(folder);
    const key = (await call('POST', api, local('USB disk', folder))).body.storage.key as string;
    await fs.rm(folder, { recursive: true });
    const off = (await call('POST', `${api}/${key}/probe`)).body.storage;
    expect(off).toMatchObject({
      state: 'offline',
      reason: { code: 'unreachable', params: { detail: `ENOENT: ${folder}` } },
    });
    expect(off.space).toBeUndefined();
    await fs.mkdir(folder);
    expect((await call('POST', `${api}/${key}/probe`)).body.storage.state).toBe('online');
    await call('DELETE', `${api}/${key}`);
  });

  it('warns, but saves, a storage publishing the whole file system', async () => {
    const r = await call('POST', api, local('Everything', '/'));
    expect(r.body).toMatchObject({ ret: 0, warnings: [{ code: 'rootFolder' }] });
    expect((await call('DELETE', `${api}/${r.body.storage.key}`)).body.ret).toBe(0);
  });

  it('opens a remote WebDAV server (Apache mod_dav), masks its password and keeps it when sent back masked', async () => {
    const body = {
      name: 'Apache',
      kind: 'webdav',
      webdav: { url: apache.url, user: apache.user, password: apache.password },
    };
    const r = await call('POST', api, body);
    expect(r.body.warnings).toEqual([{ code: 'plainHttp', params: { host: `127.0.0.1:${apache.port}` } }]);
    expect(r.body.storage.webdav.password).toBe('******');
    const key = r.body.storage.key as string;
    const online = await waitFor(
      async () => (await call('GET', `${api}/${key}`)).body.storage,
      (e) => e.state === 'online',
    );
    expect(JSON.stringify(online)).not.toContain(apache.password);
    // Sent back masked: the stored password stays and the storage still logs in.
    await call('PUT', `${api}/${key}`, { ...body, name: 'Apache box', webdav: { ...body.webdav, password: '******' } });
    const stored = (
      s.server.core.store.get().modules.storagemanagement as {
        storages: { key: string; webdav: { password: string } }[];
      }
    ).storages;
    expect(stored.find((x) => x.key === key)?.webdav.password).toBe(apache.password);
    expect((await call('POST', `${api}/${key}/probe`)).body.storage.state).toBe('online');
    await storages()?.get(key)?.mkdir('/from-lucky');
    expect((await fs.stat(path.join(apache.root, 'from-lucky'))).isDirectory()).toBe(true);
    // A wrong password: offline, access refused.
    await call('PUT', `${api}/${key}`, { ...body, webdav: { ...body.webdav, password: 'wrong' } });
    const denied = (await call('POST', `${api}/${key}/probe`)).body.storage;
    expect(denied).toMatchObject({ state: 'offline', reason: { code: 'denied' } });
    await call('DELETE', `${api}/${key}`);
  });

  it('refuses to remove a storage a file service mounts, naming who', async () => {
    const folder = path.join(dir, 'photos');
    await fs.mkdir(folder);
    const key = (await call('POST', api, local('Photos', folder))).body.storage.key as string;
    await s.server.core.modules.saveConfig('webdav', { enabled: false, mounts: [{ storage: key, name: 'pictures' }] });
    const listed = (await call('GET', `${api}/${key}`)).body.storage;
    expect(listed.mounts).toEqual([{ module: 'webdav', owner: 'pictures', enabled: false }]);
    const r = await call('DELETE', `${api}/${key}`);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'storageInUse', params: { name: 'Photos', users: ['webdav: pictures'] } });
    expect(r.body.msg).toContain('webdav: pictures');
    await s.server.core.modules.saveConfig('webdav', { enabled: true, mounts: [] });
    expect((await call('DELETE', `${api}/${key}`)).body.ret).toBe(0);
    expect(storages()?.get(key)).toBeUndefined();
  });

  it('switches: an entry off is unpublished; the module off publishes nothing and cannot probe', async () => {
    const folder = path.join(dir, 'docs');
    await fs.mkdir(folder);
    const key = (await call('POST', api, local('Docs', folder))).body.storage.key as string;
    expect(storages()?.get(key)).toBeDefined();
    const off = await call('PUT', `${api}/${key}/enable`, { enabled: false });
    expect(off.body.storage).toMatchObject({ enabled: false, state: 'disabled', reason: { code: 'entryDisabled' } });
    expect(storages()?.get(key)).toBeUndefined();
    await call('PUT', `${api}/${key}/enable`, { enabled: true });
    expect(storages()?.get(key)).toBeDefined();
    expect(
      (await s.call('PUT', '/api/modules/storagemanagement/enabled', { token, body: { enabled: false } })).body.ret,
    ).toBe(0);
    expect(storages()?.list()).toEqual([]);
    const list = (await call('GET', api)).body;
    expect(list.enabled).toBe(false);
    expect(list.list.every((e: { state: string }) => e.state === 'stopped')).toBe(true);
    expect((await call('POST', `${api}/${key}/probe`)).body).toMatchObject({ code: 'moduleDisabled' });
    await s.call('PUT', '/api/modules/storagemanagement/enabled', { token, body: { enabled: true } });
    expect(storages()?.get(key)).toBeDefined();
    expect((await call('DELETE', `${api}/nope`)).status).toBe(404);
  });
});
