import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedWithin,
  connect,
  echoOnce,
  echoServer,
  freePort,
  type Peer,
  type Pf,
  roundTrip,
  ruleFields,
  startPf,
  tcpRule as tcpRuleTo,
  tcpServer,
  udpClient,
  udpEcho,
} from './portforward-helpers.js';
import { pause, waitFor } from './wait.js';

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

const tcpRule = (port: number, extra: Record<string, unknown> = {}) => tcpRuleTo(port, echo.port, extra);

/** Open connections that have proved they work (an echo went through). */
async function openWorking(port: number, n: number, localAddress?: string): Promise<net.Socket[]> {
  const out: net.Socket[] = [];
  for (let i = 0; i < n; i++) {
    const c = await connect(port, '127.0.0.1', localAddress);
    expect(await roundTrip(c, 'x')).toBe('x');
    out.push(c);
  }
  return out;
}

describe('limits', () => {
  it('per rule: the rule’s TCP connection cap refuses the next one, and frees up when one closes', async () => {
    const port = await freePort();
    const { key } = await pf.addRule(tcpRule(port, { maxTcpConnections: 2 }));
    const open = await openWorking(port, 2);
    await expect(echoOnce(port)).rejects.toThrow();
    const rule = await pf.rule(key);
    expect(rule.proxies[0].refused).toBe(1);
    expect(rule.lastLogs[0].text).toMatch(/refused 127\.0\.0\.1:\d+: rule limit of 2 TCP connections/);
    expect(rule.lastLogs[0]).toMatchObject({ level: 3, code: 'ruleTcpLimit', params: { cap: 2 } });
    open[0].end();
    await waitFor(
      () => pf.rule(key),
      (r) => r.connections === 1,
    );
    expect(await echoOnce(port, 'room again')).toBe('room again');
    for (const c of open) c.destroy();
  });

  it('per client address: a rule’s per-IP cap, while another address still gets in', async () => {
    const port = await freePort();
    await pf.addRule(tcpRule(port, { listenAddress: '', perIpMaxConnections: 2 }));
    const open = await openWorking(port, 2, '127.0.0.1');
    await expect(echoOnce(port, 'x', '127.0.0.1', '127.0.0.1')).rejects.toThrow();
    expect(await echoOnce(port, 'other address', '127.0.0.1', '127.0.0.2')).toBe('other address');
    for (const c of open) c.destroy();
  });

  it('global: the module-wide TCP cap and per-IP cap count over all rules', async () => {
    const other = await startPf({ maxTcpConnections: 3 });
    const [a, b] = [await freePort(), await freePort()];
    await other.addRule(tcpRule(a));
    await other.addRule(tcpRule(b));
    const open = [...(await openWorking(a, 2)), ...(await openWorking(b, 1))];
    await expect(echoOnce(a)).rejects.toThrow();
    await expect(echoOnce(b)).rejects.toThrow();
    const list = (await other.call('GET', '/api/portforward/rules')).body;
    expect(list.summary).toMatchObject({ tcpConnections: 3, maxTcpConnections: 3 });
    expect(list.list[1].lastLogs[0].text).toMatch(/global limit of 3 TCP connections/);
    for (const c of open) c.destroy();

    const r = await other.call('PUT', '/api/portforward/settings', { maxTcpConnections: 100, perIpMaxConnections: 1 });
    expect(r.body.ret).toBe(0);
    await waitFor(
      () => other.call('GET', '/api/portforward/settings'),
      (x) => x.body.summary.tcpConnections === 0,
    );
    const one = await openWorking(a, 1, '127.0.0.3');
    await expect(echoOnce(b, 'x', '127.0.0.1', '127.0.0.3')).rejects.toThrow();
    expect(await echoOnce(b, 'y', '127.0.0.1', '127.0.0.4')).toBe('y');
    one[0].destroy();
    await other.close();
  });

  it('UDP: the rule’s session cap leaves the next client without an answer', async () => {
    const u = await udpEcho('udp4');
    const port = await freePort();
    const { key } = await pf.addRule({
      ...tcpRule(port),
      forwardTypes: ['udp4'],
      targetPorts: String(u.port),
      maxUdpSessions: 2,
    });
    const clients = await Promise.all([0, 1, 2].map(() => udpClient('udp4')));
    expect((await clients[0].ask('a', port)).toString()).toBe('a');
    expect((await clients[1].ask('b', port)).toString()).toBe('b');
    await expect(clients[2].ask('c', port, '127.0.0.1', 300)).rejects.toThrow(/no UDP reply/);
    expect((await pf.rule(key)).proxies[0]).toMatchObject({ sessions: 2, refused: 1 });
    for (const c of clients) await c.close();
    await u.close();
  });

  it('black and white lists, also for UDP; an edited list closes connections it no longer allows', async () => {
    const wl = await freePort();
    await pf.addRule(
      tcpRule(wl, { listenAddress: '', accessMode: 'whitelist', accessList: ['127.0.0.2', '10.0.0.0/8'] }),
    );
    await expect(echoOnce(wl, 'x', '127.0.0.1', '127.0.0.1')).rejects.toThrow();
    expect(await echoOnce(wl, 'listed', '127.0.0.1', '127.0.0.2')).toBe('listed');

    const bl = await freePort();
    const { key } = await pf.addRule(
      tcpRule(bl, { listenAddress: '', accessMode: 'blacklist', accessList: ['127.0.0.8/30'] }),
    );
    await expect(echoOnce(bl, 'x', '127.0.0.1', '127.0.0.9')).rejects.toThrow();
    expect(await echoOnce(bl, 'not listed', '127.0.0.1', '127.0.0.12')).toBe('not listed');
    const logs = (await pf.call('GET', `/api/portforward/rules/${key}/logs`)).body.logs;
    expect(
      logs.some((l: { text: string }) => /refused 127\.0\.0\.9:\d+: the blacklist does not allow it/.test(l.text)),
    ).toBe(true);

    // Blacklisting an address that has an open connection closes it.
    const open = await connect(bl, '127.0.0.1', '127.0.0.12');
    expect(await roundTrip(open, 'still here')).toBe('still here');
    const fields = ruleFields(await pf.rule(key));
    const put = await pf.call('PUT', `/api/portforward/rules/${key}`, { ...fields, accessList: ['127.0.0.12'] });
    expect(put.body.ret).toBe(0);
    await closedWithin(open);

    const u = await udpEcho('udp4');
    const up = await freePort();
    await pf.addRule({
      ...tcpRule(up),
      listenAddress: '',
      forwardTypes: ['udp4'],
      targetPorts: String(u.port),
      accessMode: 'whitelist',
      accessList: ['127.0.0.2'],
    });
    const denied = await udpClient('udp4', '127.0.0.1');
    const allowed = await udpClient('udp4', '127.0.0.2');
    await expect(denied.ask('no', up, '127.0.0.1', 300)).rejects.toThrow(/no UDP reply/);
    expect((await allowed.ask('yes', up)).toString()).toBe('yes');
    await denied.close();
    await allowed.close();
    await u.close();
  });

  it('speed limits hold within 10 % over 5 s: per rule each direction, and per connection (global)', async () => {
    const RATE = 4_000_000;
    const PER_CONN = 3_000_000;
    const WINDOW_MS = 5000;
    // The target floods the client and counts what the client floods back.
    const counters: { toTarget: number[] } = { toTarget: [] };
    const target = await tcpServer((c) => {
      const i = counters.toTarget.push(0) - 1;
      c.on('data', (d) => {
        counters.toTarget[i] += d.length;
      });
      flood(c);
    });
    const port = await freePort();
    await pf.addRule(tcpRule(port, { targetPorts: String(target.port), speedLimitIn: RATE, speedLimitOut: RATE }));
    const perConn = await startPf({ connectionSpeedLimit: PER_CONN });
    const port2 = await freePort();
    await perConn.addRule(tcpRule(port2, { targetPorts: String(target.port) }));

    const measure = async (p: number) => {
      const c = await connect(p);
      let received = 0;
      c.on('data', (d) => {
        received += d.length;
      });
      flood(c);
      return { c, received: () => received };
    };
    const limited = await measure(port);
    await waitFor(
      () => counters.toTarget.length,
      (n) => n === 1,
    );
    const conns = [await measure(port2), await measure(port2)];
    const start = {
      limitedIn: counters.toTarget[0],
      limitedOut: limited.received(),
      per: conns.map((x) => x.received()),
    };
    // The measuring window: the rates are bytes over this much time, so the wait is the measurement.
    await pause(WINDOW_MS);
    const ratio = (bytes: number, rate: number) => bytes / ((rate * WINDOW_MS) / 1000);
    const inRatio = ratio(counters.toTarget[0] - start.limitedIn, RATE);
    const outRatio = ratio(limited.received() - start.limitedOut, RATE);
    const perRatios = conns.map((x, i) => ratio(x.received() - start.per[i], PER_CONN));
    for (const x of [limited, ...conns]) x.c.destroy();
    await target.close();
    await perConn.close();
    for (const r of [inRatio, outRatio, ...perRatios]) {
      expect(r).toBeGreaterThan(0.9);
      expect(r).toBeLessThan(1.1);
    }
  }, 20_000);
});

/** Write as fast as the socket takes it, until it closes. */
function flood(c: net.Socket): void {
  const chunk = Buffer.alloc(64 * 1024, 7);
  const pump = () => {
    while (!c.destroyed && c.write(chunk));
    if (!c.destroyed) c.once('drain', pump);
  };
  c.on('error', () => {});
  pump();
}
