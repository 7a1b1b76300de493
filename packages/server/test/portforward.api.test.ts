import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir } from './harness.js';
import { echoOnce, echoServer, freePort, type Peer, type Pf, ruleFields, startPf } from './portforward-helpers.js';
import { waitFor } from './wait.js';

let pf: Pf;
let echo: Peer;
beforeAll(async () => {
  pf = await startPf();
  echo = await echoServer();
});
afterAll(async () => {
  await echo?.close();
  await pf?.close();
});

const good = (port: number) => ({
  name: 'good',
  forwardTypes: ['tcp4'],
  listenAddress: '127.0.0.1',
  listenPorts: String(port),
  targetAddresses: ['127.0.0.1'],
  targetPorts: String(echo.port),
});

const stored = () => pf.s.server.core.store.get().modules.portforward as { rules: unknown[]; ruleLimit: number };

describe('port-forwarding API', () => {
  it('rejects bad input with the field, a stable code and a reason; nothing is saved or started', async () => {
    const port = await freePort();
    const before = JSON.stringify(stored());
    const cases: [Record<string, unknown>, string, string][] = [
      [{ forwardTypes: [] }, 'forwardTypes', 'typesRequired'],
      [{ forwardTypes: ['sctp'] }, 'forwardTypes.0', 'invalidValue'],
      [{ forwardTypes: ['tcp', 'tcp4'] }, 'forwardTypes', 'typesOverlap'],
      [{ listenAddress: '300.1.1.1' }, 'listenAddress', 'listenAddressInvalid'],
      [{ listenAddress: '::1' }, 'listenAddress', 'listenAddressFamily'],
      [{ listenPorts: '' }, 'listenPorts', 'listenPortsRequired'],
      [{ listenPorts: '80,90-85' }, 'listenPorts', 'portListInvalid'],
      [{ listenPorts: '70000' }, 'listenPorts', 'portListInvalid'],
      [{ listenPorts: '80,79-81' }, 'listenPorts', 'portListDuplicate'],
      [{ targetAddresses: [] }, 'targetAddresses', 'targetAddressRequired'],
      [{ targetAddresses: ['not a host!'] }, 'targetAddresses.0', 'targetAddressInvalid'],
      [{ targetPorts: '' }, 'targetPorts', 'targetPortsRequired'],
      [{ listenPorts: `${port},${port + 1}`, targetPorts: '1,2,3' }, 'targetPorts', 'targetPortsCount'],
      [{ targetPorts: String(port) }, 'targetPorts', 'forwardLoop'],
      [{ udpPacketSize: 70000 }, 'udpPacketSize', 'tooBig'],
      [{ logLevel: 1 }, 'logLevel', 'tooSmall'],
      [{ logCapacity: 102401 }, 'logCapacity', 'tooBig'],
      [{ logShowLatest: 0 }, 'logShowLatest', 'tooSmall'],
      [{ accessMode: 'whitelist' }, 'accessList', 'accessListRequired'],
      [{ accessMode: 'blacklist', accessList: ['10.0.0.0/33'] }, 'accessList.0', 'accessListInvalid'],
      [{ tlsMode: 'terminate', tlsCert: 'x' }, 'tlsKey', 'tlsKeyRequired'],
      [{ tlsMode: 'terminate', tlsCert: 'not pem', tlsKey: 'not pem' }, 'tlsCert', 'tlsPairInvalid'],
      [{ tlsMode: 'originate', tlsCa: 'not pem' }, 'tlsCa', 'tlsCaInvalid'],
      [{ forwardTypes: ['udp4'], tlsMode: 'terminate' }, 'tlsMode', 'tlsNeedsTcp'],
      [{ name: 5 }, 'name', 'invalidType'],
    ];
    for (const [change, field, code] of cases) {
      const r = await pf.call('POST', '/api/portforward/rules', { ...good(port), ...change });
      expect(r.status, `${field} ${code}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body, JSON.stringify(change)).toMatchObject({ ret: 1, field, code });
      expect(r.body.msg).toMatch(new RegExp(`^${field.replace('.', '\\.')}: .+`));
    }
    expect(JSON.stringify(stored())).toBe(before);
    await expect(echoOnce(port)).rejects.toThrow(/ECONNREFUSED/);
    // The params name what was wrong, for the UI's own sentence; msg is the English one.
    const bad = await pf.call('POST', '/api/portforward/rules', { ...good(port), listenPorts: '80,90-85' });
    expect(bad.body).toEqual({
      ret: 1,
      field: 'listenPorts',
      code: 'portListInvalid',
      params: { token: '90-85' },
      msg: 'listenPorts: ports are a comma list of 1-65535 and ranges a-b with a < b (90-85)',
    });
  });

  it('refuses a port another owner holds (the admin port), naming it; nothing is saved', async () => {
    const before = JSON.stringify(stored());
    const admin = pf.s.server.port;
    const r = await pf.call('POST', '/api/portforward/rules', { ...good(admin), name: 'on the console' });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ ret: 1, code: 'portTaken', params: { proto: 'tcp', port: admin, module: 'admin' } });
    expect(JSON.stringify(stored())).toBe(before);
    // The module's claims are its enabled rules' ports, each listen port × TCP / UDP.
    const port = await freePort();
    const { key } = await pf.addRule({ ...good(port), forwardTypes: ['tcp4', 'udp4'], name: 'claims' });
    const claims = pf.s.server.core.ports
      .list()
      .filter((c) => c.owner.module === 'portforward' && c.port === port)
      .map((c) => [c.proto, c.host, c.owner.item]);
    expect(claims).toEqual([
      ['tcp', '127.0.0.1', 'claims'],
      ['udp', '127.0.0.1', 'claims'],
    ]);
    await pf.call('PUT', `/api/portforward/rules/${key}/enable`, { enabled: false });
    expect(pf.s.server.core.ports.list().some((c) => c.port === port)).toBe(false);
    await pf.call('DELETE', `/api/portforward/rules/${key}`);
  });

  it('checks the whole config: listen-port conflicts (409) and the proxy-count limit', async () => {
    const port = await freePort();
    const { key } = await pf.addRule(good(port));
    // Same port on the any-address (covers 127.0.0.1), TCP: a conflict, named on listenPorts.
    const clash = await pf.call('POST', '/api/portforward/rules', { ...good(port), listenAddress: '', name: 'clash' });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ ret: 1, field: 'listenPorts', code: 'portConflict', params: { port } });
    expect(clash.body.msg).toMatch(/already used by rule good/);
    // UDP on the same port is no conflict.
    const u = await pf.call('POST', '/api/portforward/rules', { ...good(port), forwardTypes: ['udp4'] });
    expect(u.body.ret).toBe(0);
    // A switched-off rule may share the port; switching it on is refused.
    const off = await pf.addRule({ ...good(port), enabled: false, name: 'spare' });
    const on = await pf.call('PUT', `/api/portforward/rules/${off.key}/enable`, { enabled: true });
    expect(on.body).toMatchObject({ ret: 1, field: 'listenPorts', code: 'portConflict' });
    expect((await pf.rule(off.key)).enabled).toBe(false);

    // The limit counts types × ports over all rules.
    const count = stored().rules.length; // each rule so far has one proxy
    const lower = await pf.call('PUT', '/api/portforward/settings', { ruleLimit: count - 1 });
    expect(lower.body).toMatchObject({ ret: 1, field: 'ruleLimit', code: 'ruleLimitExceeded' });
    expect(stored().ruleLimit).toBe(128);
    expect((await pf.call('PUT', '/api/portforward/settings', { ruleLimit: count + 2 })).body.ret).toBe(0);
    const big = await pf.call('POST', '/api/portforward/rules', {
      ...good(port),
      forwardTypes: ['tcp4', 'udp4'],
      listenPorts: '30001-30002',
    });
    expect(big.body).toMatchObject({
      ret: 1,
      field: 'listenPorts',
      code: 'ruleLimitExceeded',
      params: { count: count + 4 },
    });
    const bad = await pf.call('PUT', '/api/portforward/settings', { maxTcpConnections: 0 });
    expect(bad.body).toMatchObject({ ret: 1, field: 'maxTcpConnections', code: 'tooSmall', params: { min: 1 } });
    await pf.call('DELETE', `/api/portforward/rules/${key}`);
  });

  it('CRUD: create assigns a key, get, update, delete', async () => {
    const port = await freePort();
    const created = await pf.addRule({ ...good(port), name: 'crud' });
    expect(created.key).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(created.rule).toMatchObject({
      key: created.key,
      name: 'crud',
      enabled: true,
      state: 'running',
      maxTcpConnections: 256,
      udpPacketSize: 1500,
      logLevel: 4,
      accessMode: 'off',
    });
    const one = await pf.rule(created.key);
    expect(one.proxies).toHaveLength(1);
    const upd = await pf.call('PUT', `/api/portforward/rules/${created.key}`, { ...ruleFields(one), name: 'renamed' });
    expect(upd.body.rule.name).toBe('renamed');
    expect(await echoOnce(port, 'still works')).toBe('still works');
    const missing = await pf.call('PUT', '/api/portforward/rules/nope', good(port));
    expect(missing.status).toBe(404);
    expect((await pf.call('DELETE', `/api/portforward/rules/${created.key}`)).body.ret).toBe(0);
    expect((await pf.call('GET', `/api/portforward/rules/${created.key}`)).status).toBe(404);
  });

  it('a rule sent without forward types is dual-stack TCP: IPv4 and IPv6 clients both get through', async () => {
    const port = await freePort('::');
    const { listenAddress: _any, forwardTypes: _none, ...rest } = good(port);
    const { key, rule } = await pf.addRule({ ...rest, name: 'defaults' });
    expect(rule.forwardTypes).toEqual(['tcp']);
    expect(rule.proxies.map((p: { id: string }) => p.id)).toEqual([`tcp@:${port}`]);
    expect(await echoOnce(port, 'over IPv4', '127.0.0.1')).toBe('over IPv4');
    expect(await echoOnce(port, 'over IPv6', '::1')).toBe('over IPv6');
    await pf.call('DELETE', `/api/portforward/rules/${key}`);
  });

  it('pages a rule’s log newest first (or oldest first) and lists the latest N', async () => {
    const port = await freePort();
    const { key } = await pf.addRule({ ...good(port), logShowLatest: 3, logCapacity: 5 });
    for (let i = 0; i < 4; i++) expect(await echoOnce(port, `m${i}`)).toBe(`m${i}`);
    await waitFor(
      () => pf.rule(key),
      (r) => r.connections === 0 && r.lastLogs[0]?.seq === 8,
    );
    // 4 connections → 8 lines (open + closed), capacity keeps the newest 5.
    const page1 = (await pf.call('GET', `/api/portforward/rules/${key}/logs?page=1&pageSize=2`)).body;
    expect(page1).toMatchObject({ ret: 0, total: 5, page: 1, pageSize: 2, order: 'newest' });
    const seqs = (p: { logs: { seq: number }[] }) => p.logs.map((l) => l.seq);
    expect(seqs(page1)[0]).toBeGreaterThan(seqs(page1)[1]);
    const oldest = (await pf.call('GET', `/api/portforward/rules/${key}/logs?page=1&pageSize=10&order=oldest`)).body;
    expect(oldest.logs).toHaveLength(5);
    expect(seqs(oldest)).toEqual([...seqs(oldest)].sort((a, b) => a - b));
    expect(seqs(oldest)[4]).toBe(seqs(page1)[0]);
    const view = await pf.rule(key);
    expect(view.lastLogs).toHaveLength(3);
    expect(view.lastLogs[0].seq).toBe(seqs(page1)[0]);
    expect(view.lastLogs[0].level).toBe(4);
    const badPage = await pf.call('GET', `/api/portforward/rules/${key}/logs?page=0`);
    expect(badPage.body).toMatchObject({ ret: 1, field: 'page', code: 'tooSmall' });
    expect((await pf.call('DELETE', `/api/portforward/rules/${key}/logs`)).body.ret).toBe(0);
    expect((await pf.call('GET', `/api/portforward/rules/${key}/logs`)).body.total).toBe(0);
  });

  it('global settings: get, partial put, and an empty slice parses to the module off with no rules', async () => {
    const g = (await pf.call('GET', '/api/portforward/settings')).body;
    expect(g.settings).toMatchObject({ enabled: true, maxTcpConnections: 1024, maxUdpSessions: 1024 });
    expect(g.settings.rules).toBeUndefined();
    const p = (await pf.call('PUT', '/api/portforward/settings', { maxUdpSessions: 77 })).body;
    expect(p.settings).toMatchObject({ enabled: true, maxUdpSessions: 77, maxTcpConnections: 1024 });
    const { portforwardConfigSchema } = await import('@lucky/shared');
    expect(portforwardConfigSchema.parse({})).toMatchObject({ enabled: false, rules: [], ruleLimit: 128 });
  });
});

describe('stored configs of older versions', () => {
  it('load through the module migrations: an old rule without a per-address cap gets the default, then version 1 is saved', async () => {
    const configDir = await tempDir();
    const oldRule = {
      key: 'OldRule000000001',
      name: 'old',
      forwardTypes: ['tcp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(await freePort()),
      targetAddresses: ['127.0.0.1'],
      targetPorts: '9',
      perIpMaxConnections: 0,
    };
    // A config file as an older version left it: the slice has no `version`, the rule no idle time-out.
    await (await startTestServer({ configDir })).close();
    const file = path.join(configDir, 'lucky.json');
    const doc = JSON.parse(await fs.readFile(file, 'utf8'));
    doc.modules.portforward = { enabled: true, rules: [oldRule] };
    await fs.writeFile(file, JSON.stringify(doc));
    const s = await startTestServer({ configDir });
    try {
      const token = await s.login();
      const rule = (await s.call('GET', `/api/portforward/rules/${oldRule.key}`, { token })).body.rule;
      expect(rule).toMatchObject({
        name: 'old',
        perIpMaxConnections: 64,
        tcpIdleTimeoutMs: 1_800_000,
        state: 'running',
      });
      const saved = await s.call('PUT', '/api/portforward/settings', { token, body: { maxUdpSessions: 99 } });
      expect(saved.body.ret, JSON.stringify(saved.body)).toBe(0);
      const stored = s.server.core.store.get().modules.portforward as {
        version: number;
        rules: { perIpMaxConnections: number }[];
      };
      expect(stored.version).toBe(1);
      expect(stored.rules[0].perIpMaxConnections).toBe(64);
    } finally {
      await s.close();
      await fs.rm(configDir, { recursive: true, force: true });
    }
  });
});
