// NAT-PMP (RFC 6886) and PCP (RFC 6887) clients against miniupnpd on the lab's router, run inside
// the home namespace: the public address, a mapping that carries traffic from the public
// namespace, its delete; and PortMapping 'auto', which takes PCP from a gateway that speaks it.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../natlab/agentClient.js';
import type { Lab } from '../natlab/lab.js';
import { inHome, keepInHome, labWithMiniupnpd, leaseOf, okInHomeAll, stopAllKept } from './helpers.js';

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

type Mapped = { externalPort: number; externalAddress?: string; lifetimeSec: number };

describe('NAT-PMP against miniupnpd', () => {
  it('tells the public address, maps UDP and TCP that carry traffic, and deletes them', async () => {
    await home.udpOpen(9100);
    await home.tcpServe(9101, 'tcp via nat-pmp');
    const [address, udp, tcp] = (await okInHomeAll(lab, [
      { op: 'natpmpAddress' },
      { op: 'natpmpMap', protocol: 'udp', internalPort: 9100, externalPort: 19100, lifetimeSec: 600 },
      { op: 'natpmpMap', protocol: 'tcp', internalPort: 9101, externalPort: 19101, lifetimeSec: 600 },
    ])) as [unknown, Mapped, Mapped];
    expect(address).toEqual({ externalAddress: lab.wanIp, epoch: expect.any(Number), gateway: lab.routerLanIp });
    expect(udp).toMatchObject({ protocol: 'udp', internalPort: 9100, externalPort: 19100, lifetimeSec: 600 });
    expect(tcp).toMatchObject({ protocol: 'tcp', internalPort: 9101, externalPort: 19101, lifetimeSec: 600 });
    const leases = await lab.upnpMappings();
    expect(leaseOf(leases, 'udp', 19100)).toMatchObject({ internalClient: lab.homeIp, internalPort: 9100 });
    expect(leaseOf(leases, 'tcp', 19101)).toMatchObject({ internalClient: lab.homeIp, internalPort: 9101 });

    const wan = lab.wanIp;
    const outside = { address: lab.publicIps[0], port: 7700 };
    expect(await pub.udpProbe(outside, { address: wan, port: 19100 }, 'probe-pmp')).toEqual({
      reply: { from: `${wan}:19100`, text: 'pong probe-pmp' },
    });
    expect(await pub.tcpQuery({ address: wan, port: 19101 })).toMatchObject({ text: 'tcp via nat-pmp' });

    await okInHomeAll(lab, [
      { op: 'natpmpUnmap', protocol: 'udp', internalPort: 9100 },
      { op: 'natpmpUnmap', protocol: 'tcp', internalPort: 9101 },
    ]);
    expect(await lab.upnpMappings()).toEqual([]);
    expect(await pub.udpProbe({ ...outside, port: 7701 }, { address: wan, port: 19100 })).toEqual({ refused: true });
    expect(await pub.tcpQuery({ address: wan, port: 19101 })).toEqual({ error: 'ECONNREFUSED' });
  });
});

describe('PCP against miniupnpd', () => {
  it('tells the public address, maps UDP and TCP that carry traffic, and deletes them with their nonce', async () => {
    await home.udpOpen(9200);
    await home.tcpServe(9201, 'tcp via pcp');
    const udpNonce = randomBytes(12).toString('hex');
    const tcpNonce = randomBytes(12).toString('hex');
    const [address, udp, tcp] = (await okInHomeAll(lab, [
      { op: 'pcpAddress' },
      { op: 'pcpMap', protocol: 'udp', internalPort: 9200, externalPort: 19200, lifetimeSec: 600, nonce: udpNonce },
      { op: 'pcpMap', protocol: 'tcp', internalPort: 9201, externalPort: 19201, lifetimeSec: 600, nonce: tcpNonce },
    ])) as [unknown, Mapped, Mapped];
    expect(address).toEqual({ externalAddress: lab.wanIp, gateway: lab.routerLanIp });
    expect(udp).toMatchObject({ externalAddress: lab.wanIp, externalPort: 19200, lifetimeSec: 600 });
    expect(tcp).toMatchObject({ externalAddress: lab.wanIp, externalPort: 19201, lifetimeSec: 600 });
    // The two mappings, and nothing left of the address request's short one.
    expect((await lab.upnpMappings()).map((l) => [l.protocol, l.externalPort, l.internalPort])).toEqual([
      ['udp', 19200, 9200],
      ['tcp', 19201, 9201],
    ]);

    const wan = lab.wanIp;
    expect(
      await pub.udpProbe({ address: lab.publicIps[1], port: 7800 }, { address: wan, port: 19200 }, 'probe-pcp'),
    ).toEqual({
      reply: { from: `${wan}:19200`, text: 'pong probe-pcp' },
    });
    expect(await pub.tcpQuery({ address: wan, port: 19201 })).toMatchObject({ text: 'tcp via pcp' });

    // Another nonce may not delete it (RFC 6887 §15: only the mapping's owner).
    const stranger = await inHome(lab, { op: 'pcpUnmap', protocol: 'udp', internalPort: 9200, nonce: tcpNonce });
    expect(stranger.error).toMatchObject({ code: 'notAuthorized', params: { method: 'pcp', result: 2 } });
    expect(leaseOf(await lab.upnpMappings(), 'udp', 19200)).toBeDefined();

    await okInHomeAll(lab, [
      { op: 'pcpUnmap', protocol: 'udp', internalPort: 9200, nonce: udpNonce },
      { op: 'pcpUnmap', protocol: 'tcp', internalPort: 9201, nonce: tcpNonce },
    ]);
    expect(await lab.upnpMappings()).toEqual([]);
    expect(await pub.tcpQuery({ address: wan, port: 19201 })).toEqual({ error: 'ECONNREFUSED' });
  });

  it("PortMapping 'auto' maps with PCP on a gateway that speaks it, and deletes at stop", async () => {
    const kept = keepInHome(lab, 'auto', {
      protocol: 'tcp',
      internalAddress: lab.homeIp,
      internalPort: 9300,
      externalPort: 19300,
      leaseSec: 600,
      description: 'auto',
    });
    expect(await kept.next((e) => e.t === 'change', 'the mapping')).toEqual({
      t: 'change',
      state: { ok: true, method: 'pcp', externalAddress: lab.wanIp, externalPort: 19300 },
    });
    expect(leaseOf(await lab.upnpMappings(), 'tcp', 19300)).toMatchObject({ internalPort: 9300 });
    await kept.stop();
    expect(await lab.upnpMappings()).toEqual([]);
  });
});
