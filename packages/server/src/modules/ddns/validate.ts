// Request input through the shared schemas; the first problem becomes
// `{ret:1, msg, field, code, params}` (HTTP 400, or 404/409 for the codes that say so).
import { type DdnsErrorCode, type DdnsIssue, ddnsIssue, describeDdnsCode } from '@lucky/shared';
import type { ZodType } from 'zod';
import { ApiFailure } from '../../core/http/reply.js';

const STATUS: Partial<Record<DdnsErrorCode, number>> = { taskNotFound: 404, serviceOff: 409, taskDisabled: 409 };

export function invalid(issue: DdnsIssue, status = STATUS[issue.code] ?? 400): ApiFailure {
  return new ApiFailure(status, 1, issue.field ? `${issue.field}: ${issue.msg}` : issue.msg, issue.field || undefined, {
    code: issue.code,
    params: issue.params,
  });
}

export function issueOf(field: string, code: DdnsErrorCode, params: Record<string, unknown> = {}): ApiFailure {
  return invalid({ field, code, params, msg: describeDdnsCode(code, params) });
}

/** Parse with a shared schema; `prefix` removes a leading path (a task's index in the config). */
export function parseInput<T>(schema: ZodType<T>, input: unknown, prefix = ''): T {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issue = ddnsIssue(r.error.issues[0]);
  if (prefix && issue.field.startsWith(prefix)) issue.field = issue.field.slice(prefix.length);
  throw invalid(issue);
}
