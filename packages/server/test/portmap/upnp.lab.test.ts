// The UPnP IGD client against miniupnpd on the lab's router, run inside the home namespace:
// discovery, AddPortMapping for TCP and UDP (seen in miniupnpd's state and carrying traffic from
// the public namespace), renewal with a short lease, a redial seen on renewal, DeletePortMapping,
// and secure_mode's refusal as the coded 718 error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, startAgent } from '../natlab/agentClient.js';
import { createLab, type Lab, type UpnpLease } from '../natlab/lab.js';
import { pause, waitFor } from '../wait.js';
import { inHome, okInHome } from './helpers.js';
import type { KeepEvent } from './run.js';

let lab: Lab;
let home: Agent;
let pub: Agent;

beforeAll(async () => {
  lab = await createLab();
  await lab.startMiniupnpd();
  [home, pub] = await Promise.all([startAgent(lab, lab.home), startAgent(lab, lab.pub)]);
});
afterAll(async () => {
  await lab?.destroy();
});

const LOCATION = 'http://192.168.77.1:5000/rootDesc.xml';
const mapping = (protocol: 'tcp' | 'udp', externalPort: number, internalPort: number, leaseSec = 3600) => ({
  protocol,
  externalPort,
  internalPort,
  internalClient: '192.168.77.2',
  description: `lucky test ${protocol} ${externalPort}`,
  leaseSec,
});
const leaseOf = (leases: UpnpLease[], protocol: string, externalPort: number) =>
  leases.find((l) => l.protocol === protocol && l.externalPort === externalPort);

describe('UPnP IGD against miniupnpd', () => {
  it('discovers the gateway from the home address, with its external address', async () => {
    const found = await okInHome<unknown[]>(lab, { op: 'discover', localAddress: lab.homeIp, timeoutMs: 1000 });
    expect(found).toEqual([
      {
        location: LOCATION,
        address: lab.routerLanIp,
        friendlyName: expect.any(String),
        serviceType: 'urn:schemas-upnp-org:service:WANIPConnection:2',
        externalAddress: lab.wanIp,
      },
    ]);
  });

  it('maps TCP and UDP, traffic from outside reaches home through them, and deletes them', async () => {
    await home.tcpServe(8080, 'hello over tcp');
    await home.udpOpen(8081);
    // One found by search, one at the address the user gave, one at the description URL.
    const tcp = await okInHome<{ externalAddress: string; leaseSec: number }>(lab, {
      op: 'upnpAdd',
      mapping: mapping('tcp', 18080, 8080),
    });
    expect(tcp).toMatchObject({ externalAddress: lab.wanIp, leaseSec: 3600 });
    await okInHome(lab, { op: 'upnpAdd', gateway: lab.routerLanIp, mapping: mapping('udp', 18081, 8081) });
    await okInHome(lab, {
      op: 'upnpAdd',
      gateway: LOCATION,
      localAddress: lab.homeIp,
      mapping: mapping('udp', 18082, 8081),
    });

    const leases = await lab.upnpMappings();
    expect(leaseOf(leases, 'tcp', 18080)).toMatchObject({ internalClient: lab.homeIp, internalPort: 8080 });
    expect(leaseOf(leases, 'udp', 18081)).toMatchObject({ internalClient: lab.homeIp, internalPort: 8081 });
    expect(leaseOf(leases, 'udp', 18082)).toMatchObject({ description: 'lucky test udp 18082' });

    const wan = lab.wanIp;
    expect(await pub.tcpQuery({ address: wan, port: 18080 }, { address: lab.publicIps[0], port: 0 })).toMatchObject({
      text: 'hello over tcp',
    });
    expect(
      await pub.udpProbe({ address: lab.publicIps[1], port: 7601 }, { address: wan, port: 18081 }, 'probe-upnp'),
    ).toEqual({
      reply: { from: `${wan}:18081`, text: 'pong probe-upnp' },
    });

    for (const [protocol, externalPort] of [
      ['tcp', 18080],
      ['udp', 18081],
      ['udp', 18082],
    ] as const) {
      await okInHome(lab, { op: 'upnpDelete', protocol, externalPort });
    }
    expect(await lab.upnpMappings()).toEqual([]);
    expect(await pub.tcpQuery({ address: wan, port: 18080 }, { address: lab.publicIps[0], port: 0 })).toEqual({
      error: 'ECONNREFUSED',
    });
    expect(await pub.udpProbe({ address: lab.publicIps[1], port: 7602 }, { address: wan, port: 18081 })).toEqual({
      refused: true,
    });
  });

  it('secure_mode refuses a mapping for another LAN host with the coded 718 error', async () => {
    const out = await inHome(lab, {
      op: 'upnpAdd',
      mapping: { ...mapping('tcp', 18090, 8082), internalClient: '192.168.77.3' },
    });
    expect(out.error).toMatchObject({
      code: 'conflictInMappingEntry',
      params: { method: 'upnp', errorCode: 718, gateway: '192.168.77.1:5000' },
    });
    expect(leaseOf(await lab.upnpMappings(), 'tcp', 18090)).toBeUndefined();
  });

  it('PortMapping renews a short lease so the mapping outlives it, and deletes it at stop', async () => {
    const samples: Array<UpnpLease | undefined> = [];
    const run = inHomeKeep({ renewals: 3 }, 18100, 2);
    // Sample miniupnpd's state while the mapping is kept (each renewal moves the expiry on).
    let finished = false;
    const sampled = (async () => {
      await waitFor(async () => leaseOf(await lab.upnpMappings(), 'udp', 18100), {
        timeout: 10_000,
        what: 'mapping made',
      });
      while (!finished) {
        samples.push(leaseOf(await lab.upnpMappings(), 'udp', 18100));
        await pause(100);
      }
    })();
    const { events } = await run.finally(() => {
      finished = true;
    });
    await sampled;
    expect(events.filter((e) => e.t === 'renew')).toHaveLength(3);
    expect(events.filter((e) => e.t === 'change').map((e) => e.state)).toEqual([
      { ok: true, externalAddress: lab.wanIp, externalPort: 18100, method: 'upnp' },
    ]);
    // Present in every sample until stop deleted it (no gap), and held well past its 2 s lease.
    const firstGap = samples.indexOf(undefined);
    const lastPresent = samples.findLastIndex((s) => s !== undefined);
    expect(firstGap === -1 || firstGap > lastPresent).toBe(true);
    const present = samples.filter((s) => s !== undefined) as UpnpLease[];
    const expiries = new Set(present.map((s) => s.expiresAt));
    expect(expiries.size).toBeGreaterThanOrEqual(3);
    expect(Math.max(...expiries) - Math.min(...expiries)).toBeGreaterThanOrEqual(2);
    expect(leaseOf(await lab.upnpMappings(), 'udp', 18100)).toBeUndefined();
  });

  it('PortMapping reports the new public address after a redial', async () => {
    const before = lab.wanIp;
    const run = inHomeKeep({ changes: 2 }, 18110, 2);
    await waitFor(async () => leaseOf(await lab.upnpMappings(), 'udp', 18110), {
      timeout: 10_000,
      what: 'mapping made',
    });
    const after = await lab.redial();
    const { events } = await run;
    expect(events.filter((e) => e.t === 'change').map((e) => e.state.externalAddress)).toEqual([before, after]);
    expect(leaseOf(await lab.upnpMappings(), 'udp', 18110)).toBeUndefined();
  });
});

function inHomeKeep(until: { renewals?: number; changes?: number }, externalPort: number, leaseSec: number) {
  return okInHome<{ events: KeepEvent[] }>(lab, {
    op: 'keep',
    method: 'upnp',
    req: {
      protocol: 'udp',
      internalAddress: lab.homeIp,
      internalPort: 9000,
      externalPort,
      leaseSec,
      description: 'lucky keep',
    },
    until,
  });
}
