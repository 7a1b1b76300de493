// The LAN scan: against a device in a network namespace on a /28 (wol-lab.ts) — found by its open
// ports with its MAC from the neighbour table, marked known once a device has that MAC, the probed
// range the interface's own subnet — and the range rule itself for larger subnets (never beyond
// the subnet, at most 256 hosts). Reverse DNS is off here: no query leaves the machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanHosts } from '../src/modules/wol/netinfo.js';
import { startTestServer, type TestServer } from './harness.js';
import { startWolLab, type WolLab } from './wol-lab.js';

let lab: WolLab;
let s: TestServer;
let token: string;

beforeAll(async () => {
  lab = await startWolLab('lkwsc', '198.18.41', [22, 80], 28);
  s = await startTestServer();
  token = await s.login();
}, 30_000);

afterAll(async () => {
  await s?.close();
  await lab?.close();
});

describe('Wake-on-LAN scan', () => {
  it('finds the device on the interface’s own subnet with its open ports and MAC', async () => {
    const ifs = (await s.call('GET', '/api/wol/interfaces', { token })).body.list;
    expect(ifs).toContainEqual(
      expect.objectContaining({
        name: lab.hostIf,
        address: lab.hostIp,
        cidr: '198.18.41.0/28',
        broadcast: lab.broadcast,
      }),
    );
    const first = await s.call('POST', '/api/wol/scan', { token, body: { interface: lab.hostIf, names: false } });
    expect(first.body.ret, JSON.stringify(first.body)).toBe(0);
    expect(first.body).toMatchObject({ interface: lab.hostIf, subnet: '198.18.41.0/28' });
    expect(first.body.candidates).toEqual([
      { ip: lab.peerIp, mac: lab.peerMac, hostname: '', openPorts: [22, 80], known: false },
    ]);
    const added = await s.call('POST', '/api/wol/devices', {
      token,
      body: { name: 'found', macs: [lab.peerMac], broadcast: lab.broadcast },
    });
    expect(added.body.ret, JSON.stringify(added.body)).toBe(0);
    const again = await s.call('POST', '/api/wol/scan', { token, body: { interface: lab.hostIf, names: false } });
    expect(again.body.candidates).toMatchObject([{ ip: lab.peerIp, known: true }]);
    const bad = await s.call('POST', '/api/wol/scan', { token, body: { interface: 'nosuch0' } });
    expect(bad.body).toMatchObject({ code: 'scanInterfaceInvalid', field: 'interface' });
  });

  it('probes at most 256 hosts, inside the subnet, without its own, network and broadcast addresses', () => {
    const wide = { name: 'x', mac: '', address: '10.1.2.3', cidr: '10.1.0.0/16', broadcast: '10.1.255.255' };
    const w = scanHosts(wide, 256);
    expect(w.range).toBe('10.1.2.0/24');
    expect(w.hosts).toHaveLength(255);
    expect(w.hosts).not.toContain('10.1.2.3');
    expect(w.hosts.every((h) => h.startsWith('10.1.2.'))).toBe(true);
    const edge = { name: 'x', mac: '', address: '10.1.0.1', cidr: '10.1.0.0/16', broadcast: '10.1.255.255' };
    expect(scanHosts(edge, 256).hosts).not.toContain('10.1.0.0');
    const small = { name: 'x', mac: '', address: '192.168.7.9', cidr: '192.168.7.8/29', broadcast: '192.168.7.15' };
    expect(scanHosts(small, 256)).toEqual({
      range: '192.168.7.8/29',
      hosts: ['192.168.7.10', '192.168.7.11', '192.168.7.12', '192.168.7.13', '192.168.7.14'],
    });
  });
});
