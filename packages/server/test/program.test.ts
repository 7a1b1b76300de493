import os from 'node:os';
import { BUILT_MODULES } from '@lucky/shared';
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

describe('program calls', () => {
  it('logs: starttime, lines, and only newer lines with pre', async () => {
    const first = (await s.call('GET', '/api/logs', { token })).body;
    expect(first.ret).toBe(0);
    expect(first.starttime).toMatch(/^\d+$/);
    expect(first.logs.some((l: { log: string }) => l.log.includes('listening on'))).toBe(true);
    const last = first.logs.at(-1).timestamp;
    s.server.core.log.info('marker line for the test');
    const next = (await s.call('GET', `/api/logs?pre=${last}`, { token })).body;
    expect(next.starttime).toBe(first.starttime);
    expect(next.logs.map((l: { log: string }) => l.log).join('\n')).toContain('marker line for the test');
    expect(next.logs.every((l: { timestamp: string }) => BigInt(l.timestamp) > BigInt(last))).toBe(true);
  });

  it('status has CPU, memory, load, uptime, process, connections, interfaces and modules', async () => {
    const r = (await s.call('GET', '/api/status', { token })).body;
    expect(r.ret).toBe(0);
    expect(r.data.cpu.percent).toBeGreaterThanOrEqual(0);
    expect(r.data.memory.total).toBeGreaterThan(0);
    expect(r.data.load).toHaveLength(3);
    expect(r.data.process.rss).toBeGreaterThan(0);
    expect(r.data.connections.adminHttp).toBeGreaterThanOrEqual(1);
    expect(r.data.interfaces.some((i: { name: string }) => i.name === 'lo')).toBe(true);
    // THE module list, each with its true state: the web service, storage management, the file
    // manager, ACME, scheduled tasks, Wake-on-LAN and wanji admin are on with nothing configured, so they run
    // nothing (`stopped`); every other module is switched off by default (`disabled`, never `running`).
    const onByDefault = (key: string) =>
      key === 'reverseproxy' ||
      key === 'storagemanagement' ||
      key === 'filebrowser' ||
      key === 'acme' ||
      key === 'cron' ||
      key === 'wol' ||
      key === 'wanji_admin';
    expect(r.data.modules.map((m: { key: string; state: string }) => [m.key, m.state])).toEqual(
      BUILT_MODULES.map((key) => [key, onByDefault(key) ? 'stopped' : 'disabled']),
    );
  });

  it('info and execgc', async () => {
    const info = (await s.call('GET', '/api/info', { token })).body;
    expect(info.info).toMatchObject({ AppName: 'Lucky', NodeVersion: process.version });
    const gc = (await s.call('GET', '/api/execgc', { token })).body;
    expect(gc.ret).toBe(0);
    expect(gc.after.heapUsed).toBeGreaterThan(0);
  });

  it('netinterfaces lists the global addresses, and ipregtest selects from them', async () => {
    const nif = (await s.call('GET', '/api/netinterfaces', { token })).body;
    const all = JSON.stringify(nif.data);
    expect(all).not.toContain('127.0.0.1');
    // Compare with what the OS reports, independently of our filtering code.
    const osIf = Object.entries(os.networkInterfaces()).find(([, infos]) =>
      infos?.some((i) => i.family === 'IPv4' && !i.internal && !i.address.startsWith('169.254.')),
    );
    if (!osIf) throw new Error('this test needs one non-loopback IPv4 interface');
    const [name, infos] = osIf;
    const v4 = infos!.filter((i) => i.family === 'IPv4' && !i.internal).map((i) => i.address);
    const listed = nif.data.IPv4NewInterfaces.find((i: { NetInterfaceName: string }) => i.NetInterfaceName === name);
    expect(listed.AddressList).toEqual(v4);
    const pick = (await s.call('GET', `/api/ipregtest?iptype=IPv4&netinterface=${name}&ipreg=-1`, { token })).body;
    expect(pick).toEqual({ ret: 0, ip: v4.at(-1) });
    const none = (await s.call('GET', `/api/ipregtest?iptype=IPv4&netinterface=${name}&ipreg=^250\\.`, { token })).body;
    expect(none.ret).toBe(1);
    expect(none.msg).toMatch(/does not match/);
    const badType = await s.call('GET', `/api/ipregtest?iptype=IPv5&netinterface=${name}`, { token });
    expect(badType.body).toMatchObject({ ret: 1, field: 'iptype' });
    const unknown = await s.call('GET', '/api/ipregtest?iptype=IPv4&netinterface=nope0', { token });
    expect(unknown.body.ret).toBe(1);
  });

  it('v2l compares the remote versions with ours', async () => {
    const r = (await s.call('POST', '/api/v2l', { token, body: { lastVersion: ['999.0.0', 'unknow'] } })).body;
    expect(r).toMatchObject({ ret: 0, updateAvailable: true, latestVersion: '999.0.0' });
    const same = (await s.call('POST', '/api/v2l', { token, body: { lastVersion: ['0.0.1'] } })).body;
    expect(same.updateAvailable).toBe(false);
  });

  it('reboot_program answers first, then asks for a restart', async () => {
    const before = s.restarts;
    const r = await s.call('GET', '/api/reboot_program', { token });
    expect(r.body.ret).toBe(0);
    await waitFor(() => s.restarts > before, { what: 'the restart' });
    expect(s.restarts).toBe(before + 1);
  });

  it('service control reports clearly where systemd is absent', async () => {
    const r = await s.call('PUT', '/api/lucky/service?option=status', { token });
    // This test machine has no systemd (a container): the status is a state with the reason, not
    // an error; a change is refused with ret 4 and the reason.
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ret: 0, status: 'unsupported' });
    expect(r.body.msg).toMatch(/systemd/);
    const install = await s.call('PUT', '/api/lucky/service?option=install', { token });
    expect(install.status).toBe(409);
    expect(install.body).toMatchObject({ ret: 4, code: 'serviceUnsupported' });
    const bad = await s.call('PUT', '/api/lucky/service?option=explode', { token });
    expect(bad.body).toMatchObject({ ret: 1, field: 'option' });
  });
});

describe('settings', () => {
  it('validation errors name the field and save nothing', async () => {
    const before = (await s.call('GET', '/api/baseconfigure', { token })).body.baseconfigure;
    for (const [body, field] of [
      [{ logMaxSize: 5 }, 'logMaxSize'],
      [{ adminPort: 0 }, 'adminPort'],
      [{ trustedProxies: ['not-an-ip'] }, 'trustedProxies.0'],
      [{ aboutHosts: ['https://a.example'] }, 'aboutHosts'],
      [{ securityEntrance: '../x' }, 'securityEntrance'],
      [{ tokenLifetimeHours: 'x' }, 'tokenLifetimeHours'],
    ] as const) {
      const r = await s.call('PUT', '/api/baseconfigure', { token, body });
      expect(r.status, field).toBe(400);
      expect(r.body, field).toMatchObject({ ret: 1, field });
    }
    const after = (await s.call('GET', '/api/baseconfigure', { token })).body.baseconfigure;
    expect(after).toEqual(before);
  });

  it('saves a valid change and reports a port change needs a restart', async () => {
    const r = await s.call('PUT', '/api/baseconfigure', { token, body: { logMaxSize: 4096, adminPort: 16999 } });
    expect(r.body).toMatchObject({ ret: 0, port: 16999, restartNeeded: true });
    expect(r.body.baseconfigure.logMaxSize).toBe(4096);
    expect(s.server.core.store.get().base.adminPort).toBe(16999);
  });

  it('refuses a port that is taken', async () => {
    const r = await s.call('PUT', '/api/baseconfigure', { token, body: { adminPort: s.server.port } });
    expect(r.status).toBe(409);
    expect(r.body.field).toBe('adminPort');
  });

  it('frontendcontroll follows the setting', async () => {
    await s.call('PUT', '/api/baseconfigure', { token, body: { frontendDisableAutoExpandLeftMenu: true } });
    expect((await s.call('GET', '/frontendcontroll')).body.FrontendDisableAutoExpandLeftMenu).toBe(true);
  });
});
