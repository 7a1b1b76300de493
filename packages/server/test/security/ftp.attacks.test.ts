// Attacks on the FTP server (docs/SECURITY.md style): a connection flood from one address and
// from many (caps at accept, another client still served, memory bounded), slow and silent peers
// (login, idle and TLS handshake time-outs, a stalled download), an endless command line, a
// command flood, a data connection from a foreign address, passive port exhaustion, parallel
// wrong passwords (locked; scrypt runs bounded), the address lists. Flooders bind loopback
// addresses of their own (127.0.0.2 …), so "another client" is another address.
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FairGate } from '../../src/core/auth/fairGate.js';
import { ServiceAuth } from '../../src/core/auth/serviceAuth.js';
import { FtpTestClient } from '../ftp-client.js';
import { type FtpLab, startFtpLab, USERS } from '../ftpserver-helpers.js';
import { waitFor } from '../wait.js';

const labs: FtpLab[] = [];
async function lab(opts: Parameters<typeof startFtpLab>[0] = {}): Promise<FtpLab> {
  const l = await startFtpLab(opts);
  labs.push(l);
  return l;
}
afterEach(async () => {
  for (const l of labs.splice(0)) await l.close();
});
afterAll(async () => {
  for (const l of labs.splice(0)) await l.close();
});

/** Resolves when the socket has closed (events.once would reject on the reset that closes it). */
const closedEvent = (s: net.Socket) => new Promise<void>((resolve) => s.once('close', () => resolve()));

const logCodes = (l: FtpLab) => l.runtime.log.page(1, 100_000, 'oldest').logs.map((e) => e.code);

/** `count` connections from `localAddress` that say nothing; how many the server still holds open. */
async function flood(port: number, count: number, localAddress: string) {
  const sockets: net.Socket[] = [];
  let closed = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      const s = net.connect({ port, host: '127.0.0.1', localAddress });
      sockets.push(s);
      s.on('error', () => {});
      // Read what comes (a 421), so the server's close is seen here.
      s.resume();
      s.once('close', () => {
        closed++;
      });
      await new Promise<void>((resolve) => {
        s.once('connect', () => resolve());
        s.once('close', () => resolve());
      });
    }),
  );
  return {
    open: () => count - closed,
    end: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

async function served(port: number, localAddress: string): Promise<boolean> {
  const c = await FtpTestClient.connect(port, '127.0.0.1', localAddress);
  try {
    if ((await c.read()).code !== 220) return false;
    if ((await c.login('alice', USERS.alice)).code !== 230) return false;
    return (await c.fetch('NLST')).data.toString().includes('files');
  } finally {
    c.close();
  }
}

describe('connection floods', () => {
  it('holds one address to its cap; another client is served; memory stays bounded', async () => {
    const l = await lab({ config: { perAddressMaxConnections: 8, maxConnections: 64 } });
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const f = await flood(l.port, 600, '127.0.0.2');
    try {
      await waitFor(f.open, (n) => n <= 8, { timeout: 10_000, what: 'the flood cut to the per-address cap' });
      expect(f.open()).toBe(8);
      expect(l.runtime.ftp?.sessions.size).toBe(8);
      expect(await served(l.port, '127.0.0.3')).toBe(true);
      const grew = (process.memoryUsage().heapUsed - heapBefore) / 1048576;
      expect(grew).toBeLessThan(48);
      expect(logCodes(l)).toContain('refusedAddressCap');
    } finally {
      f.end();
    }
  });

  it('at the total cap a newcomer takes the place of the biggest holder', async () => {
    const l = await lab({ config: { perAddressMaxConnections: 8, maxConnections: 24 } });
    const floods = [];
    for (const a of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']) floods.push(await flood(l.port, 8, a));
    try {
      await waitFor(
        () => l.runtime.ftp?.sessions.size ?? 0,
        (n) => n <= 24,
        { what: 'the total cap' },
      );
      expect(await served(l.port, '127.0.0.9')).toBe(true);
      expect(l.runtime.ftp?.sessions.size ?? 0).toBeLessThanOrEqual(24);
    } finally {
      for (const f of floods) f.end();
    }
  });
});

describe('slow and silent peers', () => {
  it('closes a peer that does not log in within the login time-out, even one that trickles', async () => {
    const l = await lab({ timeouts: { loginMs: 400 } });
    const silent = await FtpTestClient.connect(l.port);
    const trickle = await FtpTestClient.connect(l.port);
    await silent.read();
    await trickle.read();
    // One byte of a never-ending USER line every 50 ms: activity does not buy time to log in.
    const timer = setInterval(() => trickle.sendRaw('u'), 50);
    try {
      await waitFor(() => silent.closed && trickle.closed, { timeout: 5000, what: 'both closed' });
    } finally {
      clearInterval(timer);
    }
    expect(logCodes(l).filter((c) => c === 'loginTimeout')).toHaveLength(2);
  });

  it('closes a logged-in session that stays idle, and one whose download stalls', async () => {
    const l = await lab({ timeouts: { idleMs: 400 } });
    await fs.writeFile(path.join(l.data, 'big.bin'), Buffer.alloc(32 << 20));
    const idle = await FtpTestClient.connect(l.port);
    await idle.read();
    await idle.login('alice', USERS.alice);
    const stalled = await FtpTestClient.connect(l.port);
    await stalled.read();
    await stalled.login('bob', USERS.bob);
    const p = await stalled.passive();
    const data = await p.connect();
    data.pause(); // never read: the server's writes stop on back-pressure
    expect((await stalled.cmd('RETR /files/big.bin')).code).toBe(150);
    await waitFor(() => idle.closed && stalled.closed, { timeout: 5000, what: 'both closed' });
    expect(logCodes(l).filter((c) => c === 'idleTimeout')).toHaveLength(2);
    data.destroy();
    // The stalled transfer's file handle and passive port were given back.
    await waitFor(() => l.runtime.ftp?.sessions.size === 0);
    expect(l.runtime.ftp?.passive.inUse).toBe(0);
  });

  it('closes a peer that sends AUTH TLS and never starts the handshake', async () => {
    const l = await lab({ limits: { handshakeMs: 300 } });
    const c = await FtpTestClient.connect(l.port);
    await c.read();
    expect((await c.cmd('AUTH TLS')).code).toBe(234);
    await waitFor(() => c.closed, { timeout: 5000, what: 'the connection closed' });
    expect(logCodes(l)).toContain('tlsFailed');
  });
});

describe('command input', () => {
  it('discards an endless command line as it arrives, answers 500 at its end, and goes on', async () => {
    const l = await lab();
    const c = await FtpTestClient.connect(l.port);
    await c.read();
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    let maxHeld = 0;
    for (let i = 0; i < 128; i++) {
      // 8 MiB of one line, written as the socket drains.
      if (!c.socket.write(chunk)) await once(c.socket, 'drain');
      for (const s of l.runtime.ftp?.sessions ?? []) maxHeld = Math.max(maxHeld, s.bufferedBytes);
    }
    c.sendRaw('\r\n');
    expect((await c.read()).text).toBe('500 Command line too long');
    expect((await c.cmd('NOOP')).code).toBe(200);
    // What the session held was one line's cap plus at most one unread chunk, never the line.
    expect(maxHeld).toBeLessThanOrEqual(4096 + 256 * 1024);
    expect(logCodes(l)).toContain('lineTooLong');
    c.close();
  });

  it('slows a command flood down instead of reading it all at once, and answers every command in order', async () => {
    const l = await lab({ limits: { commandRate: 50, commandBurst: 20 } });
    const c = await FtpTestClient.connect(l.port);
    await c.read();
    c.sendRaw('NOOP\r\n'.repeat(60));
    for (let i = 0; i < 60; i++) expect((await c.read()).code).toBe(200);
    expect(logCodes(l)).toContain('commandsThrottled');
    c.close();
  });
});

describe('data connections', () => {
  it('refuses a data connection from an address other than the control peer’s', async () => {
    const l = await lab();
    const c = await FtpTestClient.connect(l.port);
    await c.read();
    await c.login('alice', USERS.alice);
    const p = await c.passive();
    const thief = net.connect({ port: p.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    thief.on('error', () => {});
    await closedEvent(thief);
    expect(logCodes(l)).toContain('dataForeign');
    // The client's own connection is still taken.
    const data = await p.connect();
    expect((await c.cmd('NLST')).code).toBe(150);
    const chunks: Buffer[] = [];
    data.on('data', (d: Buffer) => chunks.push(d));
    await once(data, 'close');
    expect(Buffer.concat(chunks).toString()).toContain('files');
    expect((await c.read()).code).toBe(226);
    c.close();
  });

  it('answers 425 when every passive port is held, and serves again once one is free', async () => {
    const l = await lab({ passiveSize: 2 });
    const clients: FtpTestClient[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await FtpTestClient.connect(l.port);
      await c.read();
      await c.login('alice', USERS.alice);
      clients.push(c);
    }
    const [a, b, third] = clients as [FtpTestClient, FtpTestClient, FtpTestClient];
    expect((await a.cmd('PASV')).code).toBe(227);
    expect((await b.cmd('EPSV')).code).toBe(229);
    expect((await third.cmd('PASV')).text).toBe('425 No free passive port; try again later');
    expect(logCodes(l)).toContain('passiveExhausted');
    expect((await a.cmd('ABOR')).code).toBe(225);
    expect((await third.cmd('PASV')).code).toBe(227);
    for (const c of clients) c.close();
  });
});

describe('password guessing', () => {
  it('locks an address after its failures; parallel guesses are refused without scrypt; others log in', async () => {
    class CountingGate extends FairGate {
      runs = 0;
      override run<T>(key: string, fn: () => Promise<T>): Promise<T> {
        return super.run(key, () => {
          this.runs++;
          return fn();
        });
      }
    }
    const gate = new CountingGate(2);
    const auth = new ServiceAuth(gate, () => ({ maxFailures: 5, lockMs: 60_000 }));
    const l = await lab({ services: { auth }, config: { perAddressMaxConnections: 64 } });
    // 40 connections from one address guess at once.
    const guessers = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const c = await FtpTestClient.connect(l.port, '127.0.0.1', '127.0.0.2');
        await c.read();
        return c;
      }),
    );
    const replies = await Promise.all(guessers.map((c, i) => c.login('alice', `guess-${i}`)));
    const codes = replies.map((r) => r.code);
    expect(codes.filter((c) => c === 530).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 421).length).toBeGreaterThanOrEqual(35);
    // Go on guessing one at a time until the address is locked.
    let locked = false;
    for (let i = 0; i < 10 && !locked; i++) {
      const c = await FtpTestClient.connect(l.port, '127.0.0.1', '127.0.0.2');
      await c.read();
      const r = await c.login('alice', `more-${i}`);
      locked = r.code === 421 && r.text.includes('try again in');
      c.close();
    }
    expect(locked).toBe(true);
    // Locked: even the right password is refused from there, without a hash.
    const runs = gate.runs;
    const right = await FtpTestClient.connect(l.port, '127.0.0.1', '127.0.0.2');
    await right.read();
    expect((await right.login('alice', USERS.alice)).code).toBe(421);
    expect(gate.runs).toBe(runs);
    // Every scrypt run was a counted guess: the failures allowed, and the two running at once.
    expect(gate.runs).toBeLessThanOrEqual(5 + 2);
    expect(await served(l.port, '127.0.0.3')).toBe(true);
    expect(logCodes(l)).toContain('loginLocked');
    for (const c of guessers) c.close();
    right.close();
  });
});

describe('address lists', () => {
  it('resets blocked addresses and, with an allow list, everyone not on it', async () => {
    const l = await lab();
    await l.reload((c) => {
      c.blockList = ['127.0.0.2'];
    });
    const blocked = net.connect({ port: l.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    blocked.on('error', () => {});
    let greeted = false;
    blocked.on('data', () => {
      greeted = true;
    });
    await closedEvent(blocked);
    expect(greeted).toBe(false);
    expect(await served(l.port, '127.0.0.3')).toBe(true);
    await l.reload((c) => {
      c.blockList = [];
      c.allowList = ['127.0.0.3/32'];
    });
    expect(await served(l.port, '127.0.0.3')).toBe(true);
    const other = await FtpTestClient.connect(l.port, '127.0.0.1', '127.0.0.4');
    await expect(other.read()).rejects.toThrow('connection closed');
    expect(logCodes(l)).toContain('refusedBlocked');
  });

  it('closes open sessions whose address a list change no longer allows', async () => {
    const l = await lab();
    const c = await FtpTestClient.connect(l.port, '127.0.0.1', '127.0.0.2');
    await c.read();
    await c.login('alice', USERS.alice);
    await l.reload((cfg) => {
      cfg.blockList = ['127.0.0.0/30'];
    });
    await waitFor(() => c.closed, { what: 'the session closed' });
  });

  it('takes LAN addresses only by default (the decision; a non-LAN peer needs a network of its own)', async () => {
    const l = await lab();
    const engine = l.runtime.ftp;
    expect(engine?.refusal('192.168.1.20')).toBeUndefined();
    expect(engine?.refusal('fd00::5')).toBeUndefined();
    expect(engine?.refusal('8.8.8.8')).toBe('refusedLan');
    expect(engine?.refusal('2001:db8::1')).toBe('refusedLan');
    await l.reload((c) => {
      c.lanOnly = false;
    });
    expect(engine?.refusal('8.8.8.8')).toBeUndefined();
  });
});
