// The visual schedule editor's model and its two-way conversion with a five-field cron expression
// (minute hour day-of-month month weekday). Each field is one of four shapes the pickers can show:
// every (`*`), specific values (`1,15`), a range (`9-17`) or a step (`*/5`, `10-50/10`). Anything
// else a person may type (mixed lists, `L`, `#`, `?`, six fields, `@daily`) is still a valid raw
// expression for the server to judge; the editor then says it cannot show it instead of guessing.

export type FieldName = 'minute' | 'hour' | 'day' | 'month' | 'weekday';
export const FIELD_NAMES: readonly FieldName[] = ['minute', 'hour', 'day', 'month', 'weekday'];

export const FIELD_LIMITS: Record<FieldName, { min: number; max: number }> = {
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  day: { min: 1, max: 31 },
  month: { min: 1, max: 12 },
  weekday: { min: 0, max: 6 },
};

export type FieldMode = 'every' | 'values' | 'range' | 'step';

export interface FieldSpec {
  mode: FieldMode;
  /** mode 'values': sorted, distinct, at least one. */
  values: number[];
  /** mode 'range': from-to; mode 'step': the first value and the last one considered. */
  from: number;
  to: number;
  /** mode 'step': every `step` values. */
  step: number;
}

export type Schedule = Record<FieldName, FieldSpec>;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

export function everyField(name: FieldName): FieldSpec {
  const { min, max } = FIELD_LIMITS[name];
  return { mode: 'every', values: [min], from: min, to: max, step: 1 };
}

/** One number of a field: digits, or a month / weekday name; weekday 7 is Sunday. */
function atom(name: FieldName, text: string): number | undefined {
  const upper = text.toUpperCase();
  let n: number | undefined;
  if (/^\d{1,2}$/.test(text)) n = Number(text);
  else if (name === 'month' && MONTHS.includes(upper)) n = MONTHS.indexOf(upper) + 1;
  else if (name === 'weekday' && DAYS.includes(upper)) n = DAYS.indexOf(upper);
  if (n === undefined) return undefined;
  if (name === 'weekday' && n === 7) n = 0;
  const { min, max } = FIELD_LIMITS[name];
  return n >= min && n <= max ? n : undefined;
}

/** A field's text as one of the four shapes, or undefined when the pickers cannot show it. */
export function parseField(name: FieldName, text: string): FieldSpec | undefined {
  const { min, max } = FIELD_LIMITS[name];
  const base = everyField(name);
  if (text === '*' || (text === '?' && (name === 'day' || name === 'weekday'))) return base;
  const stepMatch = /^([^/]+)\/(\d{1,2})$/.exec(text);
  if (stepMatch) {
    const [, head = '', stepText = ''] = stepMatch;
    const step = Number(stepText);
    if (step < 1 || step > max - min + 1) return undefined;
    if (head === '*') return { ...base, mode: 'step', step };
    const range = head.split('-');
    const from = atom(name, range[0] ?? '');
    // `a/n` runs from a to the field's end; `a-b/n` from a to b.
    const to = range.length === 1 ? max : range.length === 2 ? atom(name, range[1] ?? '') : undefined;
    if (from === undefined || to === undefined || from > to) return undefined;
    return { ...base, mode: 'step', from, to, step };
  }
  const range = /^([^,-]+)-([^,-]+)$/.exec(text);
  if (range) {
    const from = atom(name, range[1] ?? '');
    const to = atom(name, range[2] ?? '');
    if (from === undefined || to === undefined || from > to) return undefined;
    return { ...base, mode: 'range', from, to };
  }
  const values: number[] = [];
  for (const part of text.split(',')) {
    const n = atom(name, part);
    if (n === undefined) return undefined;
    values.push(n);
  }
  return { ...base, mode: 'values', values: [...new Set(values)].sort((a, b) => a - b) };
}

/** A field's shape as text (always the plain numeric form). */
export function fieldText(name: FieldName, spec: FieldSpec): string {
  const { min, max } = FIELD_LIMITS[name];
  switch (spec.mode) {
    case 'every':
      return '*';
    case 'values':
      return spec.values.length ? [...spec.values].sort((a, b) => a - b).join(',') : String(min);
    case 'range':
      return `${spec.from}-${spec.to}`;
    case 'step':
      if (spec.from === min && spec.to === max) return `*/${spec.step}`;
      return `${spec.from}-${spec.to}/${spec.step}`;
  }
}

/** The five pickers' model of an expression, or undefined when any field is beyond them. */
export function parseSchedule(expression: string): Schedule | undefined {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) return undefined;
  const out: Partial<Schedule> = {};
  for (const [i, name] of FIELD_NAMES.entries()) {
    const spec = parseField(name, parts[i] ?? '');
    if (!spec) return undefined;
    out[name] = spec;
  }
  return out as Schedule;
}

export function scheduleText(schedule: Schedule): string {
  return FIELD_NAMES.map((n) => fieldText(n, schedule[n])).join(' ');
}

/** A schedule to start a new task with: every day at 03:00. */
export const DEFAULT_EXPRESSION = '0 3 * * *';
