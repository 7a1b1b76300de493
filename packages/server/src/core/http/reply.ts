import type { FastifyReply } from 'fastify';
import type { ZodType } from 'zod';

/**
 * A failure the route reports to the client: HTTP status + ret code + message
 * (+ field). `extra.code` names the message for the browser, which shows its
 * own translation (`errors.<code>` in the locale files) and falls back to `msg`.
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

export const badRequest = (msg: string, field?: string, code?: string) =>
  new ApiFailure(400, 1, msg, field, code ? { code } : undefined);
export const notFound = (msg: string) => new ApiFailure(404, 1, msg);
export const conflict = (msg: string, field?: string, code?: string) =>
  new ApiFailure(409, 1, msg, field, code ? { code } : undefined);

/** Validate with a shared zod schema; the first issue becomes `{ret:1, msg, field[, code]}`. */
export function parseWith<T>(schema: ZodType<T>, input: unknown, codes?: Readonly<Record<string, string>>): T {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.join('.');
  // A module's own messages (e.g. REVERSEPROXY_MESSAGES) travel with their key as `code`, and
  // with the numbers the check attached (`params`, e.g. the line of a custom config).
  const code = codes ? Object.keys(codes).find((k) => codes[k] === issue.message) : undefined;
  const params = code ? (issue as { params?: Record<string, unknown> }).params : undefined;
  const msg = field ? `${field}: ${issue.message}` : issue.message;
  if (params) throw new ApiFailure(400, 1, msg, field || undefined, { code, params });
  throw badRequest(msg, field || undefined, code);
}

export function sendFailure(reply: FastifyReply, f: ApiFailure): FastifyReply {
  // A throttled answer tells HTTP clients (scripts, API-token callers) when to come back too.
  if (typeof f.extra?.retryAfter === 'number') reply.header('retry-after', String(f.extra.retryAfter));
  return reply.code(f.status).send({ ret: f.ret, msg: f.message, ...(f.field ? { field: f.field } : {}), ...f.extra });
}
