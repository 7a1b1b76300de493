import { type SafeConfig, type SafeEntry, safeConfigSchema } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logs/logger.js';
import { CoreSafeGate } from './gate.js';

let n = 0;
function entry(value: string, expiresAt: string | null = null): SafeEntry {
  n++;
  return { key: `k${n}`, value, comment: '', expiresAt, source: 'manual', addedAt: new Date(0).toISOString() };
}

type ConfigInput = Partial<Omit<SafeConfig, 'autoBan'>> & { autoBan?: Partial<SafeConfig['autoBan']> };

function gateWith(input: ConfigInput, start = Date.parse('2026-01-01T00:00:00Z')) {
  let cfg = safeConfigSchema.parse(input);
  let now = start;
  const gate = new CoreSafeGate({ config: () => cfg, now: () => now, log: silentLogger });
  return {
    gate,
    set: (next: ConfigInput) => {
      cfg = safeConfigSchema.parse({ ...cfg, ...next });
    },
    pass: (ms: number) => {
      now += ms;
    },
  };
}

describe('safe gate decision order', () => {
  it('off: everyone in by default; the block list refuses', () => {
    const { gate } = gateWith({ block: [entry('203.0.113.0/24')] });
    expect(gate.decide('198.51.100.1', 'admin')).toEqual({ allowed: true, rule: 'default' });
    const d = gate.decide('203.0.113.9', 'admin');
    expect(d.allowed).toBe(false);
    expect(d.rule).toBe('block');
    expect(d.entry?.value).toBe('203.0.113.0/24');
    expect(gate.admits('::ffff:203.0.113.9', 'webdav')).toBe(false);
  });

  it('the block list wins over the allow list', () => {
    const { gate } = gateWith({ allowMode: 'all', allow: [entry('203.0.113.0/24')], block: [entry('203.0.113.9')] });
    expect(gate.decide('203.0.113.9', 'admin').rule).toBe('block');
    expect(gate.decide('203.0.113.8', 'admin').rule).toBe('allow');
  });

  it('outsideLan lets LAN in and refuses the rest unless allowed; all refuses even LAN', () => {
    const { gate, set } = gateWith({ allowMode: 'outsideLan', allow: [entry('198.51.100.7')] });
    expect(gate.decide('192.168.1.5', 'admin').rule).toBe('lan');
    expect(gate.decide('::1', 'admin').rule).toBe('lan');
    expect(gate.decide('198.51.100.7', 'admin').rule).toBe('allow');
    expect(gate.decide('198.51.100.8', 'admin')).toEqual({ allowed: false, rule: 'notAllowed' });
    set({ allowMode: 'all' });
    expect(gate.decide('192.168.1.5', 'admin')).toEqual({ allowed: false, rule: 'notAllowed' });
    expect(gate.decide('198.51.100.7', 'admin').rule).toBe('allow');
  });

  it('an exempt scope admits everyone, blocked and banned included', () => {
    const { gate } = gateWith({ allowMode: 'all', exempt: ['stun'], block: [entry('0.0.0.0/0')] });
    expect(gate.decide('203.0.113.1', 'stun')).toEqual({ allowed: true, rule: 'exempt' });
    expect(gate.decide('203.0.113.1', 'admin').rule).toBe('block');
  });

  it('an expired entry stops counting without a config change', () => {
    const { gate, pass } = gateWith({
      allowMode: 'all',
      allow: [entry('198.51.100.7', '2026-01-01T01:00:00Z')],
      block: [entry('198.51.100.8', '2026-01-01T00:30:00Z')],
    });
    expect(gate.decide('198.51.100.7', 'admin').rule).toBe('allow');
    expect(gate.decide('198.51.100.8', 'admin').rule).toBe('block');
    pass(30 * 60_000);
    expect(gate.decide('198.51.100.8', 'admin').rule).toBe('notAllowed');
    expect(gate.decide('198.51.100.7', 'admin').rule).toBe('allow');
    pass(30 * 60_000);
    expect(gate.decide('198.51.100.7', 'admin').rule).toBe('notAllowed');
  });
});

describe('safe gate auto-ban', () => {
  const autoBan = { failures: 3, windowMinutes: 10, banMinutes: 60 };

  it('bans after N failures in the window, before the allow list, and lifts after its time', () => {
    const { gate, pass } = gateWith({ autoBan, allow: [entry('203.0.113.5')] });
    gate.failure('203.0.113.5', 'admin');
    gate.failure('203.0.113.5', 'webdav');
    expect(gate.decide('203.0.113.5', 'admin').rule).toBe('allow');
    gate.failure('::ffff:203.0.113.5', 'webdav');
    const d = gate.decide('203.0.113.5', 'ftpserver');
    expect(d.rule).toBe('ban');
    expect(d.ban?.ip).toBe('203.0.113.5');
    expect(d.ban?.sources).toEqual(['webdav', 'admin']);
    pass(60 * 60_000 - 1);
    expect(gate.decide('203.0.113.5', 'admin').rule).toBe('ban');
    pass(1);
    expect(gate.decide('203.0.113.5', 'admin').rule).toBe('allow');
    expect(gate.bans.size).toBe(0);
  });

  it('failures older than the window do not count', () => {
    const { gate, pass } = gateWith({ autoBan });
    gate.failure('203.0.113.6', 'admin');
    gate.failure('203.0.113.6', 'admin');
    pass(10 * 60_000);
    gate.failure('203.0.113.6', 'admin');
    expect(gate.decide('203.0.113.6', 'admin').rule).toBe('default');
    gate.failure('203.0.113.6', 'admin');
    expect(gate.decide('203.0.113.6', 'admin').rule).toBe('default');
    gate.failure('203.0.113.6', 'admin');
    expect(gate.decide('203.0.113.6', 'admin').rule).toBe('ban');
  });

  it('IPv6 counts and bans by /64', () => {
    const { gate } = gateWith({ autoBan });
    gate.failure('2001:db8:1:2::1', 'admin');
    gate.failure('2001:db8:1:2::2', 'admin');
    gate.failure('2001:db8:1:2:ffff::3', 'admin');
    const d = gate.decide('2001:db8:1:2::99', 'admin');
    expect(d.rule).toBe('ban');
    expect(d.ban?.ip).toBe('2001:db8:1:2::/64');
    expect(gate.decide('2001:db8:1:3::1', 'admin').rule).toBe('default');
  });

  it('never bans LAN unless banLan; never counts an exempt scope; nothing when disabled', () => {
    const { gate, set } = gateWith({ autoBan, exempt: ['webdav'] });
    for (let i = 0; i < 5; i++) gate.failure('192.168.1.9', 'admin');
    for (let i = 0; i < 5; i++) gate.failure('127.0.0.1', 'admin');
    for (let i = 0; i < 5; i++) gate.failure('203.0.113.7', 'webdav');
    expect(gate.decide('192.168.1.9', 'admin').rule).toBe('default');
    expect(gate.decide('127.0.0.1', 'admin').rule).toBe('default');
    expect(gate.decide('203.0.113.7', 'admin').rule).toBe('default');
    set({ autoBan: { ...safeConfigSchema.parse({}).autoBan, ...autoBan, enabled: false } });
    for (let i = 0; i < 5; i++) gate.failure('203.0.113.8', 'admin');
    expect(gate.decide('203.0.113.8', 'admin').rule).toBe('default');
    set({ autoBan: { ...safeConfigSchema.parse({}).autoBan, ...autoBan, banLan: true } });
    for (let i = 0; i < 3; i++) gate.failure('192.168.1.9', 'admin');
    expect(gate.decide('192.168.1.9', 'admin').rule).toBe('ban');
  });

  it('unban lifts one ban (by address or key); clear lifts all', () => {
    const { gate } = gateWith({ autoBan });
    for (const ip of ['203.0.113.1', '2001:db8::1']) for (let i = 0; i < 3; i++) gate.failure(ip, 'admin');
    expect(
      gate.bans
        .list()
        .map((b) => b.ip)
        .sort(),
    ).toEqual(['2001:db8::/64', '203.0.113.1']);
    expect(gate.bans.unban('203.0.113.2')).toBeUndefined();
    expect(gate.bans.unban('2001:db8::/64')).toBe('2001:db8::/64');
    expect(gate.decide('2001:db8::1', 'admin').rule).toBe('default');
    expect(gate.bans.clear()).toEqual(['203.0.113.1']);
    expect(gate.decide('203.0.113.1', 'admin').rule).toBe('default');
  });
});
