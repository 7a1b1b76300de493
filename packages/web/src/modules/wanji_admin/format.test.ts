import type { WanjiConsoleView } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { healthOf, secondsToNextTry, systemMemoryPercent } from './format';

const base: WanjiConsoleView = {
  key: 'k1',
  name: 'B',
  enabled: true,
  url: 'https://127.0.0.1:16601',
  token: '******',
  tls: { mode: 'pin', fingerprint: '', ca: '' },
  note: '',
  reachable: false,
  failures: 0,
};

describe('wanji_admin format', () => {
  it('names the row health from the switch, the reach and the reason', () => {
    expect(healthOf({ ...base, enabled: false })).toBe('off');
    expect(healthOf({ ...base, reachable: true })).toBe('ok');
    expect(healthOf({ ...base, reason: { code: 'notChecked', text: 'not checked yet' } })).toBe('pending');
    expect(healthOf({ ...base, reason: { code: 'fingerprintMismatch', text: 'x' } })).toBe('mismatch');
    expect(healthOf({ ...base, failures: 2, reason: { code: 'connectRefused', text: 'x' } })).toBe('down');
  });

  it('counts down to the next try only while backing off', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const next = '2026-01-01T00:00:40Z';
    expect(secondsToNextTry({ ...base, failures: 3, nextCheckAt: next }, now)).toBe(40);
    expect(secondsToNextTry({ ...base, failures: 3, nextCheckAt: next }, now + 60_000)).toBe(0);
    expect(secondsToNextTry({ ...base, failures: 0, nextCheckAt: next }, now)).toBeUndefined();
    expect(secondsToNextTry({ ...base, reachable: true, failures: 0, nextCheckAt: next }, now)).toBeUndefined();
  });

  it('machine memory in use as a percentage', () => {
    expect(systemMemoryPercent({ systemTotal: 8e9, systemFree: 2e9 })).toBe(75);
    expect(systemMemoryPercent({ systemTotal: 0, systemFree: 0 })).toBeUndefined();
  });
});
