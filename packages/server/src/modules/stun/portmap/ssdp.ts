// SSDP search (UPnP Device Architecture §1.3) for internet gateway devices: M-SEARCH to
// 239.255.255.250:1900 with TTL 2 from a chosen local address (the rule's channel), and, when the
// user names the gateway, also unicast to it (UDA 1.1 allows unicast searches on port 1900).
// Answers are untrusted: only the first bytes are read, the LOCATION must be an http URL, and
// their number is capped.
import dgram from 'node:dgram';
import net from 'node:net';

export const IGD_DEVICE_TYPES = [
  'urn:schemas-upnp-org:device:InternetGatewayDevice:1',
  'urn:schemas-upnp-org:device:InternetGatewayDevice:2',
] as const;

const SSDP_GROUP = '239.255.255.250';
const SSDP_PORT = 1900;
const MAX_HEAD = 4096;
const MAX_ANSWERS = 32;

export interface SsdpAnswer {
  /** The description URL (http only). */
  location: string;
  st: string;
  usn: string;
  server: string;
  /** Who answered. */
  address: string;
}

export interface SsdpSearchOptions {
  /** Source address of the search (the interface it goes out of); default: the kernel's choice. */
  localAddress?: string;
  /** How long answers are collected (default 2000 ms; below 1500 ms a device's random answer delay may miss it). */
  timeoutMs?: number;
  /** Only answers from this IPv4 address count; the search is also sent to it directly. */
  target?: string;
  /** Resolve at the first answer that counts instead of waiting for the time-out. */
  first?: boolean;
  signal?: AbortSignal;
}

/** The M-SEARCH for one search target; MX (the devices' answer spread) in whole seconds. */
export function mSearch(st: string, mxSec: number): Buffer {
  return Buffer.from(
    `M-SEARCH * HTTP/1.1\r\nHOST: ${SSDP_GROUP}:${SSDP_PORT}\r\nMAN: "ssdp:discover"\r\nMX: ${mxSec}\r\nST: ${st}\r\n\r\n`,
    'latin1',
  );
}

/** An answer to our search (HTTP/1.1 200 with an http LOCATION and an IGD search target), else undefined. */
export function parseSsdpAnswer(msg: Buffer, address: string): SsdpAnswer | undefined {
  const text = msg.subarray(0, MAX_HEAD).toString('latin1');
  const lines = text.split('\r\n');
  if (!/^HTTP\/1\.[01] 200\b/.test(lines[0] ?? '')) return undefined;
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const location = headers.get('location') ?? '';
  const st = headers.get('st') ?? '';
  if (!(IGD_DEVICE_TYPES as readonly string[]).includes(st)) return undefined;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || url.username || url.password) return undefined;
  return { location: url.href, st, usn: headers.get('usn') ?? '', server: headers.get('server') ?? '', address };
}

/** Searches for IGDs; resolves with the distinct answers (by LOCATION) seen before the time-out. */
export function ssdpSearch(opts: SsdpSearchOptions = {}): Promise<SsdpAnswer[]> {
  const timeoutMs = opts.timeoutMs ?? 2000;
  // Devices wait a random time of up to MX seconds before they answer (miniupnpd does): MX stays
  // half a second or more below the time-out so that a late answer is still collected.
  const mx = Math.min(5, Math.max(1, Math.floor((timeoutMs - 500) / 1000)));
  return new Promise<SsdpAnswer[]>((resolve, reject) => {
    if (opts.target !== undefined && !net.isIPv4(opts.target)) {
      reject(new Error(`not an IPv4 address: ${opts.target}`));
      return;
    }
    const found = new Map<string, SsdpAnswer>();
    const socket = dgram.createSocket('udp4');
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      opts.signal?.removeEventListener('abort', onAbort);
      socket.close();
      if (err) reject(err);
      else resolve([...found.values()]);
    };
    const onAbort = () => finish(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    if (opts.signal?.aborted) {
      onAbort();
      return;
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (err) => finish(err));
    socket.on('message', (msg, rinfo) => {
      if (opts.target !== undefined && rinfo.address !== opts.target) return;
      const answer = parseSsdpAnswer(msg, rinfo.address);
      if (!answer || found.has(answer.location) || found.size >= MAX_ANSWERS) return;
      found.set(answer.location, answer);
      if (opts.first) finish();
    });
    const search = () => {
      if (done) return;
      for (const st of IGD_DEVICE_TYPES) {
        const packet = mSearch(st, mx);
        // A failed send (no route for multicast) is no reason to stop: the other may work.
        socket.send(packet, SSDP_PORT, SSDP_GROUP, () => {});
        if (opts.target) socket.send(packet, SSDP_PORT, opts.target, () => {});
      }
    };
    socket.bind({ address: opts.localAddress ?? '0.0.0.0', port: 0 }, () => {
      if (done) return;
      try {
        socket.setMulticastTTL(2);
        if (opts.localAddress && opts.localAddress !== '0.0.0.0') socket.setMulticastInterface(opts.localAddress);
      } catch (err) {
        finish(err as Error);
        return;
      }
      search();
      // UDP may lose the first search; one repeat half-way costs little.
      timers.push(setTimeout(search, Math.floor(timeoutMs / 2)));
      timers.push(setTimeout(() => finish(), timeoutMs));
    });
  });
}
