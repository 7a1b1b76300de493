import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { entryInput, entryMatches, entryValues, utcToWallClock, wallClockToUtc } from './entryForm';

const wall = (y: number, mo: number, d: number, h: number, mi: number) => dayjs(new Date(y, mo - 1, d, h, mi));

describe('expiry in the display zone', () => {
  it('reads the picked wall clock in the given zone, whatever the browser zone', () => {
    expect(new Date(wallClockToUtc(wall(2026, 11, 26, 12, 30), 'Asia/Shanghai')).toISOString()).toBe(
      '2026-11-26T04:30:00.000Z',
    );
    expect(new Date(wallClockToUtc(wall(2026, 11, 26, 12, 30), 'UTC')).toISOString()).toBe('2026-11-26T12:30:00.000Z');
    // Either side of a daylight-saving change (New York: EDT until 1 Nov 2026, EST after).
    expect(new Date(wallClockToUtc(wall(2026, 10, 31, 23, 0), 'America/New_York')).toISOString()).toBe(
      '2026-11-01T03:00:00.000Z',
    );
    expect(new Date(wallClockToUtc(wall(2026, 11, 2, 23, 0), 'America/New_York')).toISOString()).toBe(
      '2026-11-03T04:00:00.000Z',
    );
  });

  it("shows a stored expiry as that zone's wall clock, and back", () => {
    const at = Date.parse('2026-11-26T04:30:00.000Z');
    const shown = utcToWallClock(at, 'Asia/Shanghai');
    expect(shown.format('YYYY-MM-DD HH:mm')).toBe('2026-11-26 12:30');
    expect(wallClockToUtc(shown, 'Asia/Shanghai')).toBe(at);
  });
});

describe('entry values', () => {
  it('turns the choices into the API body', () => {
    const now = Date.parse('2026-11-26T00:00:00.000Z');
    const base = { value: ' 10.0.0.0/8 ', comment: ' lab ', expiryDate: null };
    expect(entryInput({ ...base, expiry: 'never' }, now)).toEqual({
      value: '10.0.0.0/8',
      comment: 'lab',
      expiresAt: null,
    });
    expect(entryInput({ ...base, expiry: '1d' }, now).expiresAt).toBe('2026-11-27T00:00:00.000Z');
    expect(entryInput({ ...base, expiry: '1h' }, now).expiresAt).toBe('2026-11-26T01:00:00.000Z');
  });

  it('opens an entry with an expiry on the time picker, one without on "never"', () => {
    const e = {
      key: 'k',
      value: '192.0.2.1',
      comment: '',
      expiresAt: '2030-01-01T00:00:00.000Z',
      source: 'manual' as const,
      addedAt: '2026-11-20T08:00:00.000Z',
    };
    const v = entryValues(e);
    expect(v.expiry).toBe('custom');
    expect(v.expiryDate && wallClockToUtc(v.expiryDate)).toBe(Date.parse(e.expiresAt));
    expect(entryValues({ ...e, expiresAt: null })).toMatchObject({ expiry: 'never', expiryDate: null });
    expect(entryMatches({ ...e, comment: 'Office' }, 'offi')).toBe(true);
    expect(entryMatches(e, '192.0.2')).toBe(true);
    expect(entryMatches(e, '10.')).toBe(false);
  });
});
