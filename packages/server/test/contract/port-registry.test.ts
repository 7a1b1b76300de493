// Guard (issue 13): no listener outside the port registry. A server runs a port forwarding rule
// (TCP and UDP) and a web service rule; every socket this process listens on after the start
// (read from /proc: the sockets behind our own file descriptors, LISTEN for TCP, bound for UDP)
// must be a port the registry knows, with its owner — the admin port included.
import { promises as fs } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Pf, startPf } from '../portforward-helpers.js';

interface Bound {
  proto: 'tcp' | 'udp';
  port: number;
}

/** Ports bound by sockets of this process (vitest runs each test file in its own process). */
async function boundPorts(): Promise<Bound[]> {
  const inodes = new Set<string>();
  for (const fd of await fs.readdir('/proc/self/fd')) {
    const link = await fs.readlink(`/proc/self/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (m) inodes.add(m[1]);
  }
  const out: Bound[] = [];
  for (const [file, proto] of [
    ['tcp', 'tcp'],
    ['tcp6', 'tcp'],
    ['udp', 'udp'],
    ['udp6', 'udp'],
  ] as const) {
    const text = await fs.readFile(`/proc/self/net/${file}`, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9])) continue;
      const state = f[3];
      const remote = f[2];
      // TCP: listening sockets; UDP: bound and unconnected (a relay's own client sockets are connected).
      if (proto === 'tcp' ? state !== '0A' : !/^0+:0000$/.test(remote)) continue;
      out.push({ proto, port: Number.parseInt(f[1].split(':')[1], 16) });
    }
  }
  return out;
}

let pf: Pf;
let before: Bound[];
beforeAll(async () => {
  before = await boundPorts();
  pf = await startPf();
});
afterAll(async () => pf?.close());

describe('contract: every listener is in the port registry', () => {
  it('the admin port, port forwarding, web service and WebDAV listeners are all registered with their owner', async () => {
    const pfPort = await freePort();
    const rpPort = await freePort();
    const rule = await pf.call('POST', '/api/portforward/rules', {
      name: 'guard',
      forwardTypes: ['tcp4', 'udp4'],
      listenAddress: '127.0.0.1',
      listenPorts: String(pfPort),
      targetAddresses: ['127.0.0.1'],
      targetPorts: '9',
    });
    expect(rule.body.ret, JSON.stringify(rule.body)).toBe(0);
    const web = await pf.call('POST', '/api/reverseproxy/rules', {
      name: 'guard',
      address: '127.0.0.1',
      port: rpPort,
      defaultRule: { serviceType: 'text', text: 'ok' },
    });
    expect(web.body.ret, JSON.stringify(web.body)).toBe(0);
    const davPort = await freePort();
    const dav = await pf.call('PUT', '/api/webdav/settings', { enabled: true, address: '127.0.0.1', port: davPort });
    expect(dav.body.status?.state, JSON.stringify(dav.body)).toBe('running');

    const claims = pf.s.server.core.ports.list();
    const known = (b: Bound) => claims.some((c) => c.proto === b.proto && c.port === b.port);
    const opened = (await boundPorts()).filter((b) => !before.some((x) => x.proto === b.proto && x.port === b.port));
    // The test's own peers are not listeners of the program.
    expect(opened).toEqual(expect.arrayContaining([{ proto: 'tcp', port: pf.s.server.port }]));
    expect(opened).toEqual(
      expect.arrayContaining([
        { proto: 'tcp', port: pfPort },
        { proto: 'udp', port: pfPort },
      ]),
    );
    expect(opened).toEqual(expect.arrayContaining([{ proto: 'tcp', port: rpPort }]));
    expect(opened).toEqual(expect.arrayContaining([{ proto: 'tcp', port: davPort }]));
    expect(opened.filter((b) => !known(b))).toEqual([]);
    const owners = Object.fromEntries(claims.map((c) => [`${c.proto}/${c.port}`, c.owner.module]));
    expect(owners).toMatchObject({
      [`tcp/${pf.s.server.port}`]: 'admin',
      [`tcp/${pfPort}`]: 'portforward',
      [`udp/${pfPort}`]: 'portforward',
      [`tcp/${rpPort}`]: 'reverseproxy',
      [`tcp/${davPort}`]: 'webdav',
    });
  });
});
