import type { FieldIssue, IssueKit } from '@lucky/shared';
import { issueKit } from '@lucky/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { type ApiFailure, fieldFailure } from './reply.js';

export type Access = 'public' | 'token';
/** HEAD and PATCH: the file manager's tus uploads. */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';

export interface RouteContext {
  /** Client address after the trusted-proxy rules. */
  clientIp: string;
  /** Session id when signed in with a login token; undefined for API tokens and public calls. */
  sessionId?: string;
  /**
   * Who acts, for the audit log: the admin account of a session, `token:<name>` for an API token;
   * a login sets it once the account it names is the admin's (a mistyped name is never stored:
   * it may be a password typed in the wrong box).
   */
  actor?: string;
}

/** What a handler gets besides the raw request: the body and query already parsed by the def's schemas. */
export interface RouteInput<B, Q> extends RouteContext {
  body: B;
  query: Q;
  params: Record<string, string>;
}

export interface RouteDef<B = unknown, Q = unknown> {
  method: Method;
  path: string;
  access: Access;
  summary: string;
  /**
   * The body's schema: the registry parses the body with it once, before the handler runs (a
   * failure answers 400 with the field, code and params of the first issue), feeds it to the
   * OpenAPI document, and hands the parsed value to the handler as `input.body`.
   */
  body?: ZodType<B>;
  /** Same for the query string. */
  query?: ZodType<Q>;
  /** The vocabulary that names this route's issues (a module's registry sets its own). */
  issues?: IssueKit;
  /** Raw replies (downloads) set this so the envelope is not assumed. */
  raw?: boolean;
  /**
   * With `access: 'token'`: a second way in for a request without a valid token — a read ticket
   * the route checks itself (an `<img>` or a plain link sends no Authorization header). The token
   * check stays the wrapper's; a route without this refuses such a request as before. `true` lets
   * it in, `false` (no ticket) answers as a missing token does, an ApiFailure is the refusal to
   * send (a ticket that is no longer good).
   */
  ticket?: (req: FastifyRequest) => boolean | ApiFailure;
  /** The body's size limit in bytes when it is not the app's (1 MiB). */
  bodyLimit?: number;
  /** Record in the audit log. Default: every call that is not a GET (GETs that change state set it). */
  audit?: boolean;
  handler: (req: FastifyRequest, reply: FastifyReply, input: RouteInput<B, Q>) => Promise<unknown> | unknown;
}

/** Only the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid). */
export const GENERIC_ISSUES = issueKit({});

/** Parse with a schema; the first issue becomes a 400 naming the field, with its code and params. */
export function parseInput<T>(schema: ZodType<T>, input: unknown, issues: IssueKit = GENERIC_ISSUES, prefix = ''): T {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  // A number out of range names its whole range: {min, max}.
  const issue: FieldIssue<string> = issues.fromZod(r.error.issues[0], schema);
  if (prefix && issue.field.startsWith(prefix)) issue.field = issue.field.slice(prefix.length);
  throw fieldFailure(issue);
}

/** Runs the def's schemas over the request (the wrapper in app.ts calls this before the handler). */
export function routeInput<B, Q>(def: RouteDef<B, Q>, req: FastifyRequest, ctx: RouteContext): RouteInput<B, Q> {
  const issues = def.issues ?? GENERIC_ISSUES;
  return {
    ...ctx,
    body: def.body ? parseInput(def.body, req.body, issues) : (req.body as B),
    query: def.query ? parseInput(def.query, req.query, issues) : (req.query as Q),
    params: (req.params ?? {}) as Record<string, string>,
  };
}

/** The registry's surface a module's routes see. */
export interface Routes {
  add<B = unknown, Q = unknown>(def: RouteDef<B, Q>): void;
}

/**
 * Every admin route goes through here, so one list knows them all: the auth
 * hook reads `access`, the OpenAPI document is built from it, and a test
 * walks it to prove that nothing but the public calls answers without a token.
 */
export class RouteRegistry implements Routes {
  // biome-ignore lint/suspicious/noExplicitAny: routes of every body and query type live in one list
  readonly routes: RouteDef<any, any>[] = [];

  constructor(
    private readonly app: FastifyInstance,
    // biome-ignore lint/suspicious/noExplicitAny: see routes
    private readonly wrap: (def: RouteDef<any, any>) => (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) {}

  add<B = unknown, Q = unknown>(def: RouteDef<B, Q>): void {
    this.routes.push(def);
    this.app.route({
      method: def.method,
      url: def.path,
      handler: this.wrap(def),
      ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
    });
  }

  /** A module's view of the registry: its routes are named by its own issue vocabulary. */
  forModule(issues: IssueKit): Routes {
    return { add: (def) => this.add({ issues, ...def }) };
  }
}
