// The shared-port helper (native/sharedport.c + core/net/sharedPort.ts) against real sockets on
// loopback: one local port held at once by a listener and by outgoing connections, the errno
// codes of every failure, no fd left open by any of them, and the build without a C compiler.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectShared, listenShared, sharedPortSupport } from '../src/core/net/sharedPort.js';
import { waitFor } from './wait.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const ADDON = join(ROOT, 'packages/server/native/build/sharedport.node');

/** The sockets this process holds open: the inodes of the fds under /proc/self/fd that are sockets. */
function openSockets(): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const link = readlinkSync(`/proc/self/fd/${fd}`);
      if (link.startsWith('socket:')) inodes.add(link);
    } catch {
      // closed between readdir and readlink
    }
  }
  return inodes;
}

/**
 * Waits until this process holds no socket that `before` did not have. Sockets of earlier steps
 * that are still closing only leave the set; a leaked fd stays in it and fails the wait.
 */
const noLeak = (before: Set<string>) =>
  waitFor(
    () => [...openSockets()].filter((s) => !before.has(s)),
    (added) => added.length === 0,
    { what: 'no socket beyond those open before' },
  );

/** IPv4 TCP sockets of the machine from /proc/net/tcp: ports, state (hex, 0A = LISTEN, 02 = SYN_SENT), receive queue. */
function tcpTable(): { local: number; remote: number; state: string; rxQueue: number }[] {
  return readFileSync('/proc/net/tcp', 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const f = line.trim().split(/\s+/);
      return {
        local: Number.parseInt(f[1].split(':')[1], 16),
        remote: Number.parseInt(f[2].split(':')[1], 16),
        state: f[3],
        rxQueue: Number.parseInt(f[4].split(':')[1], 16),
      };
    });
}

// Undone after each test, last first, and awaited.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A loopback server that answers every chunk with `prefix` + the chunk and records each peer's port. */
async function echoPeer(prefix: string, host = '127.0.0.1') {
  const peers: number[] = [];
  const server = net.createServer((s) => {
    peers.push(s.remotePort!);
    s.on('data', (d) => s.write(`${prefix}${d}`));
    s.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  cleanups.push(() => new Promise((r) => server.close(r))); // once its connections have closed too
  return { server, peers, port: (server.address() as net.AddressInfo).port };
}

/** Writes `text` and resolves with the next `expected.length` characters that come back. */
function roundTrip(sock: net.Socket, text: string, expected: string): Promise<string> {
  return new Promise((resolveText, reject) => {
    let got = '';
    const onData = (d: Buffer) => {
      got += d.toString();
      if (got.length >= expected.length) {
        sock.off('data', onData).off('error', reject);
        resolveText(got);
      }
    };
    sock.on('data', onData).once('error', reject);
    sock.write(text);
  });
}

async function freePort(host = '127.0.0.1'): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, host, r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Closed after the test (a server once its connections have closed, a socket once it has). */
function track<T extends net.Socket | net.Server>(x: T): T {
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        if (x instanceof net.Socket) {
          if (x.closed) return r();
          x.once('close', () => r()).destroy();
        } else if (!x.listening) r();
        else x.close(() => r());
      }),
  );
  return x;
}

/** The rejection of `p` (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<NodeJS.ErrnoException> {
  const r = await p.then(
    (v) => ({ v }),
    (e: unknown) => ({ e }),
  );
  if ('v' in r) {
    if (r.v instanceof net.Socket) r.v.destroy();
    throw new Error('expected a rejection');
  }
  return r.e as NodeJS.ErrnoException;
}

beforeAll(() => {
  // npm test / npm run build compile it; here too, so the file runs on its own (a no-op when fresh).
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-native.mjs')], { stdio: 'pipe' });
  expect(sharedPortSupport()).toEqual({ ok: true });
});

describe('one local port for a listener and outgoing connections', () => {
  it('listens on P while two connections from P talk to two servers, and still accepts on P', async () => {
    const a = await echoPeer('A:');
    const b = await echoPeer('B:');
    const port = await freePort();
    const bind = { address: '0.0.0.0', port };
    const inboundPeers: number[] = [];
    const listener = track(
      net.createServer((s) => {
        inboundPeers.push(s.remotePort!);
        s.on('data', (d) => s.write(`L:${d}`));
      }),
    );
    expect(await listenShared(listener, bind)).toBe(port);

    const [toA, toB] = await Promise.all([
      connectShared(bind, '127.0.0.1', a.port),
      connectShared(bind, '127.0.0.1', b.port),
    ]);
    track(toA);
    track(toB);
    expect([toA.localPort, toB.localPort]).toEqual([port, port]);
    await waitFor(() => a.peers.length + b.peers.length === 2, { what: 'both servers accepted' });
    expect([...a.peers, ...b.peers]).toEqual([port, port]);

    // With both outgoing connections open, a client still reaches the listener on P.
    const inbound = track(net.connect(port, '127.0.0.1'));
    await new Promise((r) => inbound.once('connect', r));
    expect(await roundTrip(inbound, 'in', 'L:in')).toBe('L:in');
    expect(inboundPeers).toEqual([inbound.localPort]);

    expect(await roundTrip(toA, 'to-a', 'A:to-a')).toBe('A:to-a');
    expect(await roundTrip(toB, 'to-b', 'B:to-b')).toBe('B:to-b');
    expect([toA.readyState, toB.readyState]).toEqual(['open', 'open']);
  });

  it('port 0: the listener picks a port and connections then use it (target by name)', async () => {
    const a = await echoPeer('A:');
    const listener = track(net.createServer());
    const port = await listenShared(listener, { address: '127.0.0.1', port: 0 });
    expect(port).toBeGreaterThan(0);
    expect((listener.address() as net.AddressInfo).port).toBe(port);
    // 'localhost' is looked up before the socket exists: a socket made on an fd reads at once, and
    // one still unconnected when the event loop polls fails with ENOTCONN.
    const sock = track(await connectShared({ address: '127.0.0.1', port }, 'localhost', a.port));
    expect(sock.localPort).toBe(port);
    expect(await roundTrip(sock, 'x', 'A:x')).toBe('A:x');
    expect(a.peers).toEqual([port]);
  });

  it('IPv6: listener and connection share a port on ::1; an IPv4 bind cannot reach an IPv6 target', async () => {
    const a = await echoPeer('A6:', '::1');
    const listener = track(net.createServer());
    const port = await listenShared(listener, { address: '::1', port: 0 });
    const sock = track(await connectShared({ address: '::1', port }, '::1', a.port));
    expect(await roundTrip(sock, 'six', 'A6:six')).toBe('A6:six');
    expect(a.peers).toEqual([port]);

    const before = openSockets();
    const e = await rejection(connectShared({ address: '127.0.0.1', port: 0 }, '::1', a.port));
    expect(e.code).toBe('EAFNOSUPPORT');
    await noLeak(before);
  });
});

describe('failures carry the errno name and close what they opened', () => {
  it('a port held by an ordinary socket (no SO_REUSEPORT) → EADDRINUSE', async () => {
    const a = await echoPeer('A:');
    const ordinary = track(net.createServer());
    await new Promise<void>((r) => ordinary.listen(0, '127.0.0.1', r));
    const port = (ordinary.address() as net.AddressInfo).port;
    const before = openSockets();

    const c = await rejection(connectShared({ address: '127.0.0.1', port }, '127.0.0.1', a.port));
    expect(c).toMatchObject({ code: 'EADDRINUSE', syscall: 'bind', address: '127.0.0.1', port });
    expect(c.message).toBe(`bind EADDRINUSE 127.0.0.1:${port}`);

    const server = new net.Server();
    const l = await rejection(listenShared(server, { address: '0.0.0.0', port }));
    expect(l).toMatchObject({ code: 'EADDRINUSE', syscall: 'bind' });
    expect(server.listening).toBe(false);
    await noLeak(before);
  });

  it('SO_BINDTODEVICE: lo works (as root); a device that does not exist → ENODEV', async () => {
    const a = await echoPeer('A:');
    const listener = track(net.createServer((s) => s.end('L')));
    const port = await listenShared(listener, { address: '0.0.0.0', port: 0, device: 'lo' });
    const sock = track(await connectShared({ address: '0.0.0.0', port, device: 'lo' }, '127.0.0.1', a.port));
    expect(await roundTrip(sock, 'd', 'A:d')).toBe('A:d');
    expect(a.peers).toEqual([port]);
    const inbound = track(net.connect(port, '127.0.0.1'));
    expect(await roundTrip(inbound, '', 'L')).toBe('L');

    const before = openSockets();
    const c = await rejection(
      connectShared({ address: '0.0.0.0', port: 0, device: 'nosuchdev0' }, '127.0.0.1', a.port),
    );
    expect(c).toMatchObject({ code: 'ENODEV', syscall: 'setsockopt' });
    expect(c.message).toMatch(/SO_BINDTODEVICE nosuchdev0/);
    const l = await rejection(listenShared(new net.Server(), { address: '0.0.0.0', port: 0, device: 'nosuchdev0' }));
    expect(l.code).toBe('ENODEV');
    await noLeak(before);
  });

  it('nothing listening → ECONNREFUSED', async () => {
    const port = await freePort();
    const before = openSockets();
    const e = await rejection(connectShared({ address: '127.0.0.1', port: 0 }, '127.0.0.1', port));
    expect(e).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect' });
    await noLeak(before);
  });

  describe('a peer that never answers the handshake', () => {
    // A listener nobody accepts on, its accept queue filled: the kernel drops further SYNs, so a
    // connect stays in SYN_SENT (on loopback, without touching any other address).
    async function silentPeer(): Promise<number> {
      const native = createRequire(import.meta.url)(ADDON) as {
        bindListen(a: string, p: number, d: string | null, backlog: number): number;
      };
      const port = await freePort();
      const fd = native.bindListen('127.0.0.1', port, null, 1);
      cleanups.push(() => closeSync(fd));
      for (let i = 0; i < 2; i++) {
        const c = track(net.connect(port, '127.0.0.1'));
        c.on('error', () => {});
        await new Promise((r) => c.once('connect', r));
      }
      await waitFor(
        () => tcpTable().find((t) => t.local === port && t.state === '0A')?.rxQueue,
        (q) => q === 2,
        { what: 'a full accept queue' },
      );
      return port;
    }

    it('timeoutMs → ETIMEDOUT', async () => {
      const port = await silentPeer();
      const before = openSockets();
      // The time-out is the behaviour under test: 300 ms of a connect that cannot complete.
      const e = await rejection(
        connectShared({ address: '127.0.0.1', port: 0 }, '127.0.0.1', port, { timeoutMs: 300 }),
      );
      expect(e).toMatchObject({ code: 'ETIMEDOUT', syscall: 'connect', port });
      await noLeak(before);
    });

    it('abort → ABORT_ERR, whether the signal fires during the connect or before it', async () => {
      const port = await silentPeer();
      const before = openSockets();
      const ac = new AbortController();
      const pending = rejection(
        connectShared({ address: '127.0.0.1', port: 0 }, '127.0.0.1', port, { signal: ac.signal }),
      );
      await waitFor(() => tcpTable().some((t) => t.remote === port && t.state === '02'), { what: 'a SYN_SENT socket' });
      ac.abort();
      expect(await pending).toMatchObject({ code: 'ABORT_ERR', name: 'AbortError' });
      await noLeak(before);

      const early = await rejection(
        connectShared({ address: '127.0.0.1', port: 0 }, '127.0.0.1', port, { signal: AbortSignal.abort() }),
      );
      expect(early.code).toBe('ABORT_ERR');
      await noLeak(before);
    });
  });
});

describe('without a C compiler', () => {
  it('the build says what to install and goes on; the helper then reports nativeHelperMissing', () => {
    // A copy of the pieces in a fresh tree (sharedPort.ts imports node:* only), so the real
    // build output is neither used nor touched; node_modules is the repository's.
    const tree = mkdtempSync(join(tmpdir(), 'lucky-sharedport-'));
    cleanups.push(() => rmSync(tree, { recursive: true, force: true }));
    for (const rel of [
      'scripts/build-native.mjs',
      'packages/server/native/sharedport.c',
      'packages/server/src/core/net/sharedPort.ts',
    ]) {
      cpSync(join(ROOT, rel), join(tree, rel));
    }
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    writeFileSync(join(tree, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(tree, 'check.ts'),
      `import net from 'node:net';
const { listenShared, sharedPortSupport } = await import(process.argv[2]);
const listen = await listenShared(net.createServer(), { address: '127.0.0.1', port: 0 }).then(
  () => 'listening',
  (e) => e.code,
);
console.log(JSON.stringify({ support: sharedPortSupport(), listen }));
process.exit(0);
`,
    );
    const env = { ...process.env };
    delete env.CC;
    const build = (cc?: string) =>
      spawnSync(process.execPath, [join(tree, 'scripts/build-native.mjs')], {
        encoding: 'utf8',
        env: cc ? { ...env, CC: cc } : env,
      });
    /** sharedPortSupport() and a listenShared attempt in a fresh process, the loader being at `loader` in the tree. */
    const check = (loader = 'packages/server/src/core/net/sharedPort.ts') => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', join(tree, 'check.ts'), join(tree, loader)], {
        cwd: tree,
        encoding: 'utf8',
        env,
      });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout);
    };

    const failed = build('/nonexistent');
    expect(failed.status).toBe(0);
    expect(`${failed.stdout}${failed.stderr}`.trim().split('\n')).toEqual([
      'sharedport: no C compiler (/nonexistent) — STUN over TCP needs the native helper; install one with: apt-get install gcc libc6-dev',
    ]);
    expect(existsSync(join(tree, 'packages/server/native/build/sharedport.node'))).toBe(false);
    const missing = check();
    expect(missing.support).toMatchObject({ ok: false, code: 'nativeHelperMissing' });
    expect(missing.support.detail).toMatch(/apt-get install gcc libc6-dev/);
    expect(missing.listen).toBe('nativeHelperMissing');

    // A release package's layout: the helper in dist/native/, beside the built loader in dist/core/net/.
    cpSync(ADDON, join(tree, 'packages/server/dist/native/sharedport.node'));
    cpSync(
      join(tree, 'packages/server/src/core/net/sharedPort.ts'),
      join(tree, 'packages/server/dist/core/net/sharedPort.ts'),
    );
    expect(check('packages/server/dist/core/net/sharedPort.ts')).toEqual({
      support: { ok: true },
      listen: 'listening',
    });

    // The same tree with the compiler: built, and a fresh process loads it from there.
    const built = build();
    expect(built.status).toBe(0);
    expect(existsSync(join(tree, 'packages/server/native/build/sharedport.node'))).toBe(true);
    expect(check()).toEqual({ support: { ok: true }, listen: 'listening' });
  });
});
