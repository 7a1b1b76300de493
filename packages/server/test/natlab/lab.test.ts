// The NAT lab proves itself: for each NAT mode, the mapping and filtering seen from the public
// namespace are what the mode promises (RFC 4787), for UDP and TCP; a redial changes the WAN
// address, shiftPorts the mapped port; coturn answers STUN on both addresses; the management veth
// reaches home; two labs live side by side and destroy leaves nothing behind.
//
// "Not let in" is learned from the router's answer, not from waiting: a datagram nobody maps is
// delivered to the router itself, whose closed port answers ICMP port-unreachable (the probe's
// connected socket gets ECONNREFUSED), and a TCP SYN gets a RST (ECONNREFUSED).
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, endpoint, startAgent } from './agentClient.js';
import { createLab, type Lab, NAT_MODES, type NatMode, runInNs } from './lab.js';

let lab: Lab;
let home: Agent;
let pub: Agent;

beforeAll(async () => {
  lab = await createLab();
  [home, pub] = await Promise.all([startAgent(lab, lab.home), startAgent(lab, lab.pub)]);
  const [a, b] = lab.publicIps;
  await Promise.all([
    pub.udpReflect(a, 7000),
    pub.udpReflect(b, 7000),
    pub.tcpReflect(a, 7000),
    pub.tcpReflect(b, 7000),
  ]);
});
afterAll(async () => {
  await lab?.destroy();
});

const seen = (text: string) => endpoint((JSON.parse(text) as { seen: string }).seen);

/** Which unsolicited senders each mode lets in, after home sent to publicIps[0]:7000 only. */
const FILTERING: Record<NatMode, { sameAddressOtherPort: boolean; otherAddress: boolean }> = {
  fullCone: { sameAddressOtherPort: true, otherAddress: true },
  restrictedCone: { sameAddressOtherPort: true, otherAddress: false },
  portRestrictedCone: { sameAddressOtherPort: false, otherAddress: false },
  symmetric: { sameAddressOtherPort: false, otherAddress: false },
};

describe('NAT modes, seen from the public namespace', () => {
  NAT_MODES.forEach((mode, i) => {
    it(`${mode}: mapping and filtering, UDP and TCP`, async () => {
      await lab.setNat(mode);
      const [a, b] = lab.publicIps;
      const reflA = { address: a, port: 7000 };
      const reflB = { address: b, port: 7000 };
      const base = 41000 + i * 10;

      // Mapping: one inside endpoint talks to two outside addresses.
      const m = await home.udpOpen(base);
      const toA = seen((await home.udpQuery(m.sock, reflA)).text);
      const toB = seen((await home.udpQuery(m.sock, reflB)).text);
      expect(toA.address).toBe(lab.wanIp);
      if (mode === 'symmetric') {
        expect(toB.port).not.toBe(toA.port);
      } else {
        expect(toA.port).toBe(base); // masquerade keeps a free port
        expect(toB).toEqual(toA);
      }

      // Filtering: another inside endpoint talks to reflA only; then strangers knock on its port.
      const f = await home.udpOpen(base + 1);
      const mapped = seen((await home.udpQuery(f.sock, reflA)).text);
      const fromSameAddress = await pub.udpProbe({ address: a, port: 7100 + i }, mapped, `probe-a-${mode}`);
      const fromOtherAddress = await pub.udpProbe({ address: b, port: 7100 + i }, mapped, `probe-b-${mode}`);
      const want = FILTERING[mode];
      expect(fromSameAddress).toEqual(
        want.sameAddressOtherPort
          ? { reply: { from: `${lab.wanIp}:${mapped.port}`, text: `pong probe-a-${mode}` } }
          : { refused: true },
      );
      expect(fromOtherAddress).toEqual(
        want.otherAddress
          ? { reply: { from: `${lab.wanIp}:${mapped.port}`, text: `pong probe-b-${mode}` } }
          : { refused: true },
      );
      // The inside saw exactly the probes that got in.
      const got = (await home.received(f.sock)).map((d) => d.text).filter((t) => t.startsWith('probe'));
      expect(got).toEqual([
        ...(want.sameAddressOtherPort ? [`probe-a-${mode}`] : []),
        ...(want.otherAddress ? [`probe-b-${mode}`] : []),
      ]);

      // TCP: the same inside port towards both outside addresses, then a listener on it.
      const tport = base + 2;
      const t1 = await home.tcpQuery(reflA, { address: '0.0.0.0', port: tport });
      const t2 = await home.tcpQuery(reflB, { address: '0.0.0.0', port: tport });
      if (!('text' in t1) || !('text' in t2))
        throw new Error(`TCP to the reflectors failed: ${JSON.stringify([t1, t2])}`);
      const tA = seen(t1.text);
      const tB = seen(t2.text);
      expect(tA.address).toBe(lab.wanIp);
      if (mode === 'symmetric') expect(tB.port).not.toBe(tA.port);
      else expect(tB).toEqual(tA);
      await home.tcpServe(tport, `home ${mode}`);
      const inA = await pub.tcpQuery(tA, { address: a, port: 0 });
      const inB = await pub.tcpQuery(tA, { address: b, port: 0 });
      // reflB was contacted too, so for TCP both outside addresses are "known" to a restricted cone.
      const tcpIn = mode === 'fullCone' || mode === 'restrictedCone';
      expect('text' in inA ? inA.text : inA.error).toBe(tcpIn ? `home ${mode}` : 'ECONNREFUSED');
      expect('text' in inB ? inB.text : inB.error).toBe(tcpIn ? `home ${mode}` : 'ECONNREFUSED');
    });
  });

  it('restrictedCone lets TCP in only from addresses the inside has sent to', async () => {
    await lab.setNat('restrictedCone');
    const [a, b] = lab.publicIps;
    const out = await home.tcpQuery({ address: a, port: 7000 }, { address: '0.0.0.0', port: 41100 });
    if (!('text' in out)) throw new Error(`TCP to the reflector failed: ${out.error}`);
    const mapped = seen(out.text);
    await home.tcpServe(41100, 'home');
    const fromA = await pub.tcpQuery(mapped, { address: a, port: 0 });
    const fromB = await pub.tcpQuery(mapped, { address: b, port: 0 });
    expect('text' in fromA && fromA.text).toBe('home');
    expect(fromB).toEqual({ error: 'ECONNREFUSED' });
  });
});

describe('events on the router', () => {
  it('redial gives the router a new WAN address that the outside sees', async () => {
    await lab.setNat('portRestrictedCone');
    const s = await home.udpOpen(41200);
    const refl = { address: lab.publicIps[0], port: 7000 };
    const before = lab.wanIp;
    expect(seen((await home.udpQuery(s.sock, refl)).text).address).toBe(before);
    const after = await lab.redial();
    expect(after).not.toBe(before);
    expect(lab.wanIp).toBe(after);
    expect(seen((await home.udpQuery(s.sock, refl)).text)).toEqual({ address: after, port: 41200 });
  });

  it('shiftPorts moves the mapped port into another range', async () => {
    const s = await home.udpOpen(41201);
    const refl = { address: lab.publicIps[0], port: 7000 };
    expect(seen((await home.udpQuery(s.sock, refl)).text).port).toBe(41201);
    await lab.shiftPorts();
    const first = seen((await home.udpQuery(s.sock, refl)).text).port;
    expect(first).toBeGreaterThanOrEqual(61000);
    expect(first).toBeLessThanOrEqual(61999);
    await lab.shiftPorts();
    const second = seen((await home.udpQuery(s.sock, refl)).text).port;
    expect(second).toBeGreaterThanOrEqual(62000);
    expect(second).toBeLessThanOrEqual(62999);
  });

  it('flushConntrack forgets a full-cone mapping', async () => {
    await lab.setNat('fullCone');
    const s = await home.udpOpen(41202);
    const mapped = seen((await home.udpQuery(s.sock, { address: lab.publicIps[0], port: 7000 })).text);
    const stranger = { address: lab.publicIps[1], port: 7300 };
    expect(await pub.udpProbe(stranger, mapped, 'probe-1')).toMatchObject({ reply: { text: 'pong probe-1' } });
    await lab.flushConntrack();
    expect(await pub.udpProbe(stranger, mapped, 'probe-2')).toEqual({ refused: true });
  });
});

describe('services', () => {
  it('coturn answers STUN on both public addresses with RFC 5780 OTHER-ADDRESS', async () => {
    await lab.setNat('portRestrictedCone');
    await lab.startCoturn();
    const s = await home.udpOpen(41300);
    for (const address of lab.publicIps) {
      expect(await home.stun(s.sock, { address, port: 3478 })).toEqual({ mapped: `${lab.wanIp}:41300`, other: true });
    }
  });

  it('the management veth reaches a server in home from the root namespace', async () => {
    const srv = await home.tcpServe(41400, 'console', lab.mgmt.homeIp);
    const text = await new Promise<string>((resolve, reject) => {
      let got = '';
      const c = net.connect(srv.port, lab.mgmt.homeIp);
      c.setEncoding('utf8').on('data', (d: string) => {
        got += d;
      });
      c.on('end', () => resolve(got));
      c.on('error', reject);
    });
    expect(text).toBe('console');
  });

  it('runInNs runs a TypeScript file inside a namespace and parses its JSON', async () => {
    const file = new URL('./whereami.ts', import.meta.url).pathname;
    const out = await runInNs<{ addresses: string[]; args: string[] }>(lab.home, file, ['x', 'y']);
    expect(out.args).toEqual(['x', 'y']);
    expect(out.addresses).toEqual(expect.arrayContaining([lab.homeIp, '192.168.77.3', lab.mgmt.homeIp]));
  });
});

describe('lifecycle', () => {
  const namespaces = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  const rootAddresses = () => execFileSync('ip', ['-o', '-4', 'addr', 'show'], { encoding: 'utf8' });

  it('a second lab lives beside the first, and destroy leaves no namespace, veth or process', async () => {
    const other = await createLab({ nat: 'symmetric' });
    try {
      expect(other.home).not.toBe(lab.home);
      expect(other.mgmt.hostIp).not.toBe(lab.mgmt.hostIp);
      expect(rootAddresses()).toContain(` ${other.mgmt.hostIp}/30 `);
      const agent = await startAgent(other, other.pub);
      await agent.udpReflect(other.publicIps[0], 7000);
      const pids = execFileSync('ip', ['netns', 'pids', other.pub], { encoding: 'utf8' }).split('\n').filter(Boolean);
      expect(pids.length).toBeGreaterThan(0);
      await other.destroy();
      await other.destroy(); // idempotent
      const left = namespaces();
      for (const ns of [other.home, other.router, other.pub]) expect(left).not.toContain(ns);
      expect(rootAddresses()).not.toContain(` ${other.mgmt.hostIp}/30 `);
      for (const pid of pids) expect(() => process.kill(Number(pid), 0)).toThrow();
      // The first lab is untouched.
      expect(namespaces()).toContain(lab.home);
    } finally {
      await other.destroy();
    }
  });

  it('without the right to create namespaces, createLab fails with a message saying what is missing', async () => {
    const script = new URL('./createLabProbe.ts', import.meta.url).pathname;
    const out = await runAsNobody(script);
    expect(out).toMatch(/NAT lab: cannot create a network namespace .*needs root/);
  });
});

/** Runs a TypeScript file as the unprivileged user `nobody`; its stdout. */
async function runAsNobody(file: string): Promise<string> {
  const { nodeCommand } = await import('./lab.js');
  const [node, args] = nodeCommand(file);
  return execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', node, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: '/tmp' },
  });
}
