// One local TCP port shared by a listener and outgoing connections, through the native helper
// (packages/server/native/sharedport.c). STUN over TCP keeps a NAT mapping open from local port P
// with outgoing connections (STUN servers, an HTTP keep-alive server) while a listener on P gets
// what comes in through the mapping; Linux allows that only when every one of those sockets has
// SO_REUSEADDR + SO_REUSEPORT before bind(), and Node sets neither on an outgoing socket.
// The helper makes the bound socket; Node drives it from there (net.Socket / net.Server on the fd).
//
// This file imports node:* only (test/sharedport.test.ts runs a copy of it in a tree without the helper).

import { lookup } from 'node:dns/promises';
import { closeSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface SharedPortBind {
  /** A numeric IPv4 or IPv6 address; '0.0.0.0' = any IPv4, '::' = any IPv6. */
  address: string;
  port: number;
  /** SO_BINDTODEVICE: an interface name (needs CAP_NET_RAW on kernels before 5.7; else EPERM). */
  device?: string;
}

/** The helper's exports (sharedport.c). Each returns a non-blocking, close-on-exec fd or throws with an errno `code`. */
interface Native {
  bindSocket(address: string, port: number, device: string | null): number;
  bindListen(address: string, port: number, device: string | null, backlog: number): number;
}

// Where the helper is, relative to this file: a release package carries it in dist/native/
// (scripts/package.mjs; the updater swaps dist/ whole), a checkout builds it into native/build/
// (scripts/build-native.mjs). Both paths hold from dist/core/net/ and from src/core/net/.
const CANDIDATES = ['../../native/sharedport.node', '../../../native/build/sharedport.node'];

let loaded: { native: Native } | { detail: string } | undefined;

function load(): { native: Native } | { detail: string } {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const failures: string[] = [];
  for (const rel of CANDIDATES) {
    const file = fileURLToPath(new URL(rel, import.meta.url));
    if (!existsSync(file)) continue;
    try {
      loaded = { native: require(file) as Native };
      return loaded;
    } catch (err) {
      failures.push(`${file}: ${(err as Error).message}`);
    }
  }
  loaded = {
    detail: failures.length
      ? `the native helper for shared ports could not be loaded (${failures.join('; ')}); rebuild it with npm run build`
      : 'the native helper for shared ports (packages/server/native/build/sharedport.node) is not built: install a C compiler (apt-get install gcc libc6-dev) and run npm run build',
  };
  return loaded;
}

/** Whether the native helper loaded; when not, a code and an English detail for the UI. */
export function sharedPortSupport(): { ok: true } | { ok: false; code: 'nativeHelperMissing'; detail: string } {
  const l = load();
  return 'native' in l ? { ok: true } : { ok: false, code: 'nativeHelperMissing', detail: l.detail };
}

type CodedError = Error & { code: string; errno?: number; syscall?: string; address?: string; port?: number };

function helper(): Native {
  const l = load();
  if ('native' in l) return l.native;
  throw Object.assign(new Error(l.detail), { code: 'nativeHelperMissing' }) as CodedError;
}

function abortError(signal: AbortSignal): CodedError {
  return Object.assign(new Error('the operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

function familyOf(address: string): 4 | 6 {
  const family = net.isIP(address);
  if (family === 0) {
    throw Object.assign(new TypeError(`bind address must be a numeric IP address, not "${address}"`), {
      code: 'ERR_INVALID_ARG_VALUE',
    }) as CodedError;
  }
  return family as 4 | 6;
}

/**
 * A TCP connection from bind.address:bind.port to host:port, sharing the port with
 * listenShared's listener and other connectShared sockets. Rejects with an Error whose `code` is
 * the errno name (EADDRINUSE, ECONNREFUSED, ETIMEDOUT on timeoutMs, ABORT_ERR on signal;
 * nativeHelperMissing without the helper). `host` may be a name: it is looked up in the bind
 * address's family first. The socket is never left open on a failure.
 */
export function connectShared(
  bind: SharedPortBind,
  host: string,
  port: number,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<net.Socket> {
  const { signal, timeoutMs } = opts;
  return new Promise<net.Socket>((resolve, reject) => {
    let socket: net.Socket | undefined;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (err: Error | undefined) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (socket) {
        socket.off('error', finish).off('connect', onConnect);
        if (err) socket.destroy(); // closes the fd
      }
      if (err) reject(err);
      else resolve(socket!);
    };
    const onConnect = () => finish(undefined);
    const onAbort = () => finish(abortError(signal!));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        const e = Object.assign(new Error(`connect ETIMEDOUT ${host}:${port} (after ${timeoutMs} ms)`), {
          code: 'ETIMEDOUT',
          errno: -constants.errno.ETIMEDOUT,
          syscall: 'connect',
          address: host,
          port,
        });
        finish(e);
      }, timeoutMs);
    }

    let native: Native;
    let family: 4 | 6;
    try {
      native = helper();
      family = familyOf(bind.address);
    } catch (err) {
      return finish(err as Error);
    }
    const target = net.isIP(host)
      ? Promise.resolve({ address: host, family: net.isIP(host) })
      : lookup(host, { family });
    target.then(
      ({ address, family: targetFamily }) => {
        if (done) return;
        if (targetFamily !== family) {
          return finish(
            Object.assign(new Error(`connect EAFNOSUPPORT ${address}: bound to IPv${family} ${bind.address}`), {
              code: 'EAFNOSUPPORT',
              errno: -constants.errno.EAFNOSUPPORT,
              syscall: 'connect',
              address,
              port,
            }),
          );
        }
        let fd: number;
        try {
          fd = native.bindSocket(bind.address, bind.port, bind.device ?? null);
        } catch (err) {
          return finish(err as Error); // the helper closed what it had opened
        }
        try {
          socket = new net.Socket({ fd });
        } catch (err) {
          closeSync(fd);
          return finish(err as Error);
        }
        // A Socket made on an fd starts reading at once; on a socket that is not yet connected the
        // first poll would fail with ENOTCONN. connect() in this same tick (to an IP: no lookup,
        // Node connects on the next tick, before the event loop polls) puts it in SYN_SENT first.
        socket.once('error', finish).once('connect', onConnect);
        socket.connect({ host: address, port });
      },
      (err: Error) => finish(err),
    );
  });
}

/**
 * Listens on bind (port 0 = pick one) with the same socket options as connectShared, so
 * connectShared sockets can use the same port; resolves to the bound port. Rejects like
 * connectShared (EADDRINUSE, EPERM, ENODEV, nativeHelperMissing, …).
 */
export function listenShared(server: net.Server, bind: SharedPortBind, backlog = 511): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let fd: number;
    try {
      familyOf(bind.address);
      fd = helper().bindListen(bind.address, bind.port, bind.device ?? null, backlog);
    } catch (err) {
      return reject(err);
    }
    const onError = (err: Error) => reject(err); // node closes the handle it made on the fd
    server.once('error', onError);
    try {
      server.listen({ fd, backlog }, () => {
        server.off('error', onError);
        resolve((server.address() as net.AddressInfo).port);
      });
    } catch (err) {
      // thrown before node took the fd (e.g. ERR_SERVER_ALREADY_LISTEN)
      server.off('error', onError);
      closeSync(fd);
      reject(err);
    }
  });
}
