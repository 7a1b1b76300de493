// The LAN scan that proposes devices: the neighbour table plus a TCP probe of a few ports of the
// interface's own subnet only (at most WOL_LIMITS.scanHosts hosts of it, never beyond), with a
// cap on connections at a time and on the whole scan's time; names by reverse DNS if it is quick.
import { Resolver } from 'node:dns/promises';
import { WOL_LIMITS, type WolInterfaceView, type WolScanCandidate } from '@lucky/shared';
import { neighbours, tcpProbe } from './checks.js';
import { scanHosts } from './netinfo.js';

/** Connections open at once, and how long one may take. */
const SCAN_CONCURRENCY = 64;
const CONNECT_MS = 700;
/** Reverse lookups: one try, this long. */
const PTR_MS = 1000;

export async function scanSubnet(
  i: WolInterfaceView,
  knownMacs: Set<string>,
  names: boolean,
  signal?: AbortSignal,
): Promise<{ subnet: string; candidates: WolScanCandidate[]; ms: number }> {
  const started = Date.now();
  const limit = AbortSignal.timeout(WOL_LIMITS.scanSec.max * 1000);
  const stop = signal ? AbortSignal.any([signal, limit]) : limit;
  const { range, hosts } = scanHosts(i, WOL_LIMITS.scanHosts.max);
  const inRange = new Set(hosts);
  const open = new Map<string, number[]>();
  const jobs = hosts.flatMap((ip) => WOL_LIMITS.scanPorts.map((port) => ({ ip, port })));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !stop.aborted) {
      const { ip, port } = jobs[next++];
      if (await tcpProbe(ip, port, CONNECT_MS, stop)) open.set(ip, [...(open.get(ip) ?? []), port]);
    }
  };
  await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, worker));
  // Read after the probes: the connects have filled the table with the hosts that answered ARP.
  const table = (await neighbours()).filter((n) => n.dev === i.name && inRange.has(n.ip) && n.state !== 'FAILED');
  const ips = new Set([...open.keys(), ...table.map((n) => n.ip)]);
  const resolver = new Resolver({ timeout: PTR_MS, tries: 1 });
  const candidates = await Promise.all(
    [...ips].map(async (ip): Promise<WolScanCandidate> => {
      const mac = table.find((n) => n.ip === ip)?.mac ?? '';
      const hostname =
        !names || stop.aborted
          ? ''
          : await resolver.reverse(ip).then(
              (n) => n[0] ?? '',
              () => '',
            );
      return { ip, mac, hostname, openPorts: (open.get(ip) ?? []).sort((a, b) => a - b), known: knownMacs.has(mac) };
    }),
  );
  resolver.cancel();
  candidates.sort((a, b) => ipOrder(a.ip) - ipOrder(b.ip));
  return { subnet: range, candidates, ms: Date.now() - started };
}

const ipOrder = (ip: string) => ip.split('.').reduce((n, p) => n * 256 + Number(p), 0);
