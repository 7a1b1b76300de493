import { afterEach, describe, expect, it } from 'vitest';
import { applyLogReply, EMPTY_LOG_BUFFER } from '../app/log/logBuffer';
import { browserTimeZone, displayTimeZone, formatTime, localizeLogLine, setDisplayTimeZone } from './time';

afterEach(() => setDisplayTimeZone(''));

describe('display time zone', () => {
  it('is the browser zone until the setting names one; an unknown name is ignored', () => {
    expect(displayTimeZone()).toBe(browserTimeZone());
    setDisplayTimeZone('Asia/Tokyo');
    expect(displayTimeZone()).toBe('Asia/Tokyo');
    setDisplayTimeZone('Mars/Olympus');
    expect(displayTimeZone()).toBe(browserTimeZone());
  });

  it('formats server times (ISO, epoch ms, epoch s) in it', () => {
    setDisplayTimeZone('Asia/Tokyo');
    expect(formatTime('2026-01-15T23:30:05.123Z')).toBe('2026-01-16 08:30:05');
    expect(formatTime(Date.UTC(2026, 0, 15, 23, 30, 5), 'HH:mm:ss')).toBe('08:30:05');
    expect(formatTime(Date.UTC(2026, 0, 15, 23, 30, 5) / 1000, 'YYYY-MM-DD')).toBe('2026-01-16');
    setDisplayTimeZone('America/New_York');
    expect(formatTime('2026-07-01T12:00:00Z')).toBe('2026-07-01 08:00:00');
    expect(formatTime(undefined, 'YYYY-MM-DD HH:mm:ss', '-')).toBe('-');
    expect(formatTime('soon')).toBe('soon');
  });

  it('turns the ISO UTC time that starts a program log line into the display zone', () => {
    const line = '2026-01-15T23:30:05.123Z INFO  [ddns] check done at 2026-01-15T23:30:05Z';
    expect(localizeLogLine(line, 'Asia/Shanghai')).toBe(
      '2026-01-16 07:30:05.123 INFO  [ddns] check done at 2026-01-15T23:30:05Z',
    );
    expect(localizeLogLine('no time here', 'Asia/Shanghai')).toBe('no time here');
    const b = applyLogReply(EMPTY_LOG_BUFFER, { starttime: 's', logs: [{ timestamp: '1', log: line }] }, (l) =>
      localizeLogLine(l, 'UTC'),
    );
    expect(b.lines).toEqual(['2026-01-15 23:30:05.123 INFO  [ddns] check done at 2026-01-15T23:30:05Z']);
  });
});
