// The Wake-on-LAN lab: a network namespace of the test's own joined to this one by a veth pair
// (198.18.<n>.0/24, RFC 2544 benchmarking space), and a peer process inside it that stands for
// the device: it listens for magic packets on the veth's broadcast address (UDP 9 and 7) and
// accepts TCP on chosen ports (the online check). Every packet the console sends in these tests
// goes to that broadcast address, on that link only — never to 255.255.255.255, never outside.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { waitFor } from './wait.js';

export interface Packet {
  port: number;
  /** The payload, hex. */
  hex: string;
  from: string;
}

export interface WolLab {
  ns: string;
  /** The console's end (an interface of this machine) and its address. */
  hostIf: string;
  hostIp: string;
  /** The device's end: its address and MAC. */
  peerIp: string;
  peerMac: string;
  broadcast: string;
  packets: Packet[];
  /** Takes the device's link down or up (the console's end loses or gets its carrier). */
  link(up: boolean): void;
  close(): Promise<void>;
}

// Runs inside the namespace: argv = broadcast, own address, then TCP ports; prints one JSON line
// per datagram and "ready" once every socket is bound.
const PEER = `
const dgram = require('node:dgram'), net = require('node:net');
const [bcast, ip, ...tcp] = process.argv.slice(1);
let pending = 2 + tcp.length;
const ready = () => { if (--pending === 0) console.log('ready'); };
for (const port of [9, 7]) {
  const s = dgram.createSocket('udp4');
  s.on('message', (m, r) => console.log(JSON.stringify({ port, hex: m.toString('hex'), from: r.address })));
  s.bind(port, bcast, ready);
}
for (const port of tcp) net.createServer((c) => c.end()).listen(Number(port), ip, ready);
`;

/** `tag`: a few letters unique to the test file; `net`: its own 198.18.<n>.0/`prefix` (the first block of the /24). */
export async function startWolLab(
  tag: string,
  net: `198.18.${number}`,
  tcpPorts: number[],
  prefix = 24,
): Promise<WolLab> {
  const id = process.pid % 100000;
  const ns = `${tag}-${process.pid}`;
  const hostIf = `${tag}${id}a`;
  const peerIf = `${tag}${id}b`;
  const hostIp = `${net}.1`;
  const peerIp = `${net}.2`;
  const broadcast = `${net}.${2 ** (32 - prefix) - 1}`;
  const peerMac = '02:00:5e:10:00:02';
  const ip = (...args: string[]) => execFileSync('ip', args);
  ip('netns', 'add', ns);
  ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', peerIf, 'netns', ns);
  ip('addr', 'add', `${hostIp}/${prefix}`, 'brd', '+', 'dev', hostIf);
  ip('link', 'set', hostIf, 'up');
  ip('-n', ns, 'link', 'set', peerIf, 'address', peerMac);
  ip('-n', ns, 'addr', 'add', `${peerIp}/${prefix}`, 'brd', '+', 'dev', peerIf);
  ip('-n', ns, 'link', 'set', peerIf, 'up');
  ip('-n', ns, 'link', 'set', 'lo', 'up');
  const packets: Packet[] = [];
  let ready = false;
  const child: ChildProcess = spawn(
    'ip',
    ['netns', 'exec', ns, process.execPath, '-e', PEER, broadcast, peerIp, ...tcpPorts.map(String)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (!child.stdout) throw new Error('the peer has no stdout');
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') ready = true;
    else packets.push(JSON.parse(line) as Packet);
  });
  await waitFor(() => ready, { timeout: 10_000, what: 'the peer in the namespace listening' });
  return {
    ns,
    hostIf,
    hostIp,
    peerIp,
    peerMac,
    broadcast,
    packets,
    link: (up) => ip('-n', ns, 'link', 'set', peerIf, up ? 'up' : 'down'),
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill();
      if (child.exitCode === null) await exited;
      ip('link', 'del', hostIf);
      ip('netns', 'del', ns);
    },
  };
}

/** The magic packet a device with `mac` (aa:bb:…) and optional SecureOn bytes must receive, hex. */
export function expectedMagic(mac: string, secureOn = ''): string {
  const m = mac.replace(/:/g, '');
  return 'ff'.repeat(6) + m.repeat(16) + secureOn.replace(/:/g, '');
}
