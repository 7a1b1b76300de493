import { describe, expect, it } from 'vitest';
import { anyWaiting, consoleBase, wakeCurl, wakeView } from './format';

const at = (iso: string) => Date.parse(iso);

describe('Wake-on-LAN card as data', () => {
  it('counts a wake’s seconds down to the server’s deadline, never below 0', () => {
    const state = {
      online: 'offline' as const,
      via: [],
      wake: { phase: 'waiting' as const, startedAt: '2026-01-01T10:00:00Z', deadline: '2026-01-01T10:02:00Z' },
    };
    expect(wakeView(state, at('2026-01-01T10:00:00Z'))).toEqual({ phase: 'waiting', secondsLeft: 120 });
    expect(wakeView(state, at('2026-01-01T10:01:59.5Z'))).toEqual({ phase: 'waiting', secondsLeft: 1 });
    expect(wakeView(state, at('2026-01-01T10:03:00Z'))).toEqual({ phase: 'waiting', secondsLeft: 0 });
    expect(anyWaiting({ a: state })).toBe(true);
  });

  it('shows the result once the wait ended, nothing before any wake', () => {
    const end = { startedAt: '2026-01-01T10:00:00Z', deadline: '2026-01-01T10:02:00Z' };
    const now = at('2026-01-01T10:05:00Z');
    expect(wakeView({ online: 'online', via: ['tcp'], wake: { ...end, phase: 'online', seconds: 42 } }, now)).toEqual({
      phase: 'online',
      seconds: 42,
    });
    expect(wakeView({ online: 'offline', via: [], wake: { ...end, phase: 'timeout' } }, now)).toEqual({
      phase: 'timeout',
    });
    expect(wakeView({ online: 'unknown', via: [] }, now)).toEqual({ phase: 'idle' });
    expect(anyWaiting({ a: { online: 'offline', via: [], wake: { ...end, phase: 'timeout' } } })).toBe(false);
  });

  it('builds the shortcut’s curl line from the console’s address, safe entrance kept, quotes escaped', () => {
    expect(consoleBase('https://nas.lan:16601/#/wol')).toBe('https://nas.lan:16601/');
    expect(consoleBase('http://10.0.0.2:16601/secret-door/?x=1#/wol')).toBe('http://10.0.0.2:16601/secret-door/');
    expect(wakeCurl('http://10.0.0.2:16601/secret-door/', 'Dev0001', 'lkt_abc')).toBe(
      "curl -fsS -X POST -H 'Authorization: lkt_abc' 'http://10.0.0.2:16601/secret-door/api/wol/devices/Dev0001/wake'",
    );
    expect(wakeCurl('http://h/', 'k', "it's")).toContain(`'Authorization: it'\\''s'`);
  });
});
