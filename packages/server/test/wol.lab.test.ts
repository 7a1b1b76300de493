// Wake-on-LAN against a device in a network namespace (wol-lab.ts): the magic packets as the
// device's NIC receives them on the veth's broadcast address (format, repeat count, SecureOn
// bytes, both ports); the online state following the device's link down and up (TCP check, the
// neighbour table, ping, the webhook on each change, "wake and wait"); the `wake` action through
// `ctx.actions`, as the scheduled tasks will call it; a second console on loopback relaying the
// packets into the namespace and running its agent's shutdown command, with API tokens.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { issueKit } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ModuleContext, ModuleDefinition } from '../src/core/modules/types.js';
import { modules } from '../src/modules/index.js';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { recorder } from './http-recorder.js';
import { waitFor } from './wait.js';
import { expectedMagic, startWolLab, type WolLab } from './wol-lab.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

const TCP_PORT = 8022;

let probe: ModuleContext | undefined;
/** Stands in for the scheduled-task module: it keeps the context it is handed and asks for actions. */
const probeModule: ModuleDefinition = {
  key: 'cron',
  configSchema: z.object({ enabled: z.boolean().default(true) }),
  issues: issueKit({}),
  createRuntime: (ctx) => {
    probe = ctx;
    return { start: async () => {}, stop: async () => {}, status: () => ({}) };
  },
};

let lab: WolLab;
let a: TestServer;
let b: TestServer;
let tokenA: string;
let tokenB: string;
let hook: Awaited<ReturnType<typeof recorder>>;
let work: string;

const call = (s: TestServer, token: string, method: string, p: string, body?: unknown) =>
  s.call(method, p, { token, body });
const ok = (r: { body: Json }) => {
  expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
  return r.body;
};
/** An API token of console `s` (the phone shortcut's / the other console's credential). */
async function apiToken(s: TestServer, login: string): Promise<string> {
  return ok(await call(s, login, 'POST', '/api/apitokens', { name: 'wol-test', currentPassword: '666' })).token;
}
const packetsFor = (mac: string) => lab.packets.filter((p) => p.hex.slice(12, 24) === mac.replace(/:/g, ''));

beforeAll(async () => {
  lab = await startWolLab('lkwol', '198.18.40', [TCP_PORT]);
  hook = await recorder();
  work = await tempDir('lucky-wol-');
  a = await startTestServer({ modules: modules.map((m) => (m.key === 'cron' ? probeModule : m)) });
  b = await startTestServer();
  tokenA = await a.login();
  tokenB = await b.login();
  ok(await call(a, tokenA, 'PUT', '/api/wol/settings', { refreshSec: 5, checkTimeoutSec: 1 }));
}, 30_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await hook?.close();
  await lab?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('Wake-on-LAN in a network namespace', () => {
  it('sends 6×FF + 16×MAC (+ SecureOn) per MAC, repeat times, to the interface broadcast; MACs normalised, the password masked', async () => {
    const added = ok(
      await call(a, tokenA, 'POST', '/api/wol/devices', {
        name: 'nas',
        macs: ['AA-BB-CC-DD-EE-01', 'aabb.ccdd.ee02'],
        interface: lab.hostIf,
        port: 9,
        repeat: 3,
        intervalMs: 20,
        secureOn: '01-02-03-04-05-06',
      }),
    ).device;
    expect(added.macs).toEqual(['aa:bb:cc:dd:ee:01', 'aa:bb:cc:dd:ee:02']);
    expect(added.secureOn).toBe('******');
    const woke = ok(await call(a, tokenA, 'POST', `/api/wol/devices/${added.key}/wake`));
    expect(woke).toMatchObject({ sent: 6, target: `${lab.broadcast}:9 (${lab.hostIf})` });
    await waitFor(
      () => lab.packets.length,
      (n) => n >= 6,
      { what: 'six magic packets in the namespace' },
    );
    for (const mac of ['aa:bb:cc:dd:ee:01', 'aa:bb:cc:dd:ee:02']) {
      const got = packetsFor(mac);
      expect(got).toHaveLength(3);
      for (const p of got) {
        expect(p).toMatchObject({ port: 9, from: lab.hostIp });
        expect(p.hex).toBe(expectedMagic(mac, '01:02:03:04:05:06'));
        expect(p.hex.length / 2).toBe(108);
      }
    }
    // Sent back masked, the password is kept; a plain device on port 7 by the broadcast address alone.
    const kept = ok(
      await call(a, tokenA, 'PUT', `/api/wol/devices/${added.key}`, { ...added, name: 'nas', port: 7, repeat: 1 }),
    ).device;
    expect(kept.secureOn).toBe('******');
    const plain = ok(
      await call(a, tokenA, 'POST', '/api/wol/devices', {
        name: 'pc',
        macs: ['02:00:00:00:00:aa'],
        broadcast: lab.broadcast,
        port: 7,
        repeat: 2,
        intervalMs: 0,
      }),
    ).device;
    lab.packets.length = 0;
    ok(await call(a, tokenA, 'POST', `/api/wol/devices/${kept.key}/wake`));
    ok(await call(a, tokenA, 'POST', `/api/wol/devices/${plain.key}/wake`));
    await waitFor(
      () => lab.packets.length,
      (n) => n >= 4,
      { what: 'four packets on port 7' },
    );
    expect(packetsFor('aa:bb:cc:dd:ee:01').map((p) => [p.port, p.hex])).toEqual([
      [7, expectedMagic('aa:bb:cc:dd:ee:01', '01:02:03:04:05:06')],
    ]);
    expect(packetsFor('02:00:00:00:00:aa').map((p) => [p.port, p.hex])).toEqual([
      [7, expectedMagic('02:00:00:00:00:aa')],
      [7, expectedMagic('02:00:00:00:00:aa')],
    ]);
    // An API token (a phone shortcut) wakes too.
    const phone = await apiToken(a, tokenA);
    lab.packets.length = 0;
    ok(await a.call('POST', `/api/wol/devices/${plain.key}/wake`, { token: phone }));
    await waitFor(
      () => packetsFor('02:00:00:00:00:aa').length,
      (n) => n === 2,
      { what: 'the token call’s packets' },
    );
    for (const k of [added.key, plain.key]) ok(await call(a, tokenA, 'DELETE', `/api/wol/devices/${k}`));
  });

  it('refuses bad devices with field codes', async () => {
    const bad = async (body: unknown) => (await call(a, tokenA, 'POST', '/api/wol/devices', body)).body;
    expect(await bad({ name: 'x', macs: [] })).toMatchObject({ code: 'macRequired', field: 'macs' });
    expect(await bad({ name: 'x', macs: ['aa:bb'] })).toMatchObject({ code: 'macInvalid', field: 'macs.0' });
    expect(await bad({ name: 'x', macs: ['02:00:00:00:00:01', '02-00-00-00-00-01'] })).toMatchObject({
      code: 'macDuplicate',
      field: 'macs.1',
    });
    expect(await bad({ name: 'x', macs: ['02:00:00:00:00:01'], port: 10 })).toMatchObject({ code: 'portInvalid' });
    expect(await bad({ name: 'x', macs: ['02:00:00:00:00:01'], repeat: 11 })).toMatchObject({ code: 'tooBig' });
    expect(await bad({ name: 'x', macs: ['02:00:00:00:00:01'], secureOn: '123' })).toMatchObject({
      code: 'secureOnInvalid',
    });
    expect(
      await bad({ name: 'x', macs: ['02:00:00:00:00:01'], shutdown: { method: 'ssh', ssh: { user: 'root' } } }),
    ).toMatchObject({ code: 'sshHostRequired' });
  });

  it('follows the device link down and up: offline, online again, a webhook call per change, wake and wait', async () => {
    ok(
      await call(a, tokenA, 'PUT', '/api/wol/settings', {
        webhook: {
          enabled: true,
          url: `${hook.url}/wol?name=#{name}&state=#{state}&mac=#{mac}`,
          method: 'GET',
          disableSuccessCheck: true,
          retries: 0,
        },
      }),
    );
    const dev = ok(
      await call(a, tokenA, 'POST', '/api/wol/devices', {
        name: 'box',
        macs: [lab.peerMac],
        // By address: the interface of the console's end has no carrier while the device's link is down.
        broadcast: lab.broadcast,
        check: { host: lab.peerIp, tcpPort: TCP_PORT, ping: false },
      }),
    ).device;
    const state = async () => ok(await call(a, tokenA, 'GET', '/api/wol/state')).states[dev.key];
    const first = await waitFor(state, (s: Json) => s.online === 'online', { timeout: 10_000, what: 'online' });
    expect(first.via).toContain('tcp');
    expect(first.ip).toBe(lab.peerIp);
    // The other two checks: an ICMP echo (system ping), and the neighbour table alone (no host).
    const other = async (body: Json) =>
      ok(await call(a, tokenA, 'POST', '/api/wol/devices', { macs: [lab.peerMac], broadcast: lab.broadcast, ...body }))
        .device.key as string;
    const pingKey = await other({ name: 'by-ping', check: { host: lab.peerIp, ping: true } });
    const neighKey = await other({ name: 'by-neigh', check: { ping: false } });
    const states = async () => ok(await call(a, tokenA, 'GET', '/api/wol/state')).states;
    const both = await waitFor(
      states,
      (x: Json) => x[pingKey]?.online === 'online' && x[neighKey]?.online === 'online',
      { timeout: 10_000, what: 'online by ping and by the neighbour table' },
    );
    expect(both[pingKey].via).toContain('ping');
    expect(both[neighKey]).toMatchObject({ via: ['neigh'], ip: lab.peerIp });
    expect(['REACHABLE', 'STALE', 'DELAY', 'PROBE']).toContain(both[neighKey].neigh);
    for (const k of [pingKey, neighKey]) ok(await call(a, tokenA, 'DELETE', `/api/wol/devices/${k}`));
    lab.link(false);
    try {
      await waitFor(state, (s: Json) => s.online === 'offline', { timeout: 15_000, what: 'offline after link down' });
      await waitFor(
        () => hook.seen.length,
        (n) => n >= 1,
        { what: 'the offline webhook' },
      );
      expect(hook.seen[0].url).toBe(`/wol?name=box&state=offline&mac=${encodeURIComponent(lab.peerMac)}`);
      // Wake and wait: the console watches for the device; it stays waiting while the link is down.
      const woke = ok(await call(a, tokenA, 'POST', `/api/wol/devices/${dev.key}/wake?wait=30`));
      expect(woke.wake).toMatchObject({ phase: 'waiting' });
      expect((await state()).wake.phase).toBe('waiting');
    } finally {
      lab.link(true);
    }
    const up = await waitFor(state, (s: Json) => s.wake?.phase === 'online', { timeout: 15_000, what: 'woke' });
    expect(up.online).toBe('online');
    expect(up.wake.seconds).toBeGreaterThanOrEqual(0);
    await waitFor(
      () => hook.seen.length,
      (n) => n >= 2,
      { what: 'the online webhook' },
    );
    expect(hook.seen[1].url).toBe(`/wol?name=box&state=online&mac=${encodeURIComponent(lab.peerMac)}`);
    const logs = ok(await call(a, tokenA, 'GET', '/api/wol/logs?order=oldest')).logs.map((l: Json) => l.code);
    expect(logs).toEqual(expect.arrayContaining(['online', 'offline', 'woke', 'wakeOnline', 'webhookOk']));
    ok(await call(a, tokenA, 'PUT', '/api/wol/settings', { webhook: { enabled: false } }));
    ok(await call(a, tokenA, 'DELETE', `/api/wol/devices/${dev.key}`));
  }, 40_000);

  it('wakes through ctx.actions by name or key; unknown or switched-off devices are coded refusals', async () => {
    if (!probe) throw new Error('the probe module did not start');
    const dev = ok(
      await call(a, tokenA, 'POST', '/api/wol/devices', {
        name: 'backup-nas',
        macs: ['02:00:00:00:00:bb'],
        interface: lab.hostIf,
        repeat: 1,
      }),
    ).device;
    const listed = probe.actions.list().find((x) => x.module === 'wol' && x.name === 'wake');
    expect(listed).toMatchObject({ module: 'wol', name: 'wake', enabled: true });
    expect(listed?.targets).toContainEqual({ key: dev.key, name: 'backup-nas' });
    lab.packets.length = 0;
    expect(await probe.actions.invoke('wol', 'wake', { device: 'backup-nas' })).toMatchObject({ ok: true });
    expect(await probe.actions.invoke('wol', 'wake', { device: dev.key })).toMatchObject({ ok: true });
    await waitFor(
      () => packetsFor('02:00:00:00:00:bb').length,
      (n) => n === 2,
      { what: 'two action wakes' },
    );
    expect(await probe.actions.invoke('wol', 'wake', { device: 'nope' })).toMatchObject({
      ok: false,
      reason: { code: 'deviceNotFound', params: { device: 'nope' } },
    });
    ok(await call(a, tokenA, 'PUT', `/api/wol/devices/${dev.key}/enable`, { enabled: false }));
    expect(await probe.actions.invoke('wol', 'wake', { device: dev.key })).toMatchObject({
      ok: false,
      reason: { code: 'deviceDisabled' },
    });
    expect(await probe.actions.invoke('wol', 'wake', {})).toMatchObject({
      ok: false,
      reason: { code: 'actionInputInvalid', params: { field: 'device' } },
    });
    ok(await call(a, tokenA, 'DELETE', `/api/wol/devices/${dev.key}`));
  });

  it('relays through a second console (its API token) into the namespace; refused while its relay is off', async () => {
    const remote = await apiToken(b, tokenB);
    const dev = ok(
      await call(a, tokenA, 'POST', '/api/wol/devices', {
        name: 'far',
        macs: ['02:00:00:00:00:cc'],
        interface: lab.hostIf,
        repeat: 2,
        intervalMs: 0,
        relay: { enabled: true, url: b.url, token: remote },
      }),
    ).device;
    expect(dev.relay.token).toBe('******');
    const refused = await call(a, tokenA, 'POST', `/api/wol/devices/${dev.key}/wake`);
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 'relayRefused', params: { status: 403 } });
    ok(await call(b, tokenB, 'PUT', '/api/wol/settings', { agent: { relayEnabled: true } }));
    lab.packets.length = 0;
    const woke = ok(await call(a, tokenA, 'POST', `/api/wol/devices/${dev.key}/wake`));
    expect(woke).toMatchObject({ sent: 2, target: `${b.url} → ${lab.broadcast}:9 (${lab.hostIf})` });
    await waitFor(
      () => packetsFor('02:00:00:00:00:cc').length,
      (n) => n === 2,
      { what: 'relayed packets' },
    );
    const served = ok(await call(b, tokenB, 'GET', '/api/wol/logs')).logs.map((l: Json) => l.code);
    expect(served).toContain('relayServed');
    ok(await call(a, tokenA, 'DELETE', `/api/wol/devices/${dev.key}`));
  });

  it('shuts down through the agent of a second console, only while its agent is on', async () => {
    const remote = await apiToken(b, tokenB);
    const marker = path.join(work, 'shutdown-ran');
    const dev = ok(
      await call(a, tokenA, 'POST', '/api/wol/devices', {
        name: 'agent-box',
        macs: ['02:00:00:00:00:dd'],
        interface: lab.hostIf,
        shutdown: { method: 'agent', agent: { url: b.url, token: remote } },
      }),
    ).device;
    const off = ok(await call(a, tokenA, 'POST', `/api/wol/devices/${dev.key}/shutdown`));
    expect(off).toMatchObject({ ok: false, reason: { code: 'agentRefused', params: { status: 403 } } });
    expect(existsSync(marker)).toBe(false);
    ok(
      await call(b, tokenB, 'PUT', '/api/wol/settings', {
        agent: { shutdownEnabled: true, shutdownCommand: `echo down > '${marker}'` },
      }),
    );
    expect(ok(await call(a, tokenA, 'POST', `/api/wol/devices/${dev.key}/shutdown`))).toMatchObject({ ok: true });
    expect(await fs.readFile(marker, 'utf8')).toBe('down\n');
    const state = ok(await call(a, tokenA, 'GET', '/api/wol/state')).states[dev.key];
    expect(state.lastShutdown).toMatchObject({ ok: true });
    ok(await call(a, tokenA, 'DELETE', `/api/wol/devices/${dev.key}`));
  });
});
