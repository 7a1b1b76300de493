import { describe, expect, it } from 'vitest';
import { applyLogReply, EMPTY_LOG_BUFFER, MAX_LINES } from './logBuffer';

describe('log buffer', () => {
  it('appends new lines and remembers the last timestamp', () => {
    let b = applyLogReply(EMPTY_LOG_BUFFER, {
      starttime: 's1',
      logs: [
        { timestamp: '100', log: 'a' },
        { timestamp: '200', log: 'b\n' },
      ],
    });
    expect(b).toEqual({ starttime: 's1', pre: '200', lines: ['a', 'b'] });
    b = applyLogReply(b, { starttime: 's1', logs: [{ timestamp: '300', log: 'c' }] });
    expect(b).toEqual({ starttime: 's1', pre: '300', lines: ['a', 'b', 'c'] });
  });

  it('keeps state when nothing is new', () => {
    const b = applyLogReply(EMPTY_LOG_BUFFER, { starttime: 's1', logs: [{ timestamp: '1', log: 'x' }] });
    expect(applyLogReply(b, { starttime: 's1', logs: [] })).toBe(b);
  });

  it('clears the text when the program restarted (starttime changed)', () => {
    const b = applyLogReply(EMPTY_LOG_BUFFER, { starttime: 's1', logs: [{ timestamp: '5', log: 'old' }] });
    const after = applyLogReply(b, { starttime: 's2', logs: [{ timestamp: '9', log: 'new' }] });
    expect(after).toEqual({ starttime: 's2', pre: '9', lines: ['new'] });
    expect(applyLogReply(b, { starttime: 's2', logs: [] }).lines).toEqual([]);
  });

  it('ignores malformed entries and caps the number of lines', () => {
    const many = Array.from({ length: MAX_LINES + 5 }, (_, i) => ({ timestamp: String(i + 1), log: `l${i}` }));
    const b = applyLogReply(EMPTY_LOG_BUFFER, { starttime: 's', logs: [null, { nope: 1 }, ...many] });
    expect(b.lines).toHaveLength(MAX_LINES);
    expect(b.lines[0]).toBe('l5');
    expect(b.pre).toBe(String(MAX_LINES + 5));
  });
});
