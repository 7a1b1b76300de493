// The UPnP IGD client against miniupnpd on the lab's router, run inside the home namespace:
// discovery, AddPortMapping for TCP and UDP (seen in miniupnpd's state and carrying traffic from
// the public namespace), renewal with a short lease, a redial seen on renewal, DeletePortMapping,
// and secure_mode's refusal as the coded 718 error.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../natlab/agentClient.js';
import type { Lab, UpnpLease } from '../natlab/lab.js';
import { inHome, keepInHome, labWithMiniupnpd, leaseOf, okInHome, okInHomeAll, stopAllKept } from './helpers.js';

let lab: Lab;
let home: Agent;
let pub: Agent;

beforeAll(async () => {
  ({ lab, home, pub } = await labWithMiniupnpd());
});
afterEach(stopAllKept);
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

describe('UPnP IGD against miniupnpd', () => {
  it('discovers the gateway from the home address, with its external address', async () => {
    const found = await okInHome<unknown[]>(lab, { op: 'discover', localAddress: lab.homeIp, timeoutMs: 2000 });
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
    const [tcp] = await okInHomeAll(lab, [
      { op: 'upnpAdd', mapping: mapping('tcp', 18080, 8080) },
      { op: 'upnpAdd', gateway: lab.routerLanIp, mapping: mapping('udp', 18081, 8081) },
      { op: 'upnpAdd', gateway: LOCATION, localAddress: lab.homeIp, mapping: mapping('udp', 18082, 8081) },
    ]);
    expect(tcp).toMatchObject({ externalAddress: lab.wanIp, leaseSec: 3600 });

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

    await okInHomeAll(lab, [
      { op: 'upnpDelete', protocol: 'tcp', externalPort: 18080 },
      { op: 'upnpDelete', protocol: 'udp', externalPort: 18081 },
      { op: 'upnpDelete', protocol: 'udp', externalPort: 18082 },
    ]);
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
    const kept = keepInHome(lab, 'upnp', keepReq('udp', 18100, 2));
    const first = await kept.next((e) => e.t === 'change', 'the mapping');
    expect(first).toEqual({
      t: 'change',
      state: { ok: true, externalAddress: lab.wanIp, externalPort: 18100, method: 'upnp' },
    });
    let expiry = (leaseOf(await lab.upnpMappings(), 'udp', 18100) as UpnpLease).expiresAt;
    expect(expiry - Date.now() / 1000).toBeLessThanOrEqual(2); // the 2 s lease asked for
    // Each renewal (every second) moves miniupnpd's expiry on; after three the mapping has lived
    // past the lease it was made with.
    for (let n = 1; n <= 3; n++) {
      await kept.next(() => kept.events.filter((e) => e.t === 'renew').length >= n, `renewal ${n}`);
      const lease = leaseOf(await lab.upnpMappings(), 'udp', 18100);
      expect(lease?.expiresAt).toBeGreaterThan(expiry);
      expiry = lease?.expiresAt ?? 0;
    }
    const events = await kept.stop();
    expect(events.filter((e) => e.t === 'change')).toEqual([first]);
    expect(events.at(-1)).toEqual({ t: 'stopped' });
    expect(leaseOf(await lab.upnpMappings(), 'udp', 18100)).toBeUndefined();
  });

  it('PortMapping reports the new public address after a redial', async () => {
    const before = lab.wanIp;
    const kept = keepInHome(lab, 'upnp', keepReq('udp', 18110, 2));
    await kept.next((e) => e.t === 'change', 'the mapping');
    const after = await lab.redial();
    await kept.next((e) => e.t === 'change' && e.state.externalAddress === after, 'the new address');
    const events = await kept.stop();
    expect(events.flatMap((e) => (e.t === 'change' ? [[e.state.ok, e.state.externalAddress]] : []))).toEqual([
      [true, before],
      [true, after],
    ]);
    expect(leaseOf(await lab.upnpMappings(), 'udp', 18110)).toBeUndefined();
  });

  it("on a UPnP-only router 'auto' (PCP, NAT-PMP) is told port-unreachable, and 'upnp' maps", async () => {
    await lab.stopMiniupnpd();
    expect(await lab.upnpMappings()).toEqual([]);
    await lab.startMiniupnpd({ natpmp: false });
    const auto = keepInHome(lab, 'auto', keepReq('tcp', 19400, 600));
    expect(await auto.next((e) => e.t === 'change', 'a result')).toMatchObject({
      t: 'change',
      state: { ok: false, method: 'pcp', code: 'unreachable', params: { detail: 'ECONNREFUSED' } },
    });
    await auto.stop();
    const upnp = keepInHome(lab, 'upnp', keepReq('tcp', 19400, 600));
    expect(await upnp.next((e) => e.t === 'change', 'the mapping')).toEqual({
      t: 'change',
      state: { ok: true, method: 'upnp', externalAddress: lab.wanIp, externalPort: 19400 },
    });
    expect(leaseOf(await lab.upnpMappings(), 'tcp', 19400)).toMatchObject({ internalPort: 9000 });
    await upnp.stop();
    expect(await lab.upnpMappings()).toEqual([]);
  });
});

const keepReq = (protocol: 'tcp' | 'udp', externalPort: number, leaseSec: number) => ({
  protocol,
  internalAddress: lab.homeIp,
  internalPort: 9000,
  externalPort,
  leaseSec,
  description: 'lucky keep',
});
