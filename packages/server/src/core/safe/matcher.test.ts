import type { SafeEntry } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { clientAddress, compileList, entryInterval, isReversedRange } from './matcher.js';

let n = 0;
function entry(value: string, expiresAt: string | null = null): SafeEntry {
  n++;
  return { key: `k${n}`, value, comment: '', expiresAt, source: 'manual', addedAt: new Date(0).toISOString() };
}

function matcher(entries: SafeEntry[], now = Date.now()) {
  const c = compileList(entries, now);
  return (ip: string) => {
    const a = clientAddress(ip);
    return a ? c.match(a)?.value : undefined;
  };
}

describe('safe matcher', () => {
  it('matches single IPv4 and IPv6 addresses, mapped IPv6 folded to IPv4 both ways', () => {
    const m = matcher([entry('203.0.113.7'), entry('2001:db8::1'), entry('::ffff:198.51.100.1')]);
    expect(m('203.0.113.7')).toBe('203.0.113.7');
    expect(m('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(m('198.51.100.1')).toBe('::ffff:198.51.100.1');
    expect(m('203.0.113.8')).toBeUndefined();
    expect(m('203.0.113.6')).toBeUndefined();
    expect(m('2001:db8::1')).toBe('2001:db8::1');
    expect(m('2001:DB8:0::1')).toBe('2001:db8::1');
    expect(m('2001:db8::2')).toBeUndefined();
    // IPv4 entries never match an unrelated IPv6 address of the same low bits.
    expect(m('::cb00:7107')).toBeUndefined();
  });

  it('covers a CIDR exactly to its edges', () => {
    const m = matcher([entry('10.1.2.0/24'), entry('2001:db8:1::/48'), entry('0.0.0.0/32')]);
    expect(m('10.1.2.0')).toBe('10.1.2.0/24');
    expect(m('10.1.2.255')).toBe('10.1.2.0/24');
    expect(m('10.1.1.255')).toBeUndefined();
    expect(m('10.1.3.0')).toBeUndefined();
    expect(m('2001:db8:1:ffff:ffff:ffff:ffff:ffff')).toBe('2001:db8:1::/48');
    expect(m('2001:db8:2::')).toBeUndefined();
    expect(m('0.0.0.0')).toBe('0.0.0.0/32');
    expect(m('0.0.0.1')).toBeUndefined();
  });

  it('whole-space CIDRs reach the last address of the family', () => {
    const m = matcher([entry('0.0.0.0/0'), entry('::/0')]);
    expect(m('255.255.255.255')).toBe('0.0.0.0/0');
    expect(m('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe('::/0');
    expect(m('::ffff:1.2.3.4')).toBe('0.0.0.0/0');
  });

  it('ranges are inclusive; a reversed range is no range', () => {
    expect(isReversedRange('10.0.0.9-10.0.0.1')).toBe(true);
    expect(isReversedRange('10.0.0.1-10.0.0.9')).toBe(false);
    expect(entryInterval('10.0.0.9-10.0.0.1')).toBeNull();
    const m = matcher([entry('10.0.0.5-10.0.0.9'), entry('2001:db8::a - 2001:db8::f'), entry('10.0.0.9-10.0.0.1')]);
    expect(m('10.0.0.4')).toBeUndefined();
    expect(m('10.0.0.5')).toBe('10.0.0.5-10.0.0.9');
    expect(m('10.0.0.9')).toBe('10.0.0.5-10.0.0.9');
    expect(m('10.0.0.10')).toBeUndefined();
    expect(m('10.0.0.1')).toBeUndefined();
    expect(m('2001:db8::c')).toBe('2001:db8::a - 2001:db8::f');
    expect(m('2001:db8::10')).toBeUndefined();
  });

  it('where entries overlap, the first in list order is named, and the rest still cover the edges', () => {
    const m = matcher([entry('10.0.0.4-10.0.0.6'), entry('10.0.0.0/24'), entry('10.0.0.5')]);
    expect(m('10.0.0.5')).toBe('10.0.0.4-10.0.0.6');
    expect(m('10.0.0.3')).toBe('10.0.0.0/24');
    expect(m('10.0.0.7')).toBe('10.0.0.0/24');
    const m2 = matcher([entry('10.0.0.5'), entry('10.0.0.0/24')]);
    expect(m2('10.0.0.5')).toBe('10.0.0.5');
    expect(m2('10.0.0.4')).toBe('10.0.0.0/24');
    expect(m2('10.0.0.6')).toBe('10.0.0.0/24');
  });

  it('expired entries never count, and the compile says when it goes stale', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const entries = [entry('10.0.0.0/8', '2026-01-01T00:00:00Z'), entry('10.0.0.1', '2026-01-01T01:00:00Z')];
    const c = compileList(entries, now);
    expect(c.validUntil).toBe(Date.parse('2026-01-01T01:00:00Z'));
    const a = clientAddress('10.0.0.1');
    const b = clientAddress('10.0.0.2');
    if (!a || !b) throw new Error('unparsable');
    expect(c.match(a)?.value).toBe('10.0.0.1');
    expect(c.match(b)).toBeUndefined();
    expect(compileList(entries, now + 3_600_000).match(a)).toBeUndefined();
  });

  it('10,000 entries compile and answer right at both ends of the list', () => {
    const entries: SafeEntry[] = [];
    for (let i = 0; i < 5000; i++) entries.push(entry(`10.${(i >> 8) & 255}.${i & 255}.0/28`));
    for (let i = 0; i < 5000; i++) entries.push(entry(`2001:db8:${i.toString(16)}::/64`));
    const c = compileList(entries, Date.now());
    const probe = clientAddress('10.19.135.3');
    const probe6 = clientAddress('2001:db8:1387::77');
    const miss = clientAddress('10.19.135.16');
    if (!probe || !probe6 || !miss) throw new Error('unparsable');
    expect(c.match(probe)?.value).toBe('10.19.135.0/28');
    expect(c.match(probe6)?.value).toBe('2001:db8:1387::/64');
    expect(c.match(miss)).toBeUndefined();
  });
});
