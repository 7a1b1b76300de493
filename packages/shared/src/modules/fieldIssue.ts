import type { z } from 'zod';

// Structural view of a zod 4 schema: the wrappers numberRange looks through.
interface SchemaNode {
  _zod: {
    def: {
      type: string;
      innerType?: SchemaNode;
      in?: SchemaNode;
      out?: SchemaNode;
      element?: SchemaNode;
      valueType?: SchemaNode;
      shape?: Record<string, SchemaNode>;
    };
  };
  minValue?: number | null;
  maxValue?: number | null;
}

/**
 * The bounds of the number field at `path` inside `schema` (through defaults, optionals,
 * preprocessing, objects, arrays and records), for a range message that names both ends.
 */
export function numberRange(schema: unknown, path: readonly PropertyKey[]): { min?: number; max?: number } {
  let node = schema as SchemaNode | undefined;
  let i = 0;
  for (let guard = 0; node && guard < 64; guard++) {
    const def = node._zod?.def;
    if (!def) return {};
    if (def.innerType) node = def.innerType;
    else if (def.type === 'pipe') node = def.in?._zod.def.type === 'transform' ? def.out : def.in;
    else if (i < path.length && def.type === 'object') node = def.shape?.[String(path[i++])];
    else if (i < path.length && def.type === 'array') {
      node = def.element;
      i++;
    } else if (i < path.length && def.type === 'record') {
      node = def.valueType;
      i++;
    } else if (i === path.length && def.type === 'number') {
      const out: { min?: number; max?: number } = {};
      const safe = (n: unknown): n is number => typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER;
      if (safe(node.minValue)) out.min = node.minValue;
      if (safe(node.maxValue)) out.max = node.maxValue;
      return out;
    } else return {};
  }
  return {};
}

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
  /** The schema the issue came from: a number out of range then carries both bounds (`min`, `max`). */
  schema?: unknown,
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
  if (schema !== undefined && (issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'number') {
    Object.assign(params, numberRange(schema, issue.path));
  }
  return { field, code, params };
}

/** English text of a generic code with its numbers, or `base` for a module's own code. */
export function describeGenericIssue(code: string, params: Record<string, unknown>, base: string): string {
  if ((code === 'tooSmall' || code === 'tooBig') && typeof params.min === 'number' && typeof params.max === 'number') {
    return `must be ${params.min}-${params.max}`;
  }
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
  /** With the schema the issue came from, a number out of range carries its whole range (`min`, `max`). */
  fromZod(issue: z.core.$ZodIssue, schema?: unknown): FieldIssue<C | GenericIssueCode>;
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
    fromZod(issue: z.core.$ZodIssue, schema?: unknown): FieldIssue<C | GenericIssueCode> {
      const c = classifyIssue(issue, messages, schema);
      return { ...c, msg: describe(c.code, c.params) };
    },
  };
}
