import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { addressKey, ConnectionGuard, type ListenerLimits, RefusalLog } from './connGuard.js';
import { isLanAddress } from './lan.js';

/** A stand-in socket: `close` is emitted by destroy / resetAndDestroy, as a real one does. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy() {
    if (!this.destroyed) {
      this.destroyed = true;
      this.emit('close');
    }
    return this;
  }
  resetAndDestroy() {
    return this.destroy();
  }
}
const sock = (ip: string) => new FakeSocket(ip) as unknown as net.Socket & FakeSocket;

function guard(limits: Partial<ListenerLimits>, lines: string[] = []) {
  const l: ListenerLimits = { perAddress: 3, total: 16, handshakeMs: 1000, headerMs: 1000, ...limits };
  return new ConnectionGuard(
    'test',
    () => l,
    isLanAddress,
    (line) => lines.push(line),
  );
}

describe('addressKey', () => {
  it('keeps IPv4, unmaps IPv4-mapped IPv6 and counts IPv6 by its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('ConnectionGuard', () => {
  it('refuses past the per-address cap and counts an address again once its connections close', () => {
    const g = guard({ perAddress: 3 });
    const a = [1, 2, 3].map(() => sock('203.0.113.5'));
    for (const s of a) expect(g.admit(s)).toBe(true);
    const fourth = sock('203.0.113.5');
    expect(g.admit(fourth)).toBe(false);
    expect(fourth.destroyed).toBe(true);
    expect(g.admit(sock('203.0.113.6'))).toBe(true);
    a[0].destroy();
    expect(g.countOf('203.0.113.5')).toBe(2);
    expect(g.admit(sock('203.0.113.5'))).toBe(true);
    expect(g.size).toBe(4);
  });

  it('applies only the total cap to a proxy that speaks for many clients', () => {
    const g = guard({ perAddress: 2, total: 16 });
    for (let i = 0; i < 5; i++) expect(g.admit(sock('127.0.0.1'), '127.0.0.1', true)).toBe(true);
    expect(g.admit(sock('127.0.0.1'))).toBe(false);
  });

  it('counts an IPv6 /64 as one address', () => {
    const g = guard({ perAddress: 2 });
    expect(g.admit(sock('2001:db8:0:1::a'))).toBe(true);
    expect(g.admit(sock('2001:db8:0:1::b'))).toBe(true);
    expect(g.admit(sock('2001:db8:0:1:ffff::c'))).toBe(false);
    expect(g.admit(sock('2001:db8:0:2::a'))).toBe(true);
  });

  it('at the total cap, the biggest holder gives way; an equal newcomer is refused', () => {
    const g = guard({ perAddress: 10, total: 16 });
    // Outside peers may fill 16 - 16/8 = 14.
    const flood = Array.from({ length: 10 }, () => sock('198.51.100.1'));
    for (const s of flood) expect(g.admit(s)).toBe(true);
    for (let i = 0; i < 4; i++) expect(g.admit(sock(`198.51.100.${10 + i}`))).toBe(true);
    expect(g.size).toBe(14);
    const newcomer = sock('198.51.100.50');
    expect(g.admit(newcomer)).toBe(true);
    expect(flood[0].destroyed).toBe(true);
    expect(g.countOf('198.51.100.1')).toBe(9);
    expect(g.size).toBe(14);
    // Everyone holds 1 except the flooder; a second connection of a one-connection holder still
    // takes from the flooder (9 > 2).
    expect(g.admit(sock('198.51.100.50'))).toBe(true);
    expect(g.countOf('198.51.100.1')).toBe(8);
  });

  it('keeps an eighth of the total for LAN peers, and an outside newcomer never evicts a LAN peer', () => {
    const g = guard({ perAddress: 1, total: 16 });
    for (let i = 0; i < 14; i++) expect(g.admit(sock(`198.51.100.${i + 1}`))).toBe(true);
    // Outside peers are full (14); each holds one, so nobody gives way to another outsider.
    expect(g.admit(sock('198.51.100.200'))).toBe(false);
    // LAN peers still get in, up to the whole total.
    expect(g.admit(sock('192.168.1.10'))).toBe(true);
    expect(g.admit(sock('192.168.1.11'))).toBe(true);
    expect(g.size).toBe(16);
  });

  it('logs one refusal line per address per minute, however many it refuses', () => {
    const lines: string[] = [];
    const g = guard({ perAddress: 1 }, lines);
    g.admit(sock('203.0.113.7'));
    for (let i = 0; i < 50; i++) g.admit(sock('203.0.113.7'));
    g.admit(sock('203.0.113.8'));
    g.admit(sock('203.0.113.8'));
    expect(g.refused).toBe(51);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^test: refused a connection from 203\.0\.113\.7: .*per-address cap/);
  });
});

describe('RefusalLog', () => {
  it('logs an address again after a minute', () => {
    let now = 0;
    const lines: string[] = [];
    const log = new RefusalLog(
      (l) => lines.push(l),
      () => now,
    );
    log.note('a', 'x');
    now = 59_999;
    log.note('a', 'x');
    now = 60_000;
    log.note('a', 'x');
    expect(lines).toHaveLength(2);
  });
});
