// Time limits a slow peer cannot stretch: node's own are inactivity timers (a byte a second keeps
// them from firing) or, for request heads, only run on a server that listened itself.
import type http from 'node:http';
import type net from 'node:net';
import type tls from 'node:tls';

const HANDSHAKE_TIMER = Symbol('handshakeDeadline');
type WithTimer = net.Socket & { [HANDSHAKE_TIMER]?: NodeJS.Timeout };

/** The TLS handshake on this accepted socket must be done within `ms` (from now), however the bytes trickle. */
export function armHandshakeDeadline(raw: net.Socket, ms: number): void {
  const timer = setTimeout(() => raw.destroy(), ms);
  (raw as WithTimer)[HANDSHAKE_TIMER] = timer;
  raw.once('close', () => clearTimeout(timer));
}

/**
 * Called from the TLS server's secureConnection: the handshake is done. node:tls keeps the
 * accepted socket it wraps as `_parent` (Node 20–24; the floods test would see a TLS connection
 * cut at the deadline if that changed).
 */
export function handshakeDone(socket: tls.TLSSocket): void {
  const raw = (socket as unknown as { _parent?: WithTimer })._parent;
  const timer = raw?.[HANDSHAKE_TIMER];
  if (timer) clearTimeout(timer);
}

/** How often node checks the head and request time-outs of a server's connections. */
const CHECK_EVERY_MS = 1000;
/** node:http's own default for a whole request (head and body). */
const REQUEST_MS = 300_000;

/**
 * A node:http server that is handed connections (it never listens) does not check
 * `headersTimeout` at all: node starts that check on 'listening'. Start it here, with a check
 * every second so a short time-out holds. `setHeaderTimeout` may be called again to change it.
 */
export function checkHeadTimeouts(server: http.Server, headerMs: number, requestMs = REQUEST_MS): void {
  setHeaderTimeout(server, headerMs, requestMs);
  // Read by node when the check starts (the constructor option, not in the typings as a field).
  (server as http.Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = CHECK_EVERY_MS;
  server.emit('listening');
}

/** `requestMs`: the whole request (head and body) must have arrived within it (node's requestTimeout). */
export function setHeaderTimeout(server: http.Server, headerMs: number, requestMs = REQUEST_MS): void {
  const whole = Math.max(requestMs, headerMs + 1);
  if (server.headersTimeout === headerMs && server.requestTimeout === whole) return;
  server.requestTimeout = whole;
  server.headersTimeout = headerMs;
}
