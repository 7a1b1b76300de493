// PortMapping's life against fake NAT-PMP / PCP gateways on loopback, with the timers in the
// test's hand (the injected setTimeout records each wait; the test fires them): renewal at half
// the granted lifetime, a changed port reported once, back-off after failures, the delete at stop
// (bounded when the gateway is silent), one nonce for a PCP mapping's life, and 'auto' falling
// back from PCP to NAT-PMP on "unsupported version" or silence, but not on a refusal.
import { afterEach, describe, expect, it } from 'vitest';
import { PortMapping, type PortMappingOptions, type PortMappingState } from '../../src/modules/stun/portmap/mapping.js';
import { waitFor } from '../wait.js';
import { type FakeUdp, fakeUdpGateway } from './fakeGateway.js';

/** Timers the test fires by hand. */
class ManualTimers {
  private seq = 0;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.seq;
    this.pending.set(id, { fn, ms });
    return id;
  };
  clearTimeout = (id: unknown) => {
    this.pending.delete(id as number);
  };
  delays = () => [...this.pending.values()].map((t) => t.ms);
  /** Runs the one timer that waits. */
  fire() {
    expect(this.pending.size).toBe(1);
    const [[id, t]] = [...this.pending];
    this.pending.delete(id);
    t.fn();
  }
}

const gateways: FakeUdp[] = [];
const mappings: PortMapping[] = [];
afterEach(async () => {
  for (const m of mappings.splice(0)) await m.stop();
  for (const g of gateways.splice(0)) await g.close();
});

/** What a fake gateway answers: address, mapping (port and lifetime) or a result code. */
interface Behaviour {
  natpmp: 'ok' | 'silent' | number;
  pcp: 'ok' | 'unsupportedVersion' | 'silent' | number;
  externalPort: number;
  lifetime: number;
}

async function gateway(b: Behaviour) {
  const g = await fakeUdpGateway((req) => {
    if (req[0] === 2) return pcpAnswer(req, b);
    if (req[0] !== 0 || b.natpmp === 'silent') return undefined;
    const op = req[1];
    const h = Buffer.alloc(op === 0 ? 12 : 16);
    h[1] = 128 + op;
    h.writeUInt16BE(typeof b.natpmp === 'number' ? b.natpmp : 0, 2);
    h.writeUInt32BE(77, 4);
    if (op === 0) Buffer.from([203, 0, 113, 7]).copy(h, 8);
    else {
      h.writeUInt16BE(req.readUInt16BE(4), 8);
      const deleting = req.readUInt32BE(8) === 0;
      h.writeUInt16BE(deleting ? 0 : b.externalPort, 10);
      h.writeUInt32BE(deleting ? 0 : b.lifetime, 12);
    }
    return h;
  });
  gateways.push(g);
  return g;
}

function pcpAnswer(req: Buffer, b: Behaviour): Buffer | undefined {
  if (b.pcp === 'silent') return undefined;
  if (b.pcp === 'unsupportedVersion') return Buffer.from([0, 129, 0, 1, 0, 0, 0, 0]);
  const a = Buffer.alloc(60);
  a[0] = 2;
  a[1] = 0x81;
  a[3] = typeof b.pcp === 'number' ? b.pcp : 0;
  const deleting = req.readUInt32BE(4) === 0;
  a.writeUInt32BE(deleting ? 0 : b.lifetime, 4);
  req.copy(a, 24, 24, 42);
  a.writeUInt16BE(deleting ? 0 : b.externalPort, 42);
  Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 203, 0, 113, 8]).copy(a, 44);
  return a;
}

function start(method: 'natpmp' | 'pcp' | 'auto', g: FakeUdp, opts: PortMappingOptions = {}, throwing = false) {
  const timers = new ManualTimers();
  const changes: PortMappingState[] = [];
  const renewals: PortMappingState[] = [];
  const record = (list: PortMappingState[]) => (s: PortMappingState) => {
    list.push(s);
    if (throwing) throw new Error('a hook with a bug');
  };
  const m = new PortMapping(
    method,
    {
      protocol: 'udp',
      internalAddress: '127.0.0.1',
      internalPort: 5000,
      externalPort: 5000,
      leaseSec: 3600,
      description: 'test',
      gateway: '127.0.0.1',
    },
    { onChange: record(changes), onRenew: record(renewals) },
    {
      setTimeout: timers.setTimeout,
      clearTimeout: timers.clearTimeout,
      gatewayPort: g.port,
      udpInitialTimeoutMs: 20,
      udpMaxTries: 2,
      ...opts,
    },
  );
  mappings.push(m);
  m.start();
  return { m, timers, changes, renewals };
}

/** The NAT-PMP map requests a gateway got: [suggested external port, lifetime]. */
const pmpMaps = (g: FakeUdp) =>
  g.requests.filter((r) => r[0] === 0 && r[1] !== 0).map((r) => [r.readUInt16BE(6), r.readUInt32BE(8)]);

describe('PortMapping', () => {
  it('renews at half the granted lifetime, asks for the port it holds, and reports only changes', async () => {
    const b: Behaviour = { natpmp: 'ok', pcp: 'ok', externalPort: 20000, lifetime: 10 };
    const g = await gateway(b);
    const { m, timers, changes, renewals } = start('natpmp', g);
    await waitFor(() => changes.length === 1);
    expect(changes[0]).toEqual({ ok: true, method: 'natpmp', externalAddress: '203.0.113.7', externalPort: 20000 });
    expect(m.state).toEqual(changes[0]);
    expect(timers.delays()).toEqual([5000]);
    expect(pmpMaps(g)).toEqual([[5000, 3600]]);

    timers.fire();
    await waitFor(() => renewals.length === 1);
    expect(changes).toHaveLength(1);
    expect(pmpMaps(g)).toEqual([
      [5000, 3600],
      [20000, 3600],
    ]);
    expect(timers.delays()).toEqual([5000]);

    b.externalPort = 20001; // the gateway moved it
    timers.fire();
    await waitFor(() => renewals.length === 2);
    expect(changes.map((c) => c.externalPort)).toEqual([20000, 20001]);
  });

  it('keeps renewing when a hook throws', async () => {
    const g = await gateway({ natpmp: 'ok', pcp: 'ok', externalPort: 20000, lifetime: 10 });
    const { timers, changes, renewals } = start('natpmp', g, {}, true);
    await waitFor(() => changes.length === 1);
    expect(timers.delays()).toEqual([5000]);
    timers.fire();
    await waitFor(() => renewals.length === 1);
    expect(timers.delays()).toEqual([5000]);
  });

  it('backs off after failures, reports a failure once, and recovers', async () => {
    const b: Behaviour = { natpmp: 2, pcp: 'ok', externalPort: 20000, lifetime: 30 };
    const g = await gateway(b);
    const { timers, changes } = start('natpmp', g, { retryMinMs: 100, retryMaxMs: 500 });
    await waitFor(() => changes.length === 1);
    expect(changes[0]).toMatchObject({ ok: false, method: 'natpmp', code: 'notAuthorized', params: { result: 2 } });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      delays.push(...timers.delays());
      const before = g.requests.length;
      timers.fire();
      await waitFor(() => timers.pending.size === 1 && g.requests.length > before);
    }
    delays.push(...timers.delays());
    expect(delays).toEqual([100, 200, 400, 500, 500]);
    expect(changes).toHaveLength(1);

    b.natpmp = 'ok';
    timers.fire();
    await waitFor(() => changes.length === 2);
    expect(changes[1]).toMatchObject({ ok: true, externalPort: 20000 });
    expect(timers.delays()).toEqual([15_000]);
  });

  it('deletes the mapping at stop and leaves no timer', async () => {
    const g = await gateway({ natpmp: 'ok', pcp: 'ok', externalPort: 20000, lifetime: 60 });
    const { m, timers, changes } = start('natpmp', g);
    await waitFor(() => changes.length === 1);
    await m.stop();
    expect(pmpMaps(g).at(-1)).toEqual([0, 0]);
    expect(timers.pending.size).toBe(0);
  });

  it('after a failed renewal it asks for the port it held, and stop still deletes it', async () => {
    const b: Behaviour = { natpmp: 'ok', pcp: 'ok', externalPort: 20000, lifetime: 60 };
    const g = await gateway(b);
    const { m, timers, changes } = start('natpmp', g, { retryMinMs: 100 });
    await waitFor(() => changes.length === 1);
    b.natpmp = 4; // out of resources
    timers.fire();
    await waitFor(() => changes.length === 2);
    expect(changes[1]).toMatchObject({ ok: false, code: 'outOfResources' });
    b.natpmp = 'ok';
    timers.fire();
    await waitFor(() => changes.length === 3);
    expect(pmpMaps(g)).toEqual([
      [5000, 3600],
      [20000, 3600],
      [20000, 3600],
    ]);
    b.natpmp = 4;
    timers.fire();
    await waitFor(() => changes.length === 4);
    b.natpmp = 'ok';
    await m.stop();
    expect(pmpMaps(g).at(-1)).toEqual([0, 0]);
  });

  it('stop ends within its bound when the gateway has gone silent', async () => {
    const b: Behaviour = { natpmp: 'ok', pcp: 'ok', externalPort: 20000, lifetime: 60 };
    const g = await gateway(b);
    const { m, changes } = start('natpmp', g, { stopTimeoutMs: 100, udpMaxTries: 9, udpInitialTimeoutMs: 250 });
    await waitFor(() => changes.length === 1);
    b.natpmp = 'silent';
    await m.stop(); // 9 tries would take two minutes; the bound cuts the delete short
    expect(pmpMaps(g).at(-1)).toEqual([0, 0]);
  });

  it('keeps one PCP nonce for the mapping, renewals and the delete', async () => {
    const g = await gateway({ natpmp: 'ok', pcp: 'ok', externalPort: 21000, lifetime: 120 });
    const { m, timers, changes, renewals } = start('pcp', g);
    await waitFor(() => changes.length === 1);
    expect(changes[0]).toEqual({ ok: true, method: 'pcp', externalAddress: '203.0.113.8', externalPort: 21000 });
    expect(timers.delays()).toEqual([60_000]);
    timers.fire();
    await waitFor(() => renewals.length === 1);
    await m.stop();
    const pcp = g.requests.filter((r) => r[0] === 2);
    expect(pcp.map((r) => r.readUInt32BE(4))).toEqual([3600, 3600, 0]);
    expect(new Set(pcp.map((r) => r.subarray(24, 36).toString('hex'))).size).toBe(1);
  });

  it("'auto' falls back from PCP to NAT-PMP on unsupported version, and renews with NAT-PMP", async () => {
    const g = await gateway({ natpmp: 'ok', pcp: 'unsupportedVersion', externalPort: 22000, lifetime: 40 });
    const { timers, changes, renewals } = start('auto', g);
    await waitFor(() => changes.length === 1);
    expect(changes[0]).toEqual({ ok: true, method: 'natpmp', externalAddress: '203.0.113.7', externalPort: 22000 });
    const pcpRequests = g.requests.filter((r) => r[0] === 2).length;
    expect(pcpRequests).toBe(1);
    timers.fire();
    await waitFor(() => renewals.length === 1);
    expect(g.requests.filter((r) => r[0] === 2).length).toBe(pcpRequests);
  });

  it("'auto' asks NAT-PMP when PCP goes unanswered", async () => {
    const g = await gateway({ natpmp: 'ok', pcp: 'silent', externalPort: 22000, lifetime: 40 });
    const { changes } = start('auto', g);
    await waitFor(() => changes.length === 1);
    expect(changes[0]).toMatchObject({ ok: true, method: 'natpmp', externalPort: 22000 });
    expect(g.requests.filter((r) => r[0] === 2)).toHaveLength(2); // udpMaxTries
  });

  it("'auto' takes a real refusal as the answer instead of trying the next method", async () => {
    const g = await gateway({ natpmp: 'ok', pcp: 2, externalPort: 22000, lifetime: 40 });
    const { changes } = start('auto', g);
    await waitFor(() => changes.length === 1);
    expect(changes[0]).toMatchObject({ ok: false, method: 'pcp', code: 'notAuthorized' });
    expect(g.requests.every((r) => r[0] === 2)).toBe(true);
  });
});
