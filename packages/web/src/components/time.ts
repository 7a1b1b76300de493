// Every time the console shows goes through here, in ONE display zone: the base setting
// `timeZone` when set (one of the shared TIME_ZONES), else the browser's own zone. The shell loads
// the setting before the first screen renders and keeps it current (setDisplayTimeZone); screens
// format with formatTime, and long-lived views re-render on a change with useDisplayTimeZone.
import { useSyncExternalStore } from 'react';

let chosen = '';
const listeners = new Set<() => void>();

/** The browser's own zone (what `timeZone: ''` means on screen). */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The zone times are shown in now. */
export function displayTimeZone(): string {
  return chosen || browserTimeZone();
}

/** Set from the base settings; '' / undefined = the browser's zone. An unknown zone is ignored. */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  let next = zone ?? '';
  if (next) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: next });
    } catch {
      next = '';
    }
  }
  if (next === chosen) return;
  chosen = next;
  // The shell sets it while rendering (so the screens below already format in it); subscribers
  // re-render right after, not inside another component's render.
  queueMicrotask(() => {
    for (const fn of listeners) fn();
  });
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The display zone, re-rendering the caller when it changes. */
export function useDisplayTimeZone(): string {
  return useSyncExternalStore(subscribe, displayTimeZone, displayTimeZone);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  return f;
}

export type TimePattern = 'YYYY-MM-DD HH:mm:ss' | 'YYYY-MM-DD HH:mm:ss.SSS' | 'YYYY-MM-DD' | 'HH:mm:ss';

/** A date as `pattern` in `zone` (default: the display zone). */
export function formatDate(d: Date, pattern: TimePattern = 'YYYY-MM-DD HH:mm:ss', zone = displayTimeZone()): string {
  const p: Record<string, string> = {};
  for (const part of formatterFor(zone).formatToParts(d)) p[part.type] = part.value;
  const date = `${p.year}-${p.month}-${p.day}`;
  const time = `${p.hour}:${p.minute}:${p.second}`;
  if (pattern === 'YYYY-MM-DD') return date;
  if (pattern === 'HH:mm:ss') return time;
  if (pattern === 'YYYY-MM-DD HH:mm:ss') return `${date} ${time}`;
  return `${date} ${time}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
}

/**
 * A server time (ISO string, epoch ms, or epoch seconds below 1e12) as `pattern` in the display
 * zone; `empty` when absent, the value itself when it is not a time.
 */
export function formatTime(v: unknown, pattern: TimePattern = 'YYYY-MM-DD HH:mm:ss', empty = ''): string {
  if (v === null || v === undefined || v === '' || v === 0) return empty;
  const d =
    v instanceof Date
      ? v
      : typeof v === 'number'
        ? new Date(v < 1e12 ? v * 1000 : v)
        : typeof v === 'string' && /^\d+$/.test(v)
          ? new Date(Number(v) < 1e12 ? Number(v) * 1000 : Number(v))
          : new Date(String(v));
  return Number.isNaN(d.getTime()) ? String(v) : formatDate(d, pattern);
}

const LINE_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z)(?= )/;

/** A program log line (`<ISO UTC time> LEVEL …`) with its time in the display zone. */
export function localizeLogLine(line: string, zone = displayTimeZone()): string {
  const m = LINE_TIME.exec(line);
  if (!m) return line;
  const d = new Date(m[1]);
  return Number.isNaN(d.getTime()) ? line : formatDate(d, 'YYYY-MM-DD HH:mm:ss.SSS', zone) + line.slice(m[1].length);
}
