import type { FieldIssue } from '@lucky/shared';
import type { FastifyReply } from 'fastify';

/**
 * A failure the route reports to the client: HTTP status + ret code + message (+ field). Every
 * failure names a `code` (the browser shows its own translation, `<module>.issues.<code>` or
 * `errors.<code>`, filled with `params`, and falls back to `msg`); without one it is named by its
 * HTTP status (`STATUS_CODES`).
 */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly ret: number,
    message: string,
    readonly field?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The code of a failure that names none, by HTTP status. */
export const STATUS_CODES: Record<number, string> = {
  400: 'invalid',
  401: 'loginExpired',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  413: 'tooLarge',
  429: 'tooMany',
  500: 'internal',
};

export const codeOfStatus = (status: number): string => STATUS_CODES[status] ?? (status < 500 ? 'invalid' : 'internal');

export const badRequest = (msg: string, field?: string, code = 'invalid', params?: Record<string, unknown>) =>
  new ApiFailure(400, 1, msg, field, { code, ...(params ? { params } : {}) });
export const notFound = (msg: string, code = 'notFound') => new ApiFailure(404, 1, msg, undefined, { code });
export const conflict = (msg: string, field?: string, code = 'conflict', params?: Record<string, unknown>) =>
  new ApiFailure(409, 1, msg, field, { code, ...(params ? { params } : {}) });

/** A field issue (from a schema or a module's own check) as the API answers it. */
export function fieldFailure(issue: FieldIssue<string>, status = 400): ApiFailure {
  return new ApiFailure(status, 1, issue.field ? `${issue.field}: ${issue.msg}` : issue.msg, issue.field || undefined, {
    code: issue.code,
    params: issue.params,
  });
}

export function sendFailure(reply: FastifyReply, f: ApiFailure): FastifyReply {
  // A throttled answer tells HTTP clients (scripts, API-token callers) when to come back too.
  if (typeof f.extra?.retryAfter === 'number') reply.header('retry-after', String(f.extra.retryAfter));
  return reply.code(f.status).send({
    ret: f.ret,
    msg: f.message,
    ...(f.field ? { field: f.field } : {}),
    code: codeOfStatus(f.status),
    ...f.extra,
  });
}
