// Failures of module calls in the user's language, shared by every module
// screen. The server names a stable code with its numbers and the field; each
// module translates its own codes, this file does the rest.
import { BACKEND_ERROR_DISPLAY_MS } from '@lucky/shared';
import { ApiError } from './client';

export type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** A refused call's field (the server's path, e.g. `targetAddresses.1`), code and numbers. */
export interface CodedIssue<C extends string> {
  field: string;
  code: C;
  params: Record<string, unknown>;
}

/** The field and code of a refused call, when the server named a code this module knows. */
export function codedIssueOf<C extends string>(
  err: unknown,
  isCode: (c: unknown) => c is C,
): CodedIssue<C> | undefined {
  if (!(err instanceof ApiError) || err.kind !== 'ret') return undefined;
  const reply = err.reply as (ApiError['reply'] & { params?: Record<string, unknown> }) | undefined;
  if (!reply || !isCode(reply.code)) return undefined;
  return { field: reply.field ?? '', code: reply.code, params: reply.params ?? {} };
}

/**
 * What to tell the user about a failed call; undefined when there is nothing
 * to add (the session ended — the client said so — or the caller cancelled).
 */
export function callErrorText<C extends string>(
  err: unknown,
  isCode: (c: unknown) => c is C,
  describe: (issue: CodedIssue<C>) => string,
): string | undefined {
  const issue = codedIssueOf(err, isCode);
  if (issue) return describe(issue);
  if (err instanceof ApiError) {
    if (err.kind === 'session' || err.kind === 'aborted') return undefined;
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Backend errors stay two minutes (spec §9); transport failures a few seconds. */
export function errorDuration(err: unknown): number {
  return err instanceof ApiError && (err.kind === 'ret' || err.kind === 'http') ? BACKEND_ERROR_DISPLAY_MS / 1000 : 6;
}

/** A refusal as the API answers it (`{ret, msg, field?, code?, params?}`), or a form check's issue in that shape. */
export interface Failure {
  ret?: number;
  msg?: string;
  /** The server's dotted path, e.g. `targetAddresses.1`. */
  field?: string;
  code?: string;
  params?: Record<string, unknown>;
}

/**
 * The failure a refused call carries: the reply's code, field and numbers (`params`, and the core
 * calls' numbers beside them, e.g. `attemptsLeft`); undefined for transport failures and the like.
 */
export function failureOf(err: unknown): Failure | undefined {
  if (!(err instanceof ApiError) || (err.kind !== 'ret' && err.kind !== 'http') || !err.reply) return undefined;
  const { ret, msg, field, code, params, ...rest } = err.reply as ApiError['reply'] & {
    params?: Record<string, unknown>;
  };
  return { ret, msg, field, code, params: { ...rest, ...params } };
}
