import { BUILT_MODULES, issueKit } from '@lucky/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModuleDefinition } from '../src/core/modules/types.js';
import { modules as moduleList } from '../src/modules/index.js';
import { startTestServer, type TestServer } from './harness.js';

let s: TestServer;
afterEach(async () => s?.close());

/** A module with a port-like setting that fails to apply when `fail` is set. */
type FakeConfig = { enabled: boolean; value: number; fail: boolean; port: number };
function fakeModule(key: 'ddns' | 'wanji_admin', events: string[]): ModuleDefinition<FakeConfig> {
  return {
    key,
    configSchema: z.object({
      enabled: z.boolean().default(true),
      value: z.number().int().min(0).default(1),
      fail: z.boolean().default(false),
      port: z.number().int().min(0).max(65535).default(0),
    }),
    issues: issueKit({}),
    ports: (c) => (c.port ? [{ proto: 'tcp', port: c.port, owner: { module: key, item: `rule of ${key}` } }] : []),
    createRuntime: (ctx) => {
      let current = 0;
      return {
        async start(c) {
          if (c.fail) throw new Error('port 1 is in use');
          current = c.value;
          events.push(`${key}:start:${c.value}`);
          ctx.setInterval(() => events.push(`${key}:tick`), 10_000);
        },
        async stop() {
          events.push(`${key}:stop`);
        },
        status: () => ({ details: { value: current } }),
      };
    },
    routes: (r, api) =>
      r.add({
        method: 'PUT',
        path: `/api/${key}/configure`,
        access: 'token',
        summary: 'test',
        handler: async (req) => {
          await api.saveConfig({ ...api.config(), ...(req.body as Partial<FakeConfig>) });
          return { ret: 0 };
        },
      }),
  };
}

describe('module supervisor', () => {
  it('THE list holds the modules whose issues landed (no placeholder modules)', () => {
    expect(moduleList.map((m) => m.key)).toEqual([...BUILT_MODULES]);
  });

  it('starts in order, stops in reverse, lists modules, and keeps the previous state when a change fails', async () => {
    const events: string[] = [];
    s = await startTestServer({ modules: [fakeModule('ddns', events), fakeModule('wanji_admin', events)] });
    const token = await s.login();
    expect(events).toEqual(['ddns:start:1', 'wanji_admin:start:1']);
    expect((await s.call('GET', '/api/modules/list', { token })).body.Modules).toEqual(['ddns', 'wanji_admin']);

    const bad = await s.call('PUT', '/api/ddns/configure', { token, body: { value: -5 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ret: 1, field: 'value', code: 'tooSmall', params: { min: 0 } });
    expect(s.server.core.store.get().modules.ddns).toBeUndefined();

    const ok = await s.call('PUT', '/api/ddns/configure', { token, body: { value: 7 } });
    expect(ok.body.ret).toBe(0);
    expect(events.slice(-2)).toEqual(['ddns:stop', 'ddns:start:7']);

    const failed = await s.call('PUT', '/api/ddns/configure', { token, body: { value: 9, fail: true } });
    expect(failed.status).toBe(409);
    expect(failed.body).toMatchObject({ code: 'applyFailed', params: { detail: 'port 1 is in use' } });
    expect(failed.body.msg).toMatch(/could not be applied: port 1 is in use/);
    // Apply, then save: the file never holds settings that failed to apply.
    expect(s.server.core.store.get().modules.ddns).toMatchObject({ value: 7, fail: false });
    const status = (await s.call('GET', '/api/status', { token })).body.data.modules;
    // The previous settings run again; the other module was never touched.
    expect(status.find((m: { key: string }) => m.key === 'ddns')).toMatchObject({ state: 'running' });
    expect(events.slice(-2)).toEqual(['ddns:stop', 'ddns:start:7']);
    expect(status.find((m: { key: string }) => m.key === 'wanji_admin')).toMatchObject({ state: 'running' });
    expect(events.filter((e) => e.startsWith('wanji_admin:'))).toEqual(['wanji_admin:start:1']);

    await s.server.close();
    expect(events.slice(-2)).toEqual(['wanji_admin:stop', 'ddns:stop']);
  });

  it('refuses a port another module or the admin listener holds, naming the owner, and saves nothing', async () => {
    const events: string[] = [];
    s = await startTestServer({ modules: [fakeModule('ddns', events), fakeModule('wanji_admin', events)] });
    const token = await s.login();
    expect((await s.call('PUT', '/api/ddns/configure', { token, body: { port: 20001 } })).body.ret).toBe(0);

    const clash = await s.call('PUT', '/api/wanji_admin/configure', { token, body: { port: 20001 } });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({
      code: 'portTaken',
      params: { port: 20001, module: 'ddns', item: 'rule of ddns' },
    });
    expect(s.server.core.store.get().modules.wanji_admin).toBeUndefined();

    const admin = await s.call('PUT', '/api/wanji_admin/configure', { token, body: { port: s.server.port } });
    expect(admin.body).toMatchObject({ code: 'portTaken', params: { module: 'admin' } });

    // Switched off, a module holds no port: the other may take it.
    expect(
      (await s.call('PUT', '/api/modules/ddns/enabled', { token, body: { enabled: false } })).body.status,
    ).toMatchObject({ state: 'disabled', enabled: false });
    expect(events.at(-1)).toBe('ddns:stop');
    expect((await s.call('PUT', '/api/wanji_admin/configure', { token, body: { port: 20001 } })).body.ret).toBe(0);
    const list = (await s.call('GET', '/api/modules/status', { token })).body.list;
    expect(list.map((m: { key: string; state: string }) => `${m.key}:${m.state}`)).toEqual([
      'ddns:disabled',
      'wanji_admin:running',
    ]);
  });
});
