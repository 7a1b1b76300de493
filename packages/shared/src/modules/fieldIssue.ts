import type { z } from 'zod';

/** Codes every module's validation can produce besides its own. */
export const GENERIC_ISSUE_MESSAGES = {
  tooSmall: 'value too small',
  tooBig: 'value too large',
  invalidType: 'wrong type',
  invalidValue: 'not one of the allowed values',
  invalid: 'invalid value',
} as const;
export type GenericIssueCode = keyof typeof GENERIC_ISSUE_MESSAGES;

/** A validation problem as the API answers it and the form shows it. */
export interface FieldIssue<C extends string> {
  field: string;
  /** Stable code; the browser shows its own translation of it. */
  code: C;
  params: Record<string, unknown>;
  /** English text, for API users and logs. */
  msg: string;
}

/**
 * Field path, stable code and numbers of a zod issue. A module's schemas use
 * one of its codes (a key of `messages`) as the custom message; zod's own
 * checks map to the generic codes.
 */
export function classifyIssue<C extends string>(
  issue: z.core.$ZodIssue,
  messages: Record<C, string>,
): Omit<FieldIssue<C | GenericIssueCode>, 'msg'> {
  const field = issue.path.map(String).join('.');
  const params: Record<string, unknown> = { ...((issue as { params?: Record<string, unknown> }).params ?? {}) };
  let code: C | GenericIssueCode;
  if (issue.message in messages) code = issue.message as C;
  else if (issue.code === 'too_small') {
    code = 'tooSmall';
    params.min = Number(issue.minimum);
  } else if (issue.code === 'too_big') {
    code = 'tooBig';
    params.max = Number(issue.maximum);
  } else if (issue.code === 'invalid_type') code = 'invalidType';
  else if (issue.code === 'invalid_value') {
    code = 'invalidValue';
    params.values = issue.values;
  } else code = 'invalid';
  return { field, code, params };
}

/** English text of a generic code with its numbers, or `base` for a module's own code. */
export function describeGenericIssue(code: string, params: Record<string, unknown>, base: string): string {
  if (code === 'tooSmall') return `must be at least ${params.min}`;
  if (code === 'tooBig') return `must be at most ${params.max}`;
  if (code === 'invalidValue' && Array.isArray(params.values)) return `${base}: ${params.values.join(', ')}`;
  return base;
}

/**
 * A module's issue vocabulary: its own codes (English text, `{name}` placeholders allowed) plus
 * the generic ones. `fromZod` turns a zod issue into the API's field issue; `describe` gives the
 * English text of a code with its params.
 */
export interface IssueKit<C extends string = string> {
  readonly messages: Readonly<Record<string, string>>;
  describe(code: C | GenericIssueCode, params?: Record<string, unknown>): string;
  fromZod(issue: z.core.$ZodIssue): FieldIssue<C | GenericIssueCode>;
}

export function issueKit<C extends string>(messages: Record<C, string>): IssueKit<C> {
  const describe = (code: C | GenericIssueCode, params: Record<string, unknown> = {}): string => {
    const base: string = (messages as Record<string, string>)[code] ?? GENERIC_ISSUE_MESSAGES[code as GenericIssueCode];
    return describeGenericIssue(code, params, base ?? code).replace(/\{(\w+)\}/g, (m, n: string) =>
      n in params ? String(params[n]) : m,
    );
  };
  return {
    messages,
    describe,
    fromZod(issue: z.core.$ZodIssue): FieldIssue<C | GenericIssueCode> {
      const c = classifyIssue(issue, messages);
      return { ...c, msg: describe(c.code, c.params) };
    },
  };
}
