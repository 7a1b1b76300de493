// A schedule in words, in the UI language: built from the pickers' model (cronFields.ts), so it
// says exactly what the pickers show. An expression beyond them is shown raw by the caller.
import { FIELD_LIMITS, type FieldSpec, type Schedule } from './cronFields';

export type Translate = (key: string, params?: Record<string, unknown>) => string;

const pad = (n: number) => String(n).padStart(2, '0');

/** Month and weekday names in the UI language (Intl knows both; no table of our own). */
export function monthName(lang: string, m: number): string {
  return new Intl.DateTimeFormat(lang, { month: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, m - 1, 1));
}
export function weekdayName(lang: string, d: number): string {
  // 2024-01-07 was a Sunday.
  return new Intl.DateTimeFormat(lang, { weekday: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 7 + d));
}

const single = (s: FieldSpec) => s.mode === 'values' && s.values.length === 1;
const isFull = (name: keyof Schedule, s: FieldSpec) =>
  s.from === FIELD_LIMITS[name].min && s.to === FIELD_LIMITS[name].max;

/** One field in words; '' when the field is "every" and says nothing of its own. */
function fieldWords(t: Translate, name: keyof Schedule, s: FieldSpec, label: (n: number) => string): string {
  const sep = t('cron.ui_listSep');
  switch (s.mode) {
    case 'every':
      return '';
    case 'values':
      return t(`cron.ui_w_${name}_values`, { list: s.values.map(label).join(sep) });
    case 'range':
      return t(`cron.ui_w_${name}_range`, { from: label(s.from), to: label(s.to) });
    case 'step':
      return isFull(name, s)
        ? t(`cron.ui_w_${name}_step`, { step: s.step })
        : t(`cron.ui_w_${name}_stepRange`, { step: s.step, from: label(s.from), to: label(s.to) });
  }
}

/** `lang` is a BCP 47 tag ('zh-CN', 'en'). Dates first, then times: "every day, at 03:00". */
export function describeSchedule(t: Translate, lang: string, s: Schedule): string {
  const time: string[] = [];
  if (single(s.minute) && single(s.hour)) {
    time.push(t('cron.ui_w_atTime', { time: `${pad(s.hour.values[0] ?? 0)}:${pad(s.minute.values[0] ?? 0)}` }));
  } else if (s.minute.mode === 'every' && s.hour.mode === 'every') {
    time.push(t('cron.ui_w_everyMinute'));
  } else {
    time.push(fieldWords(t, 'minute', s.minute, String) || t('cron.ui_w_everyMinute'));
    time.push(fieldWords(t, 'hour', s.hour, pad) || t('cron.ui_w_everyHour'));
  }
  const dates = [
    fieldWords(t, 'day', s.day, String),
    fieldWords(t, 'month', s.month, (m) => monthName(lang, m)),
    fieldWords(t, 'weekday', s.weekday, (d) => weekdayName(lang, d)),
  ].filter(Boolean);
  // "every day" only where a time of day is named; "every minute" / "every hour" say it already.
  if (dates.length === 0 && s.hour.mode !== 'every') dates.push(t('cron.ui_w_everyDay'));
  const words = [...dates, ...time].join(t('cron.ui_wordSep'));
  // A sentence's first letter (no change for Chinese).
  return words.charAt(0).toUpperCase() + words.slice(1);
}
