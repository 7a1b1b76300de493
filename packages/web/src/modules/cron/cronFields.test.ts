// The visual editor ⇄ expression conversion: every shape the pickers show reads back to the same
// text, names and Sunday-as-7 read as numbers, and what the pickers cannot show is refused rather
// than turned into a different schedule.
import { describe, expect, it } from 'vitest';
import { everyField, fieldText, parseField, parseSchedule, type Schedule, scheduleText } from './cronFields';

describe('parseField', () => {
  it('reads the four shapes', () => {
    expect(parseField('minute', '*')).toMatchObject({ mode: 'every' });
    expect(parseField('minute', '0,30,15')).toMatchObject({ mode: 'values', values: [0, 15, 30] });
    expect(parseField('hour', '9-17')).toMatchObject({ mode: 'range', from: 9, to: 17 });
    expect(parseField('minute', '*/5')).toMatchObject({ mode: 'step', from: 0, to: 59, step: 5 });
    expect(parseField('minute', '10-50/10')).toMatchObject({ mode: 'step', from: 10, to: 50, step: 10 });
    // `a/n` runs to the end of the field.
    expect(parseField('hour', '2/6')).toMatchObject({ mode: 'step', from: 2, to: 23, step: 6 });
  });

  it('reads month and weekday names, and weekday 7 as Sunday', () => {
    expect(parseField('month', 'jan,MAR')).toMatchObject({ mode: 'values', values: [1, 3] });
    expect(parseField('weekday', 'MON-FRI')).toMatchObject({ mode: 'range', from: 1, to: 5 });
    expect(parseField('weekday', '7')).toMatchObject({ mode: 'values', values: [0] });
    expect(parseField('day', '?')).toMatchObject({ mode: 'every' });
  });

  it('refuses what the pickers cannot show or what is out of range', () => {
    for (const [name, text] of [
      ['minute', '60'],
      ['hour', '24'],
      ['day', '0'],
      ['month', '13'],
      ['minute', '1-5,10'],
      ['day', 'L'],
      ['weekday', '5#2'],
      ['hour', '17-9'],
      ['minute', '*/0'],
      ['minute', '*/61'],
      ['minute', ''],
      ['month', 'MON'],
      ['minute', '?'],
    ] as const) {
      expect(parseField(name, text), `${name} ${text}`).toBeUndefined();
    }
  });
});

describe('fieldText', () => {
  it('writes each shape in its plain numeric form', () => {
    const base = everyField('minute');
    expect(fieldText('minute', base)).toBe('*');
    expect(fieldText('minute', { ...base, mode: 'values', values: [30, 0] })).toBe('0,30');
    expect(fieldText('minute', { ...base, mode: 'range', from: 5, to: 10 })).toBe('5-10');
    expect(fieldText('minute', { ...base, mode: 'step', step: 15 })).toBe('*/15');
    expect(fieldText('minute', { ...base, mode: 'step', from: 5, to: 59, step: 15 })).toBe('5-59/15');
  });
});

describe('parseSchedule ⇄ scheduleText', () => {
  it('round-trips what the pickers write', () => {
    for (const expr of ['* * * * *', '0 3 * * *', '*/5 9-17 * * 1-5', '0,30 8 1,15 1-6/2 0', '15 2 * 3 6']) {
      const s = parseSchedule(expr);
      expect(s, expr).toBeDefined();
      expect(scheduleText(s as Schedule)).toBe(expr);
    }
  });

  it('normalises names and spacing to the numeric form', () => {
    const s = parseSchedule('  0  3 * JAN  MON-FRI ');
    expect(s && scheduleText(s)).toBe('0 3 * 1 1-5');
  });

  it('changing one picker changes only its field', () => {
    const s = parseSchedule('0 3 * * *') as Schedule;
    const next: Schedule = { ...s, weekday: { ...s.weekday, mode: 'values', values: [6, 0] } };
    expect(scheduleText(next)).toBe('0 3 * * 0,6');
  });

  it('is undefined for expressions beyond the five pickers', () => {
    for (const expr of ['', '0 3 * *', '0 0 3 * * *', '@daily', '0 3 L * *', 'a b c d e']) {
      expect(parseSchedule(expr), expr).toBeUndefined();
    }
  });
});
