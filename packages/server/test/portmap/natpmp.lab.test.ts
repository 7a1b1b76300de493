// NAT-PMP (RFC 6886) and PCP (RFC 6887) clients against miniupnpd on the lab's router, run inside
// the home namespace: the public address, a mapping that carries traffic from the public
// namespace, its delete; and PortMapping 'auto', which takes PCP from a gateway that speaks it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, startAgent } from '../natlab/agentClient.js';
import { createLab, type Lab, type UpnpLease } from '../natlab/lab.js';
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

const leaseOf = (leases: UpnpLease[], protocol: string, externalPort: number) =>
  leases.find((l) => l.protocol === protocol && l.externalPort === externalPort);

describe('NAT-PMP against miniupnpd', () => {
  it('tells the public address, maps UDP and TCP that carry traffic, and deletes them', async () => {
    expect(await okInHome(lab, { op: 'natpmpAddress' })).toEqual({
      externalAddress: lab.wanIp,
      epoch: expect.any(Number),
      gateway: lab.routerLanIp,
    });
    await home.udpOpen(9100);
    await home.tcpServe(9101, 'tcp via nat-pmp');
    const udp = await okInHome<{ externalPort: number; lifetimeSec: number }>(lab, {
      op: 'natpmpMap',
      protocol: 'udp',
      internalPort: 9100,
      externalPort: 19100,
      lifetimeSec: 600,
    });
    expect(udp).toMatchObject({ protocol: 'udp', internalPort: 9100, externalPort: 19100, lifetimeSec: 600 });
    const tcp = await okInHome<{ externalPort: number }>(lab, {
      op: 'natpmpMap',
      protocol: 'tcp',
      internalPort: 9101,
      externalPort: 19101,
      lifetimeSec: 600,
    });
    expect(leaseOf(await lab.upnpMappings(), 'udp', udp.externalPort)).toMatchObject({
      internalClient: lab.homeIp,
      internalPort: 9100,
    });

    const wan = lab.wanIp;
    expect(
      await pub.udpProbe(
        { address: lab.publicIps[0], port: 7700 },
        { address: wan, port: udp.externalPort },
        'probe-pmp',
      ),
    ).toEqual({
      reply: { from: `${wan}:${udp.externalPort}`, text: 'pong probe-pmp' },
    });
    expect(await pub.tcpQuery({ address: wan, port: tcp.externalPort })).toMatchObject({ text: 'tcp via nat-pmp' });

    await okInHome(lab, { op: 'natpmpUnmap', protocol: 'udp', internalPort: 9100 });
    await okInHome(lab, { op: 'natpmpUnmap', protocol: 'tcp', internalPort: 9101 });
    expect(await lab.upnpMappings()).toEqual([]);
    expect(
      await pub.udpProbe({ address: lab.publicIps[0], port: 7701 }, { address: wan, port: udp.externalPort }),
    ).toEqual({
      refused: true,
    });
    expect(await pub.tcpQuery({ address: wan, port: tcp.externalPort })).toEqual({ error: 'ECONNREFUSED' });
  });
});

describe('PCP against miniupnpd', () => {
  it('tells the public address, maps UDP and TCP that carry traffic, and deletes them with their nonce', async () => {
    expect(await okInHome(lab, { op: 'pcpAddress' })).toEqual({ externalAddress: lab.wanIp, gateway: lab.routerLanIp });
    // The address request's short mapping is gone again.
    expect(await lab.upnpMappings()).toEqual([]);
    await home.udpOpen(9200);
    await home.tcpServe(9201, 'tcp via pcp');
    const udpNonce = randomBytes(12).toString('hex');
    const tcpNonce = randomBytes(12).toString('hex');
    const udp = await okInHome<{ externalPort: number; externalAddress: string; lifetimeSec: number }>(lab, {
      op: 'pcpMap',
      protocol: 'udp',
      internalPort: 9200,
      externalPort: 19200,
      lifetimeSec: 600,
      nonce: udpNonce,
    });
    expect(udp).toMatchObject({ externalAddress: lab.wanIp, externalPort: 19200, lifetimeSec: 600 });
    const tcp = await okInHome<{ externalPort: number }>(lab, {
      op: 'pcpMap',
      protocol: 'tcp',
      internalPort: 9201,
      externalPort: 19201,
      lifetimeSec: 600,
      nonce: tcpNonce,
    });
    expect(leaseOf(await lab.upnpMappings(), 'tcp', tcp.externalPort)).toMatchObject({ internalPort: 9201 });

    const wan = lab.wanIp;
    expect(
      await pub.udpProbe(
        { address: lab.publicIps[1], port: 7800 },
        { address: wan, port: udp.externalPort },
        'probe-pcp',
      ),
    ).toEqual({
      reply: { from: `${wan}:${udp.externalPort}`, text: 'pong probe-pcp' },
    });
    expect(await pub.tcpQuery({ address: wan, port: tcp.externalPort })).toMatchObject({ text: 'tcp via pcp' });

    // Another nonce may not delete it (RFC 6887 §11.3: only the owner).
    const stranger = await inHome(lab, { op: 'pcpUnmap', protocol: 'udp', internalPort: 9200, nonce: tcpNonce });
    expect(stranger.error).toMatchObject({ code: 'notAuthorized', params: { method: 'pcp', result: 2 } });
    expect(leaseOf(await lab.upnpMappings(), 'udp', udp.externalPort)).toBeDefined();

    await okInHome(lab, { op: 'pcpUnmap', protocol: 'udp', internalPort: 9200, nonce: udpNonce });
    await okInHome(lab, { op: 'pcpUnmap', protocol: 'tcp', internalPort: 9201, nonce: tcpNonce });
    expect(await lab.upnpMappings()).toEqual([]);
    expect(await pub.tcpQuery({ address: wan, port: tcp.externalPort })).toEqual({ error: 'ECONNREFUSED' });
  });

  it("PortMapping 'auto' maps with PCP on a gateway that speaks it, and deletes at stop", async () => {
    const { events } = await okInHome<{ events: KeepEvent[] }>(lab, {
      op: 'keep',
      method: 'auto',
      req: {
        protocol: 'tcp',
        internalAddress: lab.homeIp,
        internalPort: 9300,
        externalPort: 19300,
        leaseSec: 600,
        description: 'auto',
      },
      until: { changes: 1 },
    });
    expect(events).toEqual([
      { t: 'change', state: { ok: true, method: 'pcp', externalAddress: lab.wanIp, externalPort: 19300 } },
    ]);
    expect(await lab.upnpMappings()).toEqual([]);
  });
});
