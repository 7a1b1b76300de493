import { formatSize } from '@lucky/shared';

/** "1.23 MB" — base 1000, three significant digits (spec §9); "-" for unknown. */
export function size(v: number | null | undefined): string {
  return v === null || v === undefined ? '-' : formatSize(v);
}

export function rate(v: number | null | undefined): string {
  return v === null || v === undefined ? '-' : `${formatSize(Math.round(v))}/s`;
}

export function percent(v: number | null | undefined): string {
  return v === null || v === undefined ? '-' : `${v.toFixed(1)}%`;
}

export interface DurationUnits {
  d: string;
  h: string;
  m: string;
  s: string;
}

/** 93784 s → "1d 2h 3m" with the unit letters from the locale. */
export function duration(seconds: number | null | undefined, u: DurationUnits): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '-';
  const s = Math.floor(seconds);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const mins = Math.floor((s % 3600) / 60);
  if (days > 0) return `${days}${u.d} ${hours}${u.h} ${mins}${u.m}`;
  if (hours > 0) return `${hours}${u.h} ${mins}${u.m}`;
  if (mins > 0) return `${mins}${u.m} ${s % 60}${u.s}`;
  return `${s}${u.s}`;
}
