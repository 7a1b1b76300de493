// Attack tests for the STUN module's listeners (docs/SECURITY.md, issue 14): what faces the
// internet is a mapping's TCP listener on the shared local port and its UDP socket, which carries
// STUN answers and forwarded datagrams alike. Each describe runs a whole StunRuntime (the module's
// runtime as the supervisor starts it) with coturn on loopback as its STUN server, so the
// listeners are the product's own: shared-port listener, UDP channel, forwarders, caps and logs.
// Attackers bind loopback addresses of their own (127.0.0.2 …): "another client" is another
// address. The TCP flood comes from another process (test/security/flooder.mjs), so this
// process's memory and descriptors are the server's.
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type StunMappingView, type StunRuleInput, stunConfigSchema } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/core/logs/logger.js';
import type { RuleLogEntry } from '../src/core/logs/ruleLog.js';
import { BINDING_SUCCESS } from '../src/modules/stun/protocol/message.js';
import { StunRuntime } from '../src/modules/stun/runtime.js';
import { testModuleContext } from './module-context.js';
import {
  closedWithin,
  connect,
  echoOnce,
  echoServer,
  type Peer,
  tcpServer,
  udpClient,
  udpEcho,
} from './portforward-helpers.js';
import {
  badTcpStun,
  bindingSuccess,
  deafTarget,
  type HeldStunServer,
  heldUdpStun,
  lingeringOn,
} from './stun-bad-peers.js';
import { type CoturnPeer, startCoturn } from './stun-peers.js';
import { staysFalse, waitFor } from './wait.js';

const MB = 1024 * 1024;
const FLOODER = new URL('./security/flooder.mjs', import.meta.url).pathname;

let coturn: CoturnPeer;
let coturnEntry: string;
const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-stun-attacks-'));

beforeAll(async () => {
  coturn = await startCoturn({ addresses: ['127.0.0.1'] });
  coturnEntry = `127.0.0.1:${coturn.port}`;
});
afterAll(async () => {
  await coturn?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Rule = Partial<StunRuleInput> & { key: string; name: string; targetPort: number };

/** A runtime with these rules (local port 0: each picks a free one), coturn as the global server. */
async function startRuntime(rules: Rule[]): Promise<StunRuntime> {
  const rt = new StunRuntime(testModuleContext('stun', silentLogger, dir));
  await rt.start(
    stunConfigSchema.parse({
      enabled: true,
      stunServers: [coturnEntry],
      // No keep-alive web server: a TCP mapping keeps its STUN connection open instead.
      keepAliveUrl: '',
      retrySec: 1,
      rules: rules.map((r) => ({ targetAddress: '127.0.0.1', ...r })),
    }),
  );
  return rt;
}

const view = (rt: StunRuntime, key: string): StunMappingView => {
  const m = rt.rule(key)?.mappingViews()[0];
  if (!m) throw new Error(`rule ${key} has no mapping`);
  return m;
};

const opened = (rt: StunRuntime, key: string, timeout = 8000) =>
  waitFor(
    () => view(rt, key),
    (m) => m.state === 'open',
    { timeout, what: `the mapping of ${key} open` },
  );

/** The rule's log lines with `code`, oldest first. */
const lines = (rt: StunRuntime, key: string, code: string): RuleLogEntry[] =>
  rt
    .rule(key)
    ?.log.page(1, 1_000_000, 'oldest')
    .logs.filter((l) => l.code === code) ?? [];

const fds = () => readdirSync('/proc/self/fd').length;
const memory = () => {
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};

/** Resolves with `read()` once it has not changed for 500 ms (and is above zero). */
async function plateau(read: () => number, what: string): Promise<number> {
  const settled = await waitFor(
    async () => {
      const v = read();
      return v > 0 && (await staysFalse(() => read() !== v, 500)) ? v : undefined;
    },
    { timeout: 15_000, interval: 0, what },
  );
  if (settled === undefined) throw new Error('unreachable: waitFor returns a value that passed');
  return settled;
}

/** Writes as fast as the socket takes it (never past its buffer), until it closes. */
function floodWrite(c: net.Socket): void {
  const chunk = Buffer.alloc(64 * 1024, 7);
  const pump = () => {
    while (!c.destroyed && c.write(chunk));
    if (!c.destroyed) c.once('drain', pump);
  };
  c.on('error', () => undefined);
  pump();
}

/** Connections from another process (flooder.mjs) that send nothing, held open until `end`. */
interface RemoteFlood {
  flood(localAddress: string, count: number): Promise<void>;
  /** Connections the server has not closed, counted in the flooder. */
  open(): Promise<number>;
  end(): void;
}

function remoteFlood(port: number): RemoteFlood {
  const child: ChildProcess = fork(FLOODER, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (m: object) =>
    new Promise<{ opened: number; open: number }>((resolve) => {
      child.once('message', resolve);
      child.send(m);
    });
  return {
    flood: async (localAddress, count) => {
      await ask({ t: 'flood', port, count, localAddress, head: '', batch: 250 });
    },
    open: async () => (await ask({ t: 'count' })).open,
    end: () => child.kill(),
  };
}

describe('a TCP mapping’s listener under floods and slow peers', () => {
  let rt: StunRuntime;
  let echo: Peer;
  let deaf: Peer;
  /** What the next connections to the behaving target do (then: echo). */
  const behaviours: Array<'sink' | 'flood'> = [];
  let behaving: Peer;
  /** The target's side of the latest connection. */
  let targetSide: net.Socket | undefined;

  beforeAll(async () => {
    echo = await echoServer();
    deaf = await deafTarget();
    behaving = await tcpServer((c) => {
      targetSide = c;
      const b = behaviours.shift();
      if (b === 'sink') c.pause();
      else if (b === 'flood') floodWrite(c);
      else c.pipe(c);
    });
    rt = await startRuntime([
      {
        key: 'flood',
        name: 'flood',
        targetPort: echo.port,
        maxConnections: 48,
        perIpMaxConnections: 16,
        // Debug, so every refusal is a line the test can count.
        logLevel: 5,
        logCapacity: 8192,
      },
      { key: 'slow', name: 'slow', targetPort: behaving.port },
      { key: 'deaf', name: 'deaf', targetPort: deaf.port, timeoutMs: 1000 },
      { key: 'idle', name: 'idle', targetPort: echo.port, tcpIdleTimeoutMs: 1000 },
    ]);
    for (const key of ['flood', 'slow', 'deaf', 'idle']) await opened(rt, key);
  });
  afterAll(async () => {
    await rt?.stop();
    await Promise.all([echo?.close(), deaf?.close(), behaving?.close()]);
  });

  it('a connection flood: refused at once past the per-address and rule caps (reset, debug line), others served, memory bounded, nothing left after', async () => {
    const port = view(rt, 'flood').localPort;
    expect(await echoOnce(port, 'warm up', '127.0.0.1', '127.0.0.3')).toBe('warm up');
    await waitFor(() => view(rt, 'flood').connections === 0, { what: 'the warm-up relay closed' });
    const before = { ...memory(), fds: fds() };
    const f = remoteFlood(port);
    try {
      // 1500 connections from one address that send nothing: 16 (its cap) are held, relayed to the
      // target; the rest are closed as they arrive.
      await f.flood('127.0.0.2', 1500);
      const held = await waitFor(
        () => f.open(),
        (n) => n <= 16,
        { timeout: 10_000, what: 'refused connections closed' },
      );
      expect(held).toBe(16);
      expect(view(rt, 'flood').connections).toBe(16);
      const refused = lines(rt, 'flood', 'refused');
      expect(refused).toHaveLength(1484);
      for (const l of refused) expect(l).toMatchObject({ level: 5, params: { proto: 'tcp', cap: 16 } });
      // Another address is served at once; the flooding one gets nothing more.
      expect(await echoOnce(port, 'another client', '127.0.0.1', '127.0.0.3')).toBe('another client');
      await expect(echoOnce(port, 'one more', '127.0.0.1', '127.0.0.2')).rejects.toThrow();

      // Three more addresses: the rule's cap of 48 holds whoever asks; a newcomer is refused too.
      await f.flood('127.0.0.4', 40);
      await f.flood('127.0.0.5', 40);
      await f.flood('127.0.0.6', 40);
      expect(
        await waitFor(
          () => f.open(),
          (n) => n <= 48,
          10_000,
        ),
      ).toBe(48);
      expect(view(rt, 'flood').connections).toBe(48);
      const fromSix = lines(rt, 'flood', 'refused').filter((l) => String(l.params?.client).startsWith('127.0.0.6:'));
      expect(fromSix).toHaveLength(40);
      for (const l of fromSix) expect(l.params).toMatchObject({ cap: 48 });
      await expect(echoOnce(port, 'full', '127.0.0.1', '127.0.0.7')).rejects.toThrow();

      const after = memory();
      const grew = { heap: (after.heap - before.heap) / MB, rss: (after.rss - before.rss) / MB };
      console.log(
        `stun attacks: 1620 connections, 48 held, 1572 refused; heap +${grew.heap.toFixed(1)} MB, rss +${grew.rss.toFixed(1)} MB`,
      );
      expect(grew.heap).toBeLessThan(24);
      expect(grew.rss).toBeLessThan(64);
    } finally {
      f.end();
    }
    // The flood is gone: no relay, no descriptor, and (refusals being resets) no TIME_WAIT
    // or FIN_WAIT entry per refused connection on the listener's port.
    await waitFor(() => view(rt, 'flood').connections === 0, { what: 'every relay closed' });
    await waitFor(
      () => fds(),
      (n) => n <= before.fds + 2,
      { what: `descriptors back to ${before.fds}` },
    );
    expect(lingeringOn(port)).toBe(0);
    expect(await echoOnce(port, 'room again', '127.0.0.1', '127.0.0.7')).toBe('room again');
  });

  it('a target that never reads: the client is paused (backpressure), the relay holds a bounded amount, and the rule serves others meanwhile', async () => {
    const port = view(rt, 'slow').localPort;
    const before = memory();
    behaviours.push('sink');
    const c = await connect(port, '127.0.0.1', '127.0.0.8');
    floodWrite(c);
    const relayed = await plateau(() => view(rt, 'slow').bytesIn, 'the bytes taken from the client to stop growing');
    const grew = (memory().heap - before.heap) / MB;
    console.log(
      `stun attacks: non-reading target, ${(relayed / MB).toFixed(1)} MB relayed then paused; heap +${grew.toFixed(1)} MB`,
    );
    // Kernel buffers on the way (the target's receive and the relay's send buffer) hold a few MB.
    expect(relayed).toBeLessThan(24 * MB);
    expect(grew).toBeLessThan(16);
    const stalled = targetSide;
    expect(await echoOnce(port, 'beside it', '127.0.0.1', '127.0.0.9')).toBe('beside it');
    // A relay stalled on its target learns that the client left only when the target moves: the
    // client's socket is not being read, so neither its FIN nor its reset is seen. The target
    // giving up ends it.
    c.resetAndDestroy();
    stalled?.destroy();
    await waitFor(() => view(rt, 'slow').connections === 0, { what: 'the relay closed' });
  });

  it('a client that never reads while the target sends: the target is paused, the relay holds a bounded amount', async () => {
    const port = view(rt, 'slow').localPort;
    const before = memory();
    behaviours.push('flood');
    const c = await connect(port, '127.0.0.1', '127.0.0.8');
    c.pause();
    const relayed = await plateau(() => view(rt, 'slow').bytesOut, 'the bytes taken from the target to stop growing');
    const grew = (memory().heap - before.heap) / MB;
    console.log(
      `stun attacks: non-reading client, ${(relayed / MB).toFixed(1)} MB relayed then paused; heap +${grew.toFixed(1)} MB`,
    );
    expect(relayed).toBeLessThan(24 * MB);
    expect(grew).toBeLessThan(16);
    c.destroy();
    await waitFor(() => view(rt, 'slow').connections === 0, { what: 'the relay closed' });
  });

  it('a target that never accepts: the client’s connection ends at the rule’s time-out, with a log line', async () => {
    const port = view(rt, 'deaf').localPort;
    const c = await connect(port, '127.0.0.1', '127.0.0.10');
    expect(view(rt, 'deaf').connections).toBe(1);
    // The rule's time-out is 1 s; the deadline here only bounds the test.
    await closedWithin(c, 6000);
    const failed = await waitFor(
      () => lines(rt, 'deaf', 'targetFailed'),
      (l) => l.length === 1,
    );
    expect(failed[0]).toMatchObject({
      level: 3,
      params: { proto: 'tcp', target: `127.0.0.1:${deaf.port}`, detail: 'connect timed out' },
    });
    expect(failed[0].params?.client).toMatch(/^127\.0\.0\.10:\d+$/);
    expect(view(rt, 'deaf').connections).toBe(0);
    expect(view(rt, 'deaf').state).toBe('open');
  });

  it('a client that connects and goes quiet is closed at the rule’s idle time-out; one that keeps talking is not', async () => {
    const port = view(rt, 'idle').localPort;
    const quiet = await connect(port, '127.0.0.1', '127.0.0.11');
    const talker = await connect(port, '127.0.0.1', '127.0.0.12');
    // The talker sends a byte every 300 ms (its echo comes back), well inside the 1 s idle time.
    const ticker = setInterval(() => talker.write('x'), 300);
    try {
      await closedWithin(quiet, 6000);
      expect(talker.destroyed).toBe(false);
      const idle = await waitFor(
        () => lines(rt, 'idle', 'idleClosed'),
        (l) => l.length === 1,
      );
      expect(idle[0].params?.client).toMatch(/^127\.0\.0\.11:\d+$/);
    } finally {
      clearInterval(ticker);
      talker.destroy();
    }
  });
});

describe('a UDP mapping’s socket under floods and forged STUN', () => {
  let rt: StunRuntime;
  let echo: Peer;
  let held: HeldStunServer;
  const UDP_TIMEOUT_MS = 2000;

  beforeAll(async () => {
    echo = await udpEcho();
    held = await heldUdpStun();
    rt = await startRuntime([
      {
        key: 'uflood',
        name: 'uflood',
        protocols: ['udp'],
        targetPort: echo.port,
        maxConnections: 50,
        perIpMaxConnections: 0,
        udpTimeoutMs: UDP_TIMEOUT_MS,
        logLevel: 5,
        logCapacity: 8192,
      },
      {
        key: 'forged',
        name: 'forged',
        protocols: ['udp'],
        targetPort: echo.port,
        stunServers: [`127.0.0.1:${held.port}`],
      },
    ]);
    await opened(rt, 'uflood');
    await opened(rt, 'forged');
  });
  afterAll(async () => {
    await rt?.stop();
    await Promise.all([echo?.close(), held?.close()]);
  });

  it('300 source ports: sessions capped at the rule’s 50, the rest dropped without a session, and every session expires after the UDP time-out', async () => {
    const port = view(rt, 'uflood').localPort;
    const clients = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const s = dgram.createSocket('udp4');
        await new Promise<void>((r) => s.bind(0, '127.0.0.2', r));
        return s;
      }),
    );
    const replied = new Set<number>();
    clients.forEach((s, i) => {
      s.on('message', () => replied.add(i));
    });
    const refused = () => lines(rt, 'uflood', 'refused').length;
    const base = fds();
    try {
      // In waves, each handled before the next goes out (admitted or refused, every datagram is
      // accounted for), so the socket's receive buffer never overflows and drops some.
      const send = async (from: number[], handled: () => number, expected: number) => {
        for (let i = 0; i < from.length; i += 25) {
          for (const j of from.slice(i, i + 25)) clients[j].send(`hello ${j}`, port, '127.0.0.1');
          await waitFor(handled, (n) => n >= expected + Math.min(i + 25, from.length), { what: 'a wave handled' });
        }
      };
      const all = clients.map((_, i) => i);
      await send(all, () => view(rt, 'uflood').connections + refused(), 0);
      expect(view(rt, 'uflood').connections).toBe(50);
      expect(refused()).toBe(250);
      for (const l of lines(rt, 'uflood', 'refused')) expect(l).toMatchObject({ level: 5, params: { proto: 'udp' } });
      await waitFor(() => replied.size === 50, { what: '50 clients answered' });
      // One socket towards the target per session, none for the refused.
      expect(fds() - base).toBeLessThanOrEqual(50 + 2);

      // The refused send again: still no session, no socket, no answer.
      const shut = all.filter((i) => !replied.has(i));
      expect(shut).toHaveLength(250);
      const withSessions = fds();
      await send(shut, refused, 250);
      expect(refused()).toBe(500);
      expect(view(rt, 'uflood').connections).toBe(50);
      expect(fds()).toBeLessThanOrEqual(withSessions + 2);

      // The sessions expire after the rule's UDP time-out (the deadline only bounds the test).
      await waitFor(() => view(rt, 'uflood').connections === 0, {
        timeout: UDP_TIMEOUT_MS + 6000,
        what: 'sessions expired',
      });
      const idle = lines(rt, 'uflood', 'sessionClosed').filter(
        (l) => l.params?.detail === `idle for ${UDP_TIMEOUT_MS} ms`,
      );
      expect(idle).toHaveLength(50);
      await waitFor(
        () => fds(),
        (n) => n <= base + 2,
        { what: `descriptors back to ${base}` },
      );
      // Room again: a client refused before is served now.
      const late = shut[0];
      clients[late].send('late', port, '127.0.0.1');
      await waitFor(() => replied.has(late), { what: 'a refused client served after the expiry' });
    } finally {
      for (const s of clients) s.close();
    }
  });

  it('the largest datagrams (65,507 bytes, STUN-looking or not) go through byte-exact both ways; a burst of them leaves memory bounded', async () => {
    const port = view(rt, 'uflood').localPort;
    const c = await udpClient('udp4', '127.0.0.3');
    try {
      const big = randomBytes(65_507);
      expect((await c.ask(big, port)).equals(big)).toBe(true);
      // A header that passes the STUN check (cookie, length = the rest) on the largest datagram
      // that can carry one: not an answer to us, so payload.
      const stunish = randomBytes(65_504);
      stunish.writeUInt16BE(BINDING_SUCCESS, 0);
      stunish.writeUInt16BE(65_504 - 20, 2);
      stunish.writeUInt32BE(0x2112a442, 4);
      expect((await c.ask(stunish, port)).equals(stunish)).toBe(true);

      // 20 clients, 8 each: 10 MB through the socket in 160 round trips, one at a time (a few
      // datagrams this size fill a socket's default receive buffer; more at once would be dropped
      // by the kernel before the forwarder sees them).
      const before = { ...memory(), bytes: view(rt, 'uflood').bytesIn };
      const senders = await Promise.all(Array.from({ length: 20 }, () => udpClient('udp4', '127.0.0.3')));
      for (const s of senders) for (let i = 0; i < 8; i++) expect((await s.ask(big, port)).length).toBe(big.length);
      const relayed = view(rt, 'uflood').bytesIn - before.bytes;
      const grew = (memory().heap - before.heap) / MB;
      console.log(
        `stun attacks: 160 datagrams of 65,507 bytes from 20 clients, ${(relayed / MB).toFixed(1)} MB in; heap +${grew.toFixed(1)} MB`,
      );
      expect(relayed).toBe(160 * big.length);
      expect(grew).toBeLessThan(32);
      for (const s of senders) await s.close();
      expect((await c.ask('still here', port)).toString()).toBe('still here');
    } finally {
      await c.close();
    }
  });

  it('forged STUN answers: a random transaction id is a client’s datagram; a pending request’s id from another address is dropped; the public address stays', async () => {
    const m0 = view(rt, 'forged');
    const port = m0.localPort;
    const real = `127.0.0.1:${port}`;
    expect(m0.publicAddress).toBe(real);
    const fake = { address: '203.0.113.66', port: 6666 };
    const attacker = await udpClient('udp4', '127.0.0.2');
    // Same address as the STUN server, another port.
    const nextDoor = await udpClient('udp4', '127.0.0.1');
    try {
      // A valid-looking Binding success nobody asked for: forwarded (the target echoes it back).
      const unsolicited = bindingSuccess(randomBytes(12), fake);
      expect((await attacker.ask(unsolicited, port)).equals(unsolicited)).toBe(true);
      expect(view(rt, 'forged').publicAddress).toBe(real);

      // A check in flight: the server holds its answer while forgeries with its id come in.
      held.hold = true;
      const n = held.requests.length;
      await rt.reopen('forged');
      const req = await waitFor(() => held.requests[n], { what: 'the re-check’s request' });
      const lastCheck = view(rt, 'forged').lastCheck;
      const forged = bindingSuccess(req.txn, fake);
      for (const a of [attacker, nextDoor]) {
        a.sock.send(forged, port, '127.0.0.1');
        // Datagrams from one socket are handled in order: once this echo is back, the forgery was
        // handled before it, and was neither forwarded (its echo would have come first) nor taken.
        expect((await a.ask('after the forgery', port)).toString()).toBe('after the forgery');
      }
      expect(view(rt, 'forged')).toMatchObject({ publicAddress: real, lastCheck, state: 'open' });

      held.hold = false;
      held.answer(n);
      const m = await waitFor(
        () => view(rt, 'forged'),
        (v) => v.lastCheck !== lastCheck,
        { what: 'the real answer taken' },
      );
      expect(m).toMatchObject({ state: 'open', publicAddress: real, changes: 0 });
      expect(lines(rt, 'forged', 'addressChanged')).toHaveLength(0);
    } finally {
      held.hold = false;
      await attacker.close();
      await nextDoor.close();
    }
  });

  it('junk that looks like STUN is a client’s data: forwarded byte-exact, nothing breaks', async () => {
    const port = view(rt, 'forged').localPort;
    const c = await udpClient('udp4', '127.0.0.4');
    try {
      for (let i = 0; i < 200; i++) {
        const len = 4 * randomInt(0, 64);
        const junk = Buffer.concat([Buffer.alloc(20), randomBytes(len)]);
        // Any class and method (top two bits clear), the cookie, a length that fits, a random id;
        // some carry a Binding success type, some a broken FINGERPRINT-like tail.
        junk.writeUInt16BE(i % 3 === 0 ? BINDING_SUCCESS : randomInt(0, 0x4000), 0);
        junk.writeUInt16BE(len, 2);
        junk.writeUInt32BE(0x2112a442, 4);
        randomBytes(12).copy(junk, 8);
        if (i % 5 === 0 && len >= 8) junk.writeUInt32BE(0x80280004, 20 + len - 8);
        expect((await c.ask(junk, port)).equals(junk)).toBe(true);
      }
    } finally {
      await c.close();
    }
    // The mapping still works: a fresh check is answered and taken.
    const before = view(rt, 'forged').lastCheck;
    await rt.reopen('forged');
    const m = await waitFor(
      () => view(rt, 'forged'),
      (v) => v.lastCheck !== before,
      { what: 'a check after the junk' },
    );
    expect(m).toMatchObject({ state: 'open', publicAddress: `127.0.0.1:${port}`, changes: 0 });
  });
});

describe('TCP STUN servers that answer garbage, a huge length, an IPv6 address or a trickle', () => {
  let rt: StunRuntime;
  let echo: Peer;
  const bad: Record<'garbage' | 'huge' | 'ipv6' | 'trickle', Peer> = {} as never;
  const entry = (p: Peer) => `127.0.0.1:${p.port}`;
  const TIMEOUT_MS = 1000;

  beforeAll(async () => {
    echo = await echoServer();
    bad.garbage = await badTcpStun('garbage');
    bad.huge = await badTcpStun('huge');
    bad.ipv6 = await badTcpStun('ipv6');
    bad.trickle = await badTcpStun('trickle');
    const servers = [entry(bad.garbage), entry(bad.huge), entry(bad.ipv6), entry(bad.trickle)];
    rt = await startRuntime([
      { key: 'good', name: 'good', targetPort: echo.port },
      {
        key: 'failover',
        name: 'failover',
        targetPort: echo.port,
        stunServers: [...servers, coturnEntry],
        timeoutMs: TIMEOUT_MS,
        logLevel: 5,
      },
      { key: 'nostun', name: 'nostun', targetPort: echo.port, stunServers: servers, timeoutMs: TIMEOUT_MS },
    ]);
  });
  afterAll(async () => {
    await rt?.stop();
    await Promise.all([echo?.close(), ...Object.values(bad).map((p) => p.close())]);
  });

  it('fails over past each of them to the server that answers; each failure is logged with its reason', async () => {
    const m = await opened(rt, 'failover');
    expect(m.server).toBe(coturnEntry);
    expect(m.publicAddress).toBe(`127.0.0.1:${m.localPort}`);
    const failed = lines(rt, 'failover', 'serverFailed').map((l) => [l.params?.server, l.params?.detail]);
    expect(failed).toEqual([
      [entry(bad.garbage), expect.stringMatching(/sent something else than STUN/)],
      [entry(bad.huge), expect.stringMatching(/sent a 65552-byte message/)],
      [entry(bad.ipv6), expect.stringMatching(/2001:db8::66, not an IPv4 address/)],
      [entry(bad.trickle), expect.stringMatching(/no STUN answer from .* over TCP/)],
    ]);
    // The connections given up on were reset: none left closing on the shared port.
    expect(lingeringOn(m.localPort)).toBe(0);
  });

  it('with only those servers the mapping reports the coded reason within its time-out, while its listener and the other rules go on', async () => {
    const m = await waitFor(
      () => view(rt, 'nostun'),
      (v) => v.state === 'broken',
      // Three instant failures and one time-out; the rest only bounds the test.
      { timeout: TIMEOUT_MS + 4000, what: 'the mapping broken' },
    );
    expect(m.reason?.code).toBe('notPenetrated');
    const detail = String(m.reason?.params?.detail);
    expect(detail).toMatch(/^no STUN server answered: /);
    for (const p of Object.values(bad)) expect(detail).toContain(entry(p));
    expect(lines(rt, 'nostun', 'lost')).toHaveLength(1);
    expect(lingeringOn(m.localPort)).toBe(0);

    // What arrives at the local port is still forwarded, and the other rule is untouched.
    expect(await echoOnce(m.localPort, 'still forwarded', '127.0.0.1', '127.0.0.2')).toBe('still forwarded');
    const good = await opened(rt, 'good');
    expect(good.server).toBe(coturnEntry);
    expect(await echoOnce(good.localPort, 'good rule', '127.0.0.1', '127.0.0.2')).toBe('good rule');
  });
});
