// The STUN module against real peers in the NAT lab (test/natlab/lab.ts): the console runs in
// the home namespace behind a router namespace that NATs like a home router; coturn answers STUN
// on two public addresses; clients in the public namespace come in through the punched port.
// Nothing here leaves the namespaces the lab made (the admin API is reached over the lab's
// management veth).
import { promises as fs, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  StunListResponse,
  StunMappingView,
  StunNatTypeResponse,
  StunRuleInput,
  StunRuleView,
} from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PdnsPeer, query, startPdns } from './dns-peers.js';
import { createLab, type Lab, nodeCommand, runInNs } from './natlab/lab.js';
import { waitFor } from './wait.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ENTRY = path.join(ROOT, 'packages/server/dist/main.js');
const PEERS = fileURLToPath(new URL('./natlab/peers.ts', import.meta.url));
const HEARTBEAT_SEC = 5;
/** A lost mapping is seen within one heartbeat, then re-opened after the retry interval (1 s here). */
const WITHIN_A_HEARTBEAT = (HEARTBEAT_SEC + 8) * 1000;

// biome-ignore lint/suspicious/noExplicitAny: API answers are read as JSON
type Json = any;

let lab: Lab;
let base: string;
let token: string;
let dir: string;
let pdns: PdnsPeer;
const hooks: Array<{ url: string }> = [];
let hookServer: http.Server;
let hookUrl: string;
const scriptOut = path.join(os.tmpdir(), `lucky-stun-script-${process.pid}.log`);

async function call(method: string, p: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const r = await fetch(`${base}${p}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      authorization: `Bearer ${token}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

async function ok(method: string, p: string, body?: unknown): Promise<Json> {
  const r = await call(method, p, body);
  if (r.status !== 200 || r.body.ret !== 0) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function rule(key: string): Promise<StunRuleView> {
  return (await ok('GET', `/api/stun/rules/${key}`)).rule;
}

async function mappingWhere(
  key: string,
  proto: 'tcp' | 'udp',
  cond: (m: StunMappingView) => boolean,
  timeout = WITHIN_A_HEARTBEAT,
): Promise<StunMappingView> {
  const found = await waitFor(
    async () => {
      const m = (await rule(key)).mappings.find((x) => x.protocol === proto);
      return m && cond(m) ? m : undefined;
    },
    { timeout, interval: 200, what: `${proto} mapping of ${key}` },
  ).catch(async (err: Error) => {
    // Say what the rule went through: its mappings and its log.
    const r = await rule(key);
    const log = (await ok('GET', `/api/stun/rules/${key}/logs?pageSize=40&order=oldest`)).logs.map((l: Json) => l.text);
    throw new Error(`${err.message}\nmappings: ${JSON.stringify(r.mappings)}\nlog:\n${log.join('\n')}`);
  });
  if (!found) throw new Error('unreachable: waitFor returns a value that passed');
  return found;
}

async function addRule(body: Partial<StunRuleInput> & { name: string }): Promise<string> {
  const r = await ok('POST', '/api/stun/rules', { targetAddress: '127.0.0.1', targetPort: 7000, ...body });
  return r.key;
}

/** A peer in a namespace that prints one JSON line when ready (echo targets, keep-alive server). */
async function startPeer(ns: string, args: string[]): Promise<void> {
  const [node, nodeArgs] = nodeCommand(PEERS, args);
  const child = lab.spawn(ns, node, nodeArgs);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('"ready":true')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`peer ${args[0]} exited ${code}: ${out}`)));
  });
}

beforeAll(async () => {
  lab = await createLab({ nat: 'fullCone' });
  await lab.startCoturn();
  // Targets in home, and the keep-alive web server a TCP mapping holds a connection to, in public.
  await startPeer(lab.home, ['tcp-echo', '127.0.0.1', '7000']);
  await startPeer(lab.home, ['udp-echo', '127.0.0.1', '7001']);
  await startPeer(lab.pub, ['http-keepalive', lab.publicIps[1], '8080']);
  // The webhook receiver and PowerDNS listen on the management veth's root side.
  hookServer = http.createServer((req, res) => {
    hooks.push({ url: req.url ?? '' });
    res.end('ok');
  });
  await new Promise<void>((r) => hookServer.listen(0, lab.mgmt.hostIp, r));
  hookUrl = `http://${lab.mgmt.hostIp}:${(hookServer.address() as { port: number }).port}`;
  pdns = await startPdns({ address: lab.mgmt.hostIp });

  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-stun-lab-'));
  const child = lab.spawn(lab.home, process.execPath, [ENTRY, '-p', '16601', '-cd', dir, '--host', lab.mgmt.homeIp]);
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  base = `http://${lab.mgmt.homeIp}:16601`;
  await waitFor(async () => (await fetch(`${base}/version`).catch(() => undefined))?.ok, {
    timeout: 30_000,
    what: `the console in ${lab.home} (${out})`,
  });
  const login = await (
    await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: '666', Password: '666' }),
    })
  ).json();
  token = login.token;
  await ok('PUT', '/api/stun/settings', {
    enabled: true,
    stunServers: [`${lab.publicIps[0]}:3478`],
    keepAliveUrl: `http://${lab.publicIps[1]}:8080/`,
    heartbeatSec: HEARTBEAT_SEC,
    retrySec: 1,
    // The global webhook: called for rules whose own webhook is off.
    webhook: { enabled: true, method: 'GET', url: `${hookUrl}/global?addr=#{outerAddr}`, disableSuccessCheck: true },
  });
}, 120_000);

afterAll(async () => {
  await lab?.destroy();
  await pdns?.stop();
  hookServer?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(scriptOut, { force: true });
});

describe('STUN in the NAT lab (full-cone router)', () => {
  let tcpKey: string;
  let udpKey: string;

  it('a TCP mapping: public address learned, the outside reaches the home target byte-exact, script and webhook told', async () => {
    tcpKey = await addRule({
      name: 'ssh',
      protocols: ['tcp'],
      localPort: 40100,
      targetPort: 7000,
      script: `echo "$LUCKY_STUN_PROTOCOL $LUCKY_STUN_OUTER_IP:$LUCKY_STUN_OUTER_PORT $1 $2 $3 $4" >> ${scriptOut}`,
      webhook: {
        enabled: true,
        method: 'GET',
        url: `${hookUrl}/hook?addr=#{outerAddr}&p=#{protocol}`,
        disableSuccessCheck: true,
      },
    } as Json);
    const m = await mappingWhere(tcpKey, 'tcp', (x) => x.state === 'open');
    expect(m.publicAddress).toBe(`${lab.wanIp}:40100`);
    expect(m.localPort).toBe(40100);
    const sent: Json = await runInNs(lab.pub, PEERS, ['tcp-send', lab.wanIp, '40100', String(1 << 20)]);
    expect(sent.bytes).toBe(1 << 20);
    expect(sent.got).toBe(sent.sent);
    await waitFor(() => hooks.some((h) => h.url === `/hook?addr=${encodeURIComponent(`${lab.wanIp}:40100`)}&p=tcp`), {
      timeout: 10_000,
      what: 'the webhook',
    });
    const lines = readFileSync(scriptOut, 'utf8');
    expect(lines).toContain(`tcp ${lab.wanIp}:40100 ${lab.wanIp} 40100 tcp 40100`);
    const view = await rule(tcpKey);
    expect(view.state).toBe('running');
    expect(view.lastLogs.map((l) => l.code)).toContain('mapped');
  });

  it('a UDP mapping: datagrams from the outside reach the home target and the replies come back', async () => {
    udpKey = await addRule({ name: 'game', protocols: ['udp'], localPort: 40200, targetPort: 7001 });
    const m = await mappingWhere(udpKey, 'udp', (x) => x.state === 'open');
    expect(m.publicAddress).toBe(`${lab.wanIp}:40200`);
    const r: Json = await runInNs(lab.pub, PEERS, ['udp-send', lab.wanIp, '40200', '200']);
    expect(r).toEqual({ sent: 200, ok: 200 });
    const after = await mappingWhere(udpKey, 'udp', (x) => x.bytesIn > 0);
    expect(after.bytesIn).toBeGreaterThanOrEqual(200 * 500);
    // This rule has no webhook of its own: the global one was told; the TCP rule's own one was not doubled.
    await waitFor(() => hooks.some((h) => h.url === `/global?addr=${encodeURIComponent(`${lab.wanIp}:40200`)}`), {
      timeout: 10_000,
      what: 'the global webhook',
    });
    expect(hooks.some((h) => h.url.startsWith('/global') && h.url.includes('40100'))).toBe(false);
  });

  it('interface channel with auto-whitelist, a kept STUN connection instead of a keep-alive URL, and forwarding switched off', async () => {
    const addrs = await lab.exec(lab.home, 'ip', ['-4', '-o', 'addr', 'show']);
    const iface = addrs.stdout
      .split('\n')
      .find((l) => l.includes(`inet ${lab.homeIp}/`))
      ?.split(/\s+/)[1];
    expect(iface).toBeTruthy();
    const key = await addRule({
      name: 'iface',
      protocols: ['tcp', 'udp'],
      channelMode: 'interface',
      channelInterface: iface,
      localPort: 40500,
      autoWhitelist: true,
      targetPort: 7000,
    });
    const t = await mappingWhere(key, 'tcp', (x) => x.state === 'open');
    expect(t.publicAddress).toBe(`${lab.wanIp}:40500`);
    expect(t.localAddress).toBe(lab.homeIp);
    await mappingWhere(key, 'udp', (x) => x.state === 'open');
    const sent: Json = await runInNs(lab.pub, PEERS, ['tcp-send', lab.wanIp, '40500', '65536']);
    expect(sent.got).toBe(sent.sent);
    const opened = await lab.exec(lab.home, 'iptables', ['-S', 'INPUT']);
    expect(opened.stdout).toMatch(new RegExp(`-p tcp .*--dport 40500 .*lucky:stun:${key}`));
    expect(opened.stdout).toMatch(new RegExp(`-p udp .*--dport 40500 .*lucky:stun:${key}`));
    await ok('DELETE', `/api/stun/rules/${key}`);
    const closed = await lab.exec(lab.home, 'iptables', ['-S', 'INPUT']);
    expect(closed.stdout).not.toContain(`lucky:stun:${key}`);

    // No keep-alive URL: the STUN connection itself is kept and asked every heartbeat.
    await ok('PUT', '/api/stun/settings', { keepAliveUrl: '' });
    const kept = await addRule({ name: 'kept', protocols: ['tcp'], localPort: 40600, targetPort: 7000 });
    const first = await mappingWhere(kept, 'tcp', (x) => x.state === 'open');
    const later = await mappingWhere(
      kept,
      'tcp',
      (x) => (x.lastCheck ?? 0) > (first.lastCheck ?? 0) && x.state === 'open',
    );
    expect(later.publicAddress).toBe(`${lab.wanIp}:40600`);
    await ok('DELETE', `/api/stun/rules/${kept}`);
    await ok('PUT', '/api/stun/settings', { keepAliveUrl: `http://${lab.publicIps[1]}:8080/` });

    // Forwarding off: the mapping is kept and reported, nothing here answers on the port.
    const bare = await addRule({
      name: 'bare',
      protocols: ['tcp'],
      localPort: 40700,
      disableForwarding: true,
      targetPort: 7000,
    });
    const b = await mappingWhere(bare, 'tcp', (x) => x.state === 'open');
    expect(b.publicAddress).toBe(`${lab.wanIp}:40700`);
    await expect(runInNs(lab.pub, PEERS, ['tcp-send', lab.wanIp, '40700', '1024'])).rejects.toThrow();
    await ok('DELETE', `/api/stun/rules/${bare}`);
  });

  it('a router redial: the new public address is seen within a heartbeat, told to script, webhook and DDNS, and forwarding follows it', async () => {
    const ddns = await ok('PUT', '/api/ddns/settings', { enabled: true }).catch(() => undefined);
    void ddns;
    const task = await ok('POST', '/api/ddns/tasks', {
      name: 'stun-record',
      domains: ['stun.home.test'],
      ipSource: { type: 'url', urls: [`${hookUrl}/no-ip-here`] },
      dns: { provider: 'powerdns', server: pdns.apiUrl, secret: pdns.apiKey },
      ttl: 60,
    });
    const view = await rule(tcpKey);
    await ok('PUT', `/api/stun/rules/${tcpKey}`, { ...view, ddnsTask: task.key });
    const before = lab.wanIp;
    const fresh = await lab.redial();
    expect(fresh).not.toBe(before);
    const m = await mappingWhere(tcpKey, 'tcp', (x) => x.publicAddress === `${fresh}:40100`);
    expect(m.changes).toBeGreaterThanOrEqual(1);
    await waitFor(async () => (await query(pdns.dnsPort, 'stun.home.test', 'A', lab.mgmt.hostIp)).includes(fresh), {
      timeout: 15_000,
      what: 'the DDNS record following the new address',
    });
    await waitFor(() => hooks.some((h) => h.url.includes(encodeURIComponent(`${fresh}:40100`))), {
      timeout: 10_000,
      what: 'the webhook with the new address',
    });
    expect(readFileSync(scriptOut, 'utf8')).toContain(`tcp ${fresh}:40100`);
    const sent: Json = await runInNs(lab.pub, PEERS, ['tcp-send', fresh, '40100', '65536']);
    expect(sent.got).toBe(sent.sent);
    // The UDP rule follows too.
    await mappingWhere(udpKey, 'udp', (x) => x.publicAddress === `${fresh}:40200`);
    const r: Json = await runInNs(lab.pub, PEERS, ['udp-send', fresh, '40200', '20']);
    expect(r).toEqual({ sent: 20, ok: 20 });
  });

  it('the NAT maps to another port (masquerade range changed, conntrack flushed): the new port is seen and used', async () => {
    await lab.shiftPorts();
    const m = await mappingWhere(udpKey, 'udp', (x) => !!x.publicAddress && !x.publicAddress.endsWith(':40200'));
    const port = Number(m.publicAddress?.split(':')[1]);
    expect(port).toBeGreaterThanOrEqual(61000);
    const r: Json = await runInNs(lab.pub, PEERS, ['udp-send', lab.wanIp, String(port), '20']);
    expect(r).toEqual({ sent: 20, ok: 20 });
    await lab.setNat('fullCone');
    await mappingWhere(udpKey, 'udp', (x) => x.publicAddress === `${lab.wanIp}:40200`);
  });

  it('bad input: a duplicate name, a busy local port, servers that do not answer, a garbage answer — each on its own rule', async () => {
    const dup = await call('POST', '/api/stun/rules', { name: 'SSH', targetAddress: '127.0.0.1', targetPort: 1 });
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ code: 'nameTaken', field: 'rules.2.name' });
    const clash = await call('POST', '/api/stun/rules', {
      name: 'clash',
      localPort: 40100,
      protocols: ['tcp'],
      targetAddress: '127.0.0.1',
      targetPort: 1,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('localPortTaken');

    // A port another program holds.
    await startPeer(lab.home, ['udp-echo', '0.0.0.0', '40300']);
    const busy = await addRule({ name: 'busy', protocols: ['udp'], localPort: 40300, targetPort: 7001 });
    const b = await mappingWhere(busy, 'udp', (x) => x.state === 'broken');
    expect(b.reason).toMatchObject({ code: 'notPenetrated' });
    expect(b.error).toContain('40300');

    // Nobody answers STUN there.
    const mute = await addRule({
      name: 'mute',
      protocols: ['udp'],
      stunServers: [`${lab.publicIps[0]}:9999`],
      timeoutMs: 1000,
      targetPort: 7001,
    });
    const mm = await mappingWhere(mute, 'udp', (x) => x.state === 'broken');
    expect(mm.error).toContain('9999');

    // A server that answers garbage (the lab's reflector echoes the request back: not an answer).
    await startPeer(lab.pub, ['udp-echo', lab.publicIps[0], '5999']);
    const junk = await addRule({
      name: 'junk',
      protocols: ['udp'],
      stunServers: [`${lab.publicIps[0]}:5999`],
      timeoutMs: 1000,
      targetPort: 7001,
    });
    const jm = await mappingWhere(junk, 'udp', (x) => x.state === 'broken');
    expect(jm.reason?.code).toBe('notPenetrated');

    // The others are untouched.
    expect((await rule(tcpKey)).state).toBe('running');
    const list: StunListResponse = await ok('GET', '/api/stun/rules');
    expect(list.summary.broken).toBe(3);
    for (const k of [busy, mute, junk]) await ok('DELETE', `/api/stun/rules/${k}`);
  });

  it('NAT type detection tells the lab’s four behaviours apart', async () => {
    const expected = {
      fullCone: 'fullCone',
      restrictedCone: 'restrictedCone',
      portRestrictedCone: 'portRestrictedCone',
      symmetric: 'symmetric',
    } as const;
    for (const [mode, verdict] of Object.entries(expected)) {
      await lab.setNat(mode as keyof typeof expected);
      const r: StunNatTypeResponse = await ok('POST', '/api/stun/nat-type', {
        stunServers: [`${lab.publicIps[0]}:3478`],
        // Inside the lab an answer takes well under a millisecond: a short time-out keeps the
        // filtering tests (whose probes are meant to be lost) quick.
        timeoutMs: 1300,
      });
      expect({ mode, verdict: r.natType.verdict }).toEqual({ mode, verdict });
    }
    await lab.setNat('fullCone');
  }, 120_000);
});

describe('STUN with the router’s port mapping (port-restricted router + miniupnpd)', () => {
  it('UPnP and NAT-PMP mappings are made, carry traffic, and are removed with the rule', async () => {
    await lab.setNat('portRestrictedCone');
    await lab.startMiniupnpd();
    const key = await addRule({
      name: 'upnp',
      protocols: ['tcp', 'udp'],
      localPort: 40400,
      upnp: true,
      natpmp: true,
      leaseSec: 120,
      targetPort: 7000,
    });
    await waitFor(
      async () => {
        const leases = await lab.upnpMappings();
        return leases.filter((l) => l.internalPort === 40400).length >= 2;
      },
      { timeout: 20_000, what: 'router port mappings' },
    );
    const m = await mappingWhere(key, 'tcp', (x) => x.state === 'open' && x.portMaps.some((p) => p.ok));
    expect(m.publicAddress).toBe(`${lab.wanIp}:40400`);
    // Port-restricted filtering drops unsolicited inbound; the router's mapping lets it in.
    const sent: Json = await runInNs(lab.pub, PEERS, ['tcp-send', lab.wanIp, '40400', '65536']);
    expect(sent.got).toBe(sent.sent);
    await ok('DELETE', `/api/stun/rules/${key}`);
    await waitFor(async () => (await lab.upnpMappings()).every((l) => l.internalPort !== 40400), {
      timeout: 15_000,
      what: 'the mappings removed',
    });
    await lab.stopMiniupnpd();
    await lab.setNat('fullCone');
  }, 90_000);
});
