import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedWithin,
  connect,
  echoOnce,
  freePort,
  freeRange,
  type Peer,
  type Pf,
  roundTrip,
  ruleFields,
  startPf,
  tcpServer,
} from './portforward-helpers.js';
import { waitFor } from './wait.js';

/** An echo server that prefixes its name, so a reply shows which target answered. */
const namedEcho = (name: string) =>
  tcpServer((c) => {
    c.on('data', (d) => c.write(`${name}:${d}`));
    c.on('end', () => c.end());
  });

let pf: Pf;
let t1: Peer;
let t2: Peer;
beforeAll(async () => {
  pf = await startPf();
  [t1, t2] = [await namedEcho('t1'), await namedEcho('t2')];
});
afterAll(async () => {
  await t1?.close();
  await t2?.close();
  await pf?.close();
});

const rule = (ports: string, target: Peer, extra: Record<string, unknown> = {}) => ({
  forwardTypes: ['tcp4'],
  listenAddress: '127.0.0.1',
  listenPorts: ports,
  targetAddresses: ['127.0.0.1'],
  targetPorts: String(target.port),
  ...extra,
});

const edit = async (key: string, change: Record<string, unknown>) => {
  const r = await pf.call('PUT', `/api/portforward/rules/${key}`, { ...ruleFields(await pf.rule(key)), ...change });
  expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
  return r.body.rule;
};

describe('reload keeps what an edit does not touch', () => {
  it('editing one rule leaves another rule’s open connection alive', async () => {
    const [a, b] = [await freePort(), await freePort()];
    await pf.addRule(rule(String(a), t1, { name: 'A' }));
    const { key: bKey } = await pf.addRule(rule(String(b), t1, { name: 'B' }));
    const onA = await connect(a);
    expect(await roundTrip(onA, 'x')).toBe('t1:x');
    await edit(bKey, { name: 'B renamed', targetPorts: String(t2.port), speedLimitIn: 1_000_000 });
    expect(await roundTrip(onA, 'y')).toBe('t1:y');
    expect(await echoOnce(b, 'z')).toBe('t2:z');
    onA.destroy();
  });

  it('editing a rule’s target and ports keeps the open connections of its untouched ports', async () => {
    const base = await freeRange(3);
    const { key } = await pf.addRule(rule(`${base},${base + 1}`, t1));
    const kept = await connect(base);
    const dropped = await connect(base + 1);
    expect(await roundTrip(kept, 'a')).toBe('t1:a');
    expect(await roundTrip(dropped, 'a')).toBe('t1:a');

    // New target, port base+1 removed, base+2 added.
    const after = await edit(key, { listenPorts: `${base},${base + 2}`, targetPorts: String(t2.port) });
    expect(after.proxies.map((p: { port: number; state: string }) => [p.port, p.state])).toEqual([
      [base, 'running'],
      [base + 2, 'running'],
    ]);
    // The untouched port's connection still runs, to the target it was opened to.
    expect(await roundTrip(kept, 'b')).toBe('t1:b');
    expect(after.connections).toBe(1);
    // The removed port closed, with its connection.
    await closedWithin(dropped);
    await expect(connect(base + 1)).rejects.toThrow(/ECONNREFUSED/);
    // New connections go to the new target, on kept and added ports.
    expect(await echoOnce(base, 'c')).toBe('t2:c');
    expect(await echoOnce(base + 2, 'd')).toBe('t2:d');
    kept.destroy();
  });

  it('a busy port is an error on that rule and port; its other port and other rules run', async () => {
    const busy = await tcpServer(() => {});
    const free = await freePort();
    const other = await freePort();
    const { key: otherKey } = await pf.addRule(rule(String(other), t1));
    const res = await pf.call('POST', '/api/portforward/rules', rule(`${busy.port},${free}`, t1));
    expect(res.body.ret).toBe(0);
    const view = res.body.rule;
    expect(view.state).toBe('error');
    expect(view.error).toMatch(/1 of 2 port\(s\) not running: .*in use.*EADDRINUSE/);
    expect(view.reason).toEqual({ code: 'portsFailed', params: { failed: 1, total: 2 } });
    const [bad, good] = view.proxies;
    expect(bad).toMatchObject({
      port: busy.port,
      state: 'error',
      reason: { code: 'portInUse', params: { port: busy.port, address: `127.0.0.1:${busy.port}` } },
    });
    expect(bad.error).toMatch(/EADDRINUSE/);
    expect(good).toMatchObject({ port: free, state: 'running' });
    expect(await echoOnce(free, 'ok')).toBe('t1:ok');
    expect(await echoOnce(other, 'ok')).toBe('t1:ok');
    expect((await pf.rule(otherKey)).state).toBe('running');
    expect(view.lastLogs[0]).toMatchObject({ level: 2, code: 'portInUse', params: { id: bad.id } });
    // The module reports it too, next to the module in the overview.
    const status = (await pf.call('GET', '/api/status')).body.data.modules.find(
      (m: { key: string }) => m.key === 'portforward',
    );
    expect(status).toMatchObject({
      key: 'portforward',
      state: 'running',
      reason: { code: 'portsNotRunning', params: { count: 1 } },
    });
    expect(status.error).toMatch(/could not be started/);
    // Freed, and the rule saved again: the port is tried at once, and the log says it listens now.
    await busy.close();
    const again = await edit(res.body.key, { name: 'freed' });
    expect(again.proxies.map((p: { state: string }) => p.state)).toEqual(['running', 'running']);
    expect(again.reason).toBeUndefined();
    expect(again.lastLogs[0]).toMatchObject({ level: 4, code: 'listening', params: { id: bad.id } });
    await pf.call('DELETE', `/api/portforward/rules/${res.body.key}`);
  });

  it('switching a rule off closes its ports and connections; on opens them again', async () => {
    const port = await freePort();
    const { key } = await pf.addRule(rule(String(port), t1));
    const open = await connect(port);
    expect(await roundTrip(open, 'x')).toBe('t1:x');
    const off = await pf.call('PUT', `/api/portforward/rules/${key}/enable`, { enabled: false });
    expect(off.body.rule).toMatchObject({ enabled: false, state: 'disabled' });
    await closedWithin(open);
    await expect(connect(port)).rejects.toThrow(/ECONNREFUSED/);
    const on = await pf.call('PUT', `/api/portforward/rules/${key}/enable`, { enabled: true });
    expect(on.body.rule).toMatchObject({ enabled: true, state: 'running' });
    expect(await echoOnce(port, 'back')).toBe('t1:back');
  });

  it('the module switch (run by the supervisor) stops everything: disabled, no listener, no runtime; on again starts it', async () => {
    const port = await freePort();
    const { key } = await pf.addRule(rule(String(port), t1));
    const open = await connect(port);
    expect(await roundTrip(open, 'x')).toBe('t1:x');
    const state = async () =>
      (await pf.call('GET', '/api/modules/status')).body.list.find((m: { key: string }) => m.key === 'portforward');

    const off = await pf.call('PUT', '/api/modules/portforward/enabled', { enabled: false });
    expect(off.body).toMatchObject({ ret: 0, status: { key: 'portforward', state: 'disabled', enabled: false } });
    expect(await state()).toMatchObject({ state: 'disabled', enabled: false });
    await closedWithin(open);
    await expect(connect(port)).rejects.toThrow(/ECONNREFUSED/);
    // No runtime (so no timer or listener of the module), no port claimed.
    expect(pf.s.server.core.modules.runtimeOf('portforward')).toBeUndefined();
    expect(pf.s.server.core.ports.list().filter((c) => c.owner.module === 'portforward')).toEqual([]);
    // The calls still answer: rules read as stopped, the module switch off, an empty log.
    const list = (await pf.call('GET', '/api/portforward/rules')).body;
    expect(list.summary).toMatchObject({ enabled: false, proxies: 0, tcpConnections: 0 });
    expect(list.list.every((r: { state: string }) => r.state === 'stopped')).toBe(true);
    expect((await pf.call('GET', `/api/portforward/rules/${key}/logs`)).body).toMatchObject({ ret: 0, total: 0 });
    expect((await pf.call('GET', '/api/portforward/settings')).body.settings.enabled).toBe(false);
    // An edit while off is saved, and listens nothing.
    expect((await edit(key, { name: 'edited while off' })).state).toBe('stopped');
    await expect(connect(port)).rejects.toThrow(/ECONNREFUSED/);

    const on = await pf.call('PUT', '/api/modules/portforward/enabled', { enabled: true });
    expect(on.body).toMatchObject({ ret: 0, status: { state: 'running', enabled: true } });
    expect(await echoOnce(port, 'again')).toBe('t1:again');
    // The module's own settings call is the same switch.
    const viaSettings = await pf.call('PUT', '/api/portforward/settings', { enabled: false });
    expect(viaSettings.body.summary).toMatchObject({ enabled: false, proxies: 0 });
    expect(await state()).toMatchObject({ state: 'disabled' });
    await pf.call('PUT', '/api/portforward/settings', { enabled: true });
    expect(await echoOnce(port, 'and again')).toBe('t1:and again');
  });

  it('deleting a rule closes its ports and drops its log', async () => {
    const port = await freePort();
    const { key } = await pf.addRule(rule(String(port), t1));
    expect(await echoOnce(port, 'x')).toBe('t1:x');
    expect((await pf.call('DELETE', `/api/portforward/rules/${key}`)).body.ret).toBe(0);
    await expect(connect(port)).rejects.toThrow(/ECONNREFUSED/);
    const gone = await pf.call('GET', `/api/portforward/rules/${key}/logs`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ ret: 1, field: 'key', code: 'ruleNotFound' });
    await waitFor(
      () => pf.call('GET', '/api/portforward/rules'),
      (r) => !r.body.list.some((x: { key: string }) => x.key === key),
    );
  });
});
