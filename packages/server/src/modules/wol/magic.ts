// The magic packet and its sending. A packet is 6 bytes of 0xFF, the target MAC 16 times and, for
// NICs with a SecureOn password, its 6 bytes; it goes by UDP to a broadcast address with
// SO_BROADCAST, from the chosen interface's own address so it leaves on that LAN.
import dgram from 'node:dgram';
import { normalizeMac } from '@lucky/shared';
import { ipv4Interface } from './netinfo.js';

/** Six bytes from `aa:bb:cc:dd:ee:ff` (any notation normalizeMac takes). */
export function macBytes(mac: string): Buffer {
  const n = normalizeMac(mac);
  if (!n) throw new Error(`not a MAC address: ${mac}`);
  return Buffer.from(n.replace(/:/g, ''), 'hex');
}

/** 6×0xFF, 16×MAC, then the SecureOn password when there is one (102 or 108 bytes). */
export function magicPacket(mac: string, secureOn = ''): Buffer {
  const parts = [Buffer.alloc(6, 0xff), ...Array.from({ length: 16 }, () => macBytes(mac))];
  if (secureOn) parts.push(macBytes(secureOn));
  return Buffer.concat(parts);
}

export interface WakeTarget {
  macs: string[];
  broadcast: string;
  /** '' = the broadcast address as given, from any address. */
  interface: string;
  port: number;
  repeat: number;
  intervalMs: number;
  secureOn: string;
}

export class WakeError extends Error {
  constructor(
    readonly code: 'sendFailed' | 'interfaceMissing',
    readonly params: Record<string, unknown>,
  ) {
    super(code);
  }
}

/** `<broadcast>:<port>` with the interface it leaves by, for logs and answers. */
export function describeTarget(t: Pick<WakeTarget, 'broadcast' | 'interface' | 'port'>): string {
  if (!t.interface) return `${t.broadcast}:${t.port}`;
  const i = ipv4Interface(t.interface);
  return `${i?.broadcast ?? t.broadcast}:${t.port} (${t.interface})`;
}

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Sends every MAC's packet `repeat` times, `intervalMs` apart; answers how many went out and
 * where. With an interface the packet goes to that interface's broadcast address from its own
 * address; the given broadcast address is used only without one.
 */
export async function sendMagic(t: WakeTarget, signal?: AbortSignal): Promise<{ sent: number; target: string }> {
  let address = t.broadcast;
  let from: string | undefined;
  if (t.interface) {
    const i = ipv4Interface(t.interface);
    if (!i) throw new WakeError('interfaceMissing', { interface: t.interface });
    address = i.broadcast;
    from = i.address;
  }
  const target = describeTarget(t);
  const fail = (err: unknown) => new WakeError('sendFailed', { target, detail: (err as Error).message });
  let packets: Buffer[];
  try {
    packets = t.macs.map((m) => magicPacket(m, t.secureOn));
  } catch (err) {
    throw fail(err);
  }
  const socket = dgram.createSocket('udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind({ address: from, port: 0, exclusive: true }, () => {
        socket.off('error', reject);
        resolve();
      });
    }).catch((err) => {
      throw fail(err);
    });
    socket.setBroadcast(true);
    let sent = 0;
    for (let round = 0; round < t.repeat; round++) {
      if (round > 0) await pause(t.intervalMs, signal);
      if (signal?.aborted) break;
      for (const p of packets) {
        await new Promise<void>((resolve, reject) =>
          socket.send(p, t.port, address, (err) => (err ? reject(fail(err)) : resolve())),
        );
        sent++;
      }
    }
    return { sent, target };
  } finally {
    socket.close();
  }
}
