import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';

export type Access = 'public' | 'token';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

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

export interface RouteDef {
  method: Method;
  path: string;
  access: Access;
  summary: string;
  /** Shapes for the OpenAPI document (the handler still validates). */
  body?: ZodType;
  query?: ZodType;
  /** Raw replies (downloads) set this so the envelope is not assumed. */
  raw?: boolean;
  /** Record in the audit log. Default: every call that is not a GET (GETs that change state set it). */
  audit?: boolean;
  handler: (req: FastifyRequest, reply: FastifyReply, ctx: RouteContext) => Promise<unknown> | unknown;
}

/**
 * Every admin route goes through here, so one list knows them all: the auth
 * hook reads `access`, the OpenAPI document is built from it, and a test
 * walks it to prove that nothing but the public calls answers without a token.
 */
export class RouteRegistry {
  readonly routes: RouteDef[] = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly wrap: (def: RouteDef) => (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) {}

  add(def: RouteDef): void {
    this.routes.push(def);
    this.app.route({ method: def.method, url: def.path, handler: this.wrap(def) });
  }
}
