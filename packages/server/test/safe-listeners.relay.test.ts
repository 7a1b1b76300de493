// The security lists at the relays' listeners: port forwarding (TCP accept, new UDP sessions) and
// STUN's forwarding (the UDP mapping socket; coturn on loopback opens the mapping). One console,
// one outside client in a network namespace (198.18.1.0/24, not LAN): a block-list entry for its
// address resets its TCP connection before a byte is read and makes no UDP session, while a
// loopback client is still served; the module in `exempt` lets the outside client through.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, udpClient, udpEcho } from './portforward-helpers.js';
import { type Outside, outsideClient, type SafeConsole, startSafeConsole } from './safe-listeners-helpers.js';
import { type CoturnPeer, startCoturn } from './stun-peers.js';
import { waitFor } from './wait.js';

let c: SafeConsole;
let out: Outside;
let coturn: CoturnPeer;
let pfPort: number;
let stunPort: number;
const closers: (() => Promise<void> | void)[] = [];
/** Connections the TCP target got (it sends its banner and closes). */
let targetHits = 0;

/** A TCP server on loopback that sends `text` to every client and closes. */
async function bannerServer(port: number, text: string): Promise<void> {
  const server = net.createServer((s) => {
    targetHits++;
    s.end(text);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
}

/** Everything a loopback client reads from `port` until the server closes. */
function readAll(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let text = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      text += d;
    });
    s.on('end', () => resolve(text));
    s.on('error', reject);
  });
}

beforeAll(async () => {
  out = await outsideClient('lksfr', '198.18.1');
  c = await startSafeConsole();
  const target = await freePort();
  await bannerServer(target, 'banner from the target');
  const echo = await udpEcho('udp4', 'pf:', target);
  closers.push(echo.close);
  pfPort = await freePort();
  expect((await c.call('PUT', '/api/portforward/settings', { enabled: true })).body.ret).toBe(0);
  const pf = await c.call('POST', '/api/portforward/rules', {
    name: 'both',
    forwardTypes: ['tcp4', 'udp4'],
    listenAddress: '',
    listenPorts: String(pfPort),
    targetAddresses: ['127.0.0.1'],
    targetPorts: String(target),
  });
  expect(pf.body.ret, JSON.stringify(pf.body)).toBe(0);

  coturn = await startCoturn({ addresses: ['127.0.0.1'] });
  const stunEcho = await udpEcho('udp4', 'stun:');
  closers.push(stunEcho.close);
  stunPort = await freePort('0.0.0.0');
  const st = await c.call('PUT', '/api/stun/settings', {
    enabled: true,
    stunServers: [`127.0.0.1:${coturn.port}`],
    keepAliveUrl: '',
    retrySec: 1,
  });
  expect(st.body.ret, JSON.stringify(st.body)).toBe(0);
  const rule = await c.call('POST', '/api/stun/rules', {
    name: 'udp in',
    protocols: ['udp'],
    localPort: stunPort,
    targetAddress: '127.0.0.1',
    targetPort: stunEcho.port,
  });
  expect(rule.body.ret, JSON.stringify(rule.body)).toBe(0);
  await waitFor(
    async () => (await c.call('GET', '/api/stun/rules')).body.list[0]?.mappings[0]?.state,
    (s) => s === 'open',
    { timeout: 10_000, what: 'the STUN mapping open' },
  );
}, 40_000);

afterAll(async () => {
  await c?.close();
  await coturn?.stop();
  for (const f of closers.reverse()) await f();
  out?.close();
});

const pfProxy = async (protocol: 'tcp' | 'udp') => {
  const list = (await c.call('GET', '/api/portforward/rules')).body.list;
  return list[0].proxies.find((p: { protocol: string }) => p.protocol === protocol);
};

describe('a block-list entry for the outside address', () => {
  beforeAll(async () => {
    await c.block(out.ns.outside);
  });

  it('port forwarding TCP: reset at accept with no byte either way, the target never dialled; loopback is served', async () => {
    await c.mark();
    const hits = targetHits;
    const refusedBefore = (await pfProxy('tcp')).refused;
    expect(await out.agent.tcpQuery({ address: out.ns.gateway, port: pfPort })).toEqual({ error: 'ECONNRESET' });
    await c.refusalLogged(out.ns.outside, 'portforward', 'block');
    const tcp = await pfProxy('tcp');
    expect(tcp.refused).toBe(refusedBefore + 1);
    expect(tcp.accepted).toBe(0);
    expect(targetHits).toBe(hits);
    expect(await readAll(pfPort)).toBe('banner from the target');
    expect(targetHits).toBe(hits + 1);
  });

  it('port forwarding UDP: no session is made and nothing answers; loopback gets its answer', async () => {
    await c.mark();
    const probe = out.agent.udpProbe(
      { address: out.ns.outside, port: 0 },
      { address: out.ns.gateway, port: pfPort },
      'probe-pf',
      1500,
    );
    // The refusal is logged as the datagram is dropped: from then on nothing can come of it.
    await c.refusalLogged(out.ns.outside, 'portforward', 'block');
    const udp = await pfProxy('udp');
    expect(udp.sessions).toBe(0);
    expect(udp.accepted).toBe(0);
    expect(udp.refused).toBeGreaterThanOrEqual(1);
    expect(await probe).toEqual({ timedOut: true });
    const local = await udpClient('udp4');
    try {
      expect((await local.ask('from loopback', pfPort)).toString()).toBe('pf:from loopback');
    } finally {
      local.sock.close();
    }
  });

  it('STUN forwarding (UDP): no session for the outside client; loopback is forwarded', async () => {
    await c.mark();
    const probe = out.agent.udpProbe(
      { address: out.ns.outside, port: 0 },
      { address: out.ns.gateway, port: stunPort },
      'probe-stun',
      1500,
    );
    await c.refusalLogged(out.ns.outside, 'stun', 'block');
    expect((await c.call('GET', '/api/stun/rules')).body.list[0].mappings[0].connections).toBe(0);
    expect(await probe).toEqual({ timedOut: true });
    const local = await udpClient('udp4');
    try {
      expect((await local.ask('from loopback', stunPort)).toString()).toBe('stun:from loopback');
    } finally {
      local.sock.close();
    }
  });
});

describe('a module in `exempt`', () => {
  it('port forwarding: the blocked outside address gets in there (TCP relayed, UDP answered), not at STUN', async () => {
    await c.block(out.ns.outside);
    await c.setSafe({ exempt: ['portforward'] });
    await c.mark();
    const tcp = await out.agent.tcpQuery({ address: out.ns.gateway, port: pfPort });
    expect(tcp).toMatchObject({ text: 'banner from the target' });
    const pf = await out.agent.udpProbe(
      { address: out.ns.outside, port: 0 },
      { address: out.ns.gateway, port: pfPort },
      'x',
    );
    expect(pf).toEqual({ reply: { from: `${out.ns.gateway}:${pfPort}`, text: 'pf:x' } });
    const stun = out.agent.udpProbe(
      { address: out.ns.outside, port: 0 },
      { address: out.ns.gateway, port: stunPort },
      'y',
      1500,
    );
    await c.refusalLogged(out.ns.outside, 'stun', 'block');
    expect(await stun).toEqual({ timedOut: true });
  });

  it('STUN: the blocked outside address is forwarded there, and reset again at port forwarding', async () => {
    await c.setSafe({ exempt: ['stun'] });
    const st = await out.agent.udpProbe(
      { address: out.ns.outside, port: 0 },
      { address: out.ns.gateway, port: stunPort },
      'y',
    );
    expect(st).toEqual({ reply: { from: `${out.ns.gateway}:${stunPort}`, text: 'stun:y' } });
    expect(await out.agent.tcpQuery({ address: out.ns.gateway, port: pfPort })).toEqual({ error: 'ECONNRESET' });
    await c.setSafe({ exempt: [] });
  });
});
