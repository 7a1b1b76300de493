// The real client behind our own web service. When a web service rule publishes the console, the
// admin sees every request come from 127.0.0.1 (LAN, one throttle bucket). So the web service
// adds one header to requests it sends to the console's own admin port on a local address:
//
//   x-lucky-relay: <secret> <client ip> <Host the client sent>
//
// The secret is 32 random bytes made per worker process at start (helper processes get it over
// IPC, helperProtocol.ts), never written anywhere, never sent to any other back end. The web
// service strips the header from every incoming request, and the admin believes it only from a
// local peer with the right secret (compared in constant time); otherwise it is ignored.
//
// Why a header and not a registry keyed by the back-end socket's port: the helper processes open
// their back-end sockets in another process, and keep-alive pools carry many clients' requests
// on one socket; a per-request header needs no cross-process bookkeeping and no race.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import { isIp } from '@lucky/shared';
import { isLoopbackAddress } from '../net/lan.js';
import { normalizeIp } from './clientIp.js';

export const RELAY_HEADER = 'x-lucky-relay';

export interface AdminRelay {
  /** The port the admin listens on. */
  port: number;
  /** base64url of 32 random bytes. */
  secret: string;
}

let relay: AdminRelay | undefined;
let secretBytes: Buffer | undefined;
/** `:<port>` a target's host:port ends with when it may be the admin (fast check per request). */
let portSuffix = '';

/** Sets (worker: at listen, with a fresh secret; helper: the worker's) or clears the relay. */
export function setAdminRelay(r: AdminRelay | { port: number } | undefined): AdminRelay | undefined {
  if (!r) {
    relay = undefined;
    secretBytes = undefined;
    portSuffix = '';
    return undefined;
  }
  const secret = 'secret' in r ? r.secret : randomBytes(32).toString('base64url');
  relay = { port: r.port, secret };
  secretBytes = Buffer.from(secret);
  portSuffix = `:${r.port}`;
  return relay;
}

export function adminRelay(): AdminRelay | undefined {
  return relay;
}

let ownCache: { at: number; set: Set<string> } | undefined;
/** This machine's interface addresses (re-read at most every 10 s: addresses come and go). */
function ownAddresses(): Set<string> {
  const now = Date.now();
  if (ownCache && now - ownCache.at < 10_000) return ownCache.set;
  const set = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) set.add(normalizeIp(a.address.split('%')[0]).toLowerCase());
  ownCache = { at: now, set };
  return set;
}

/** Loopback, unspecified (0.0.0.0, ::) or one of this machine's addresses. */
export function isLocalAddress(ip: string): boolean {
  const a = normalizeIp(ip).toLowerCase();
  if (!isIp(a)) return false;
  return isLoopbackAddress(a) || a === '0.0.0.0' || a === '::' || ownAddresses().has(a);
}

const memo = new WeakMap<object, boolean>();

/**
 * True when a back end at `target` (`origin` as in URL.origin, `hostPort` as in URL.host) is the
 * console's own admin listener: its port, and `localhost` or a local address. A name that
 * resolves here (nas.lan) is not recognised: publish the console with 127.0.0.1 as the target.
 * Costs one string compare per request unless the port matches (then a cached answer).
 */
export function isAdminTarget(target: { origin: string; hostPort: string }): boolean {
  if (!relay) return false;
  const byPort = target.hostPort.endsWith(portSuffix);
  if (!byPort && relay.port !== 80 && relay.port !== 443) return false;
  const known = memo.get(target);
  if (known !== undefined) return known;
  let yes = false;
  try {
    const u = new URL(target.origin);
    const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    yes = port === relay.port && (host.toLowerCase() === 'localhost' || isLocalAddress(host));
  } catch {
    yes = false;
  }
  memo.set(target, yes);
  return yes;
}

/** The header value carrying `clientIp` and the client's Host (only call when `isAdminTarget`). */
export function relayValue(clientIp: string, host: string): string {
  return `${relay?.secret ?? ''} ${clientIp} ${host}`;
}

export interface RelayedClient {
  ip: string;
  /** The Host header the client sent to the web service ('' when none). */
  host: string;
}

/**
 * The client a relayed request names, when the peer is local and the secret is ours; undefined
 * for anything else (a forged or stale header is ignored, never trusted).
 */
export function relayedClient(
  value: string | string[] | undefined,
  peer: string | undefined,
): RelayedClient | undefined {
  if (!secretBytes || typeof value !== 'string' || !peer || !isLocalAddress(peer)) return undefined;
  const first = value.indexOf(' ');
  if (first < 0) return undefined;
  const given = Buffer.from(value.slice(0, first));
  if (given.length !== secretBytes.length || !timingSafeEqual(given, secretBytes)) return undefined;
  const second = value.indexOf(' ', first + 1);
  const ip = normalizeIp(value.slice(first + 1, second < 0 ? undefined : second));
  if (!isIp(ip)) return undefined;
  return { ip, host: second < 0 ? '' : value.slice(second + 1).trim() };
}
