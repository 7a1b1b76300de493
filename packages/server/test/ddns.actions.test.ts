// Actions one module offers another (core/modules/actions.ts), seen from a module: a probe module
// beside THE list keeps the ModuleContext the supervisor hands it and asks DDNS to `syncNow`
// through `ctx.actions`, as STUN will with the public address it just learned. Real PowerDNS
// (test/dns-peers.ts) holds the record, read back over DNS; the task's own IP source is a local
// echo page. Refusals are coded: a task that does not exist or is off, bad input, an action or a
// module that does not exist, the module switched off.
import { issueKit, type ModuleKey } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModuleContext, ModuleDefinition } from '../src/core/modules/types.js';
import { type Ddns, ipEcho, startDdns, statuses } from './ddns-helpers.js';
import { type PdnsPeer, query, startPdns } from './dns-peers.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

let probe: ModuleContext | undefined;
/** The scheduled-task module's key (it will invoke actions); here only a module that keeps its ctx. */
const probeModule: ModuleDefinition = {
  key: 'cron',
  configSchema: z.object({ enabled: z.boolean().default(true) }),
  issues: issueKit({}),
  createRuntime: (ctx) => {
    probe = ctx;
    return { start: async () => {}, stop: async () => {}, status: () => ({}) };
  },
};
const actions = () => {
  if (!probe) throw new Error('the probe module did not start');
  return probe.actions;
};

let pdns: PdnsPeer;
let echo: Awaited<ReturnType<typeof ipEcho>>;
let d: Ddns;
let key: string;

beforeAll(async () => {
  pdns = await startPdns();
  echo = await ipEcho('192.0.2.31');
  d = await startDdns({ secondMs: 50 }, [probeModule]);
  await d.settings({ enabled: true, interval: 3600, firstCheckDelay: 0 });
  ({ key } = await d.addTask({
    name: 'actions',
    domains: ['nas.home.test'],
    ipSource: { type: 'url', urls: [echo.url] },
    dns: { provider: 'powerdns', server: pdns.apiUrl, secret: pdns.apiKey },
    ttl: 60,
  }));
  await d.waitTask(key, (x) => statuses(x).every((s) => s === 'succeeded'));
});

afterAll(async () => {
  await d?.close();
  await echo?.close();
  await pdns?.stop();
});

describe('DDNS syncNow, asked by another module', () => {
  it('lists the action with its targets, to the module and to the admin API', async () => {
    const syncNow = { module: 'ddns', name: 'syncNow', enabled: true, targets: [{ key, name: 'actions' }] };
    // Other modules offer theirs beside it (ACME renewNow, the core's item switch …): DDNS's
    // syncNow is the one looked at.
    const ofDdns = (list: { module: string; name: string }[]) =>
      list.filter((a) => a.module === 'ddns' && a.name === 'syncNow');
    expect(ofDdns(actions().list())).toEqual([syncNow]);
    const r = await d.call('GET', '/api/modules/actions');
    expect(r.body.ret).toBe(0);
    expect(ofDdns(r.body.list)).toEqual([syncNow]);
  });

  it('writes the address it is given to PowerDNS at once, instead of the task’s own source', async () => {
    const hits = echo.state.hits;
    const r = await actions().invoke('ddns', 'syncNow', { task: key, ipv4: '198.51.100.7', ipv6: '2001:db8::7' });
    expect(r).toEqual({ ok: true, detail: '1 record holds 198.51.100.7' });
    expect(await query(pdns.dnsPort, 'nas.home.test')).toEqual(['198.51.100.7']);
    // The echo page was not asked; the task's log says where the address came from.
    expect(echo.state.hits).toBe(hits);
    const t = await d.task(key);
    expect(t.state.ip).toBe('198.51.100.7');
    const logs = await d.call('GET', `/api/ddns/tasks/${key}/logs`);
    const changed = logs.body.logs.find((l: Json) => l.code === 'ipChanged');
    expect(changed.params).toMatchObject({ ip: '198.51.100.7', prev: '192.0.2.31', from: { code: 'fromModule' } });
    expect(changed.text).toBe('IP 198.51.100.7 (from the cron module), was 192.0.2.31');

    // Without an address of the task's family it asks its own source again.
    const own = await actions().invoke('ddns', 'syncNow', { task: key, ipv6: '2001:db8::8' });
    expect(own).toEqual({ ok: true, detail: '1 record holds 192.0.2.31' });
    expect(echo.state.hits).toBe(hits + 1);
    expect(await query(pdns.dnsPort, 'nas.home.test')).toEqual(['192.0.2.31']);
  });

  it('refuses with a code: no such task, a task switched off, bad input, no such action or module', async () => {
    const refusal = (code: string, params: Record<string, unknown>) => ({
      ok: false,
      reason: { code, params },
      detail: expect.any(String),
    });
    expect(await actions().invoke('ddns', 'syncNow', { task: 'nope' })).toEqual(
      refusal('taskNotFound', { task: 'nope' }),
    );
    expect(await actions().invoke('ddns', 'syncNow', { task: key, ipv4: '2001:db8::9' })).toEqual(
      refusal('actionInputInvalid', { module: 'ddns', action: 'syncNow', field: 'ipv4', detail: expect.any(String) }),
    );
    expect(await actions().invoke('ddns', 'syncNow', {})).toMatchObject({
      ok: false,
      reason: { code: 'actionInputInvalid', params: { field: 'task' } },
    });
    expect(await actions().invoke('ddns', 'deleteEverything', {})).toEqual(
      refusal('actionNotFound', { module: 'ddns', action: 'deleteEverything' }),
    );
    // A key this build does not have (every key of the spec is built: a name from elsewhere).
    expect(await actions().invoke('nosuchmodule' as ModuleKey, 'wake', {})).toEqual(
      refusal('moduleNotFound', { module: 'nosuchmodule' }),
    );
    const off = await d.call('PUT', `/api/ddns/tasks/${key}/enable`, { enabled: false });
    expect(off.body.ret, JSON.stringify(off.body)).toBe(0);
    expect(await actions().invoke('ddns', 'syncNow', { task: key, ipv4: '198.51.100.8' })).toEqual(
      refusal('taskDisabled', { task: key }),
    );
    expect((await d.call('PUT', `/api/ddns/tasks/${key}/enable`, { enabled: true })).body.ret).toBe(0);
    expect(await query(pdns.dnsPort, 'nas.home.test')).toEqual(['192.0.2.31']);
  });

  it('a module switched off answers moduleOff and changes nothing; its targets stay listed', async () => {
    const r = await d.call('PUT', '/api/modules/ddns/enabled', { enabled: false });
    expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
    expect(await actions().invoke('ddns', 'syncNow', { task: key, ipv4: '198.51.100.9' })).toEqual({
      ok: false,
      reason: { code: 'moduleOff', params: { module: 'ddns' } },
      detail: 'ddns is switched off',
    });
    expect(await query(pdns.dnsPort, 'nas.home.test')).toEqual(['192.0.2.31']);
    expect(
      actions()
        .list()
        .filter((a) => a.module === 'ddns' && a.name === 'syncNow'),
    ).toEqual([{ module: 'ddns', name: 'syncNow', enabled: false, targets: [{ key, name: 'actions' }] }]);
  });
});
