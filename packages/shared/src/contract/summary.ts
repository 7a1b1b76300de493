// What one console tells another about itself (`GET /api/summary`, access: token) and the one-time
// login link (`POST /api/login/link` → `POST /api/login/ticket`). Core routes of every console:
// a manager (the wanji_admin module) reads them with the remote's API token.
import { z } from 'zod';
import type { Coded } from './coded.js';

/** Certificates of the store that expire within this many days are listed in the summary. */
export const SUMMARY_CERT_DAYS = 30;
/** Seconds a login ticket lives. */
export const LOGIN_TICKET_SECONDS = 60;

export const SUMMARY_MODULE_STATES = ['stopped', 'starting', 'running', 'error', 'disabled'] as const;
export type SummaryModuleState = (typeof SUMMARY_MODULE_STATES)[number];

export interface SummaryModule {
  key: string;
  state: SummaryModuleState;
  /** Why (error / stopped), coded like `/api/modules/status` (UI: `modules.reasons.<code>`). */
  reason?: Coded;
  /**
   * Error-level lines this module wrote to the program log within the last 24 h (counted from the
   * core's in-memory log ring, so at most what the ring still holds; reset by a restart).
   */
  errors: number;
}

export interface SummaryCert {
  /** The certificate's name in the store (or its first domain). */
  name: string;
  domains: string[];
  /** ISO 8601, UTC. */
  notAfter: string;
  /** Whole days until notAfter (negative: expired). */
  daysLeft: number;
}

/** GET /api/summary */
export interface SummaryResponse {
  ret: 0;
  version: string;
  /** When this process started (ISO 8601, UTC). */
  startedAt: string;
  uptimeSeconds: number;
  hostname: string;
  cpu: { percent: number; cores: number };
  /** Bytes. */
  memory: { rss: number; systemTotal: number; systemFree: number };
  modules: SummaryModule[];
  /** The store's certificates expiring within SUMMARY_CERT_DAYS days, soonest first. */
  certs: SummaryCert[];
}

/** What a manager accepts as a summary (anything else: the peer is "not Lucky"). */
export const summaryResponseSchema = z.object({
  ret: z.literal(0),
  version: z.string().max(64),
  startedAt: z.string().max(64),
  uptimeSeconds: z.number(),
  hostname: z.string().max(255),
  cpu: z.object({ percent: z.number(), cores: z.number() }),
  memory: z.object({ rss: z.number(), systemTotal: z.number(), systemFree: z.number() }),
  modules: z
    .array(
      z.object({
        key: z.string().max(64),
        state: z.enum(SUMMARY_MODULE_STATES),
        reason: z.object({ code: z.string().max(64), params: z.record(z.string(), z.unknown()).optional() }).optional(),
        errors: z.number(),
      }),
    )
    .max(64),
  certs: z
    .array(
      z.object({
        name: z.string().max(255),
        domains: z.array(z.string().max(255)).max(100),
        notAfter: z.string().max(64),
        daysLeft: z.number(),
      }),
    )
    .max(256),
});

/** POST /api/login/link: a one-time login ticket for the admin account (60 s, used once). */
export interface LoginLinkResponse {
  ret: 0;
  ticket: string;
  /** ISO 8601, UTC. */
  expiresAt: string;
  /** Where the browser goes: `[/<entrance>]/#/login?ticket=…` (the ticket stays in the fragment). */
  path: string;
}

/** POST /api/login/ticket (no auth): answers like `POST /api/login` (`{ ret: 0, msg, token }`); a used, expired or unknown ticket → 401 code `ticketInvalid`. */
export const loginTicketBodySchema = z.object({ ticket: z.string().trim().min(1).max(128) });
export type LoginTicketBody = z.infer<typeof loginTicketBodySchema>;
export interface LoginTicketResponse {
  ret: 0;
  msg: string;
  token: string;
}
