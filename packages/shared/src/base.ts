import { z } from 'zod';
import {
  DEFAULT_ABOUT_HOSTS,
  DEFAULT_ADMIN_PORT,
  HTTP_CLIENT_TIMEOUT_S,
  LOG_MAX_SIZE,
  TOKEN_LIFETIME_HOURS,
} from './limits.js';
import { isCidrOrIp, isHostName, isIp } from './net.js';
import { isListedTimeZone } from './timeZones.js';

/** English text of the base settings' own validation codes (the schema's message is the code); the browser shows `errors.<code>`. */
export const BASE_SETTINGS_MESSAGES = {
  timeZoneUnknown: 'not one of the listed time zones',
} as const;

/** Connection caps and time-outs of the admin and web service listeners (issue 12 §4). */
export const CONNECTION_LIMITS = {
  adminMaxConnsPerAddress: { min: 4, max: 65535, default: 64 },
  adminMaxConns: { min: 16, max: 65535, default: 1024 },
  webMaxConnsPerAddress: { min: 4, max: 65535, default: 256 },
  webMaxConns: { min: 16, max: 1_000_000, default: 4096 },
  /** Seconds. */
  handshakeTimeout: { min: 1, max: 120, default: 10 },
  /** Seconds. */
  headerTimeout: { min: 1, max: 300, default: 15 },
} as const;
const C = CONNECTION_LIMITS;
const bounded = (r: { min: number; max: number; default: number }) =>
  z
    .number()
    .int('must be a whole number')
    .min(r.min, `must be ${r.min}-${r.max}`)
    .max(r.max, `must be ${r.min}-${r.max}`)
    .default(r.default);

const port = z.number().int().min(1, 'port must be 1-65535').max(65535, 'port must be 1-65535');

/** Fields of the base settings the browser may read and write. Secrets live elsewhere. */
export const baseSettingsSchema = z.object({
  adminPort: port.default(DEFAULT_ADMIN_PORT),
  adminAccount: z.string().trim().min(1, 'account cannot be empty').max(64).default('666'),
  allowInternetAccess: z.boolean().default(false),
  /**
   * 100.64.0.0/10 (carrier-grade NAT: other subscribers of the same ISP) counts as LAN only when
   * on, for overlay networks that use it (Tailscale).
   */
  cgnatIsLan: z.boolean().default(false),
  /**
   * Names the admin answers to besides IP literals, localhost and the machine's own names (DNS
   * rebinding defence: a request whose Host is anything else is refused). `*.example.com` covers
   * one label below.
   */
  adminHostNames: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .transform((s) => (s.endsWith('.') ? s.slice(0, -1) : s))
        .refine(isHostName, 'not a host name (letters, digits, - and . ; optional leading *.)'),
    )
    .max(64, 'at most 64 names')
    .default([]),
  /** Peers whose X-Forwarded-For / X-Real-IP headers are believed (IPs or CIDRs). */
  trustedProxies: z.array(z.string().trim().refine(isCidrOrIp, 'not an IP address or CIDR')).max(64).default([]),
  logMaxSize: z.number().int().min(LOG_MAX_SIZE.min).max(LOG_MAX_SIZE.max).default(LOG_MAX_SIZE.default),
  tokenLifetimeHours: z
    .number()
    .int()
    .min(TOKEN_LIFETIME_HOURS.min)
    .max(TOKEN_LIFETIME_HOURS.max)
    .default(TOKEN_LIFETIME_HOURS.default),
  /** Redirect plain-HTTP admin requests to HTTPS on the same port. */
  forceHttps: z.boolean().default(false),
  /** Optional secret path prefix; when set the console answers only under `/<entrance>/`. */
  securityEntrance: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{0,64}$/, 'letters, digits, - and _ only (at most 64)')
    .default(''),
  frontendDisableAutoExpandLeftMenu: z.boolean().default(false),
  httpClientTimeout: z
    .number()
    .int()
    .min(HTTP_CLIENT_TIMEOUT_S.min)
    .max(HTTP_CLIENT_TIMEOUT_S.max)
    .default(HTTP_CLIENT_TIMEOUT_S.default),
  /**
   * IANA zone of every time the console shows and, with scheduled tasks, of their schedules; one
   * of TIME_ZONES. '' (the default) = automatic: the browser's zone on screen, the machine's for
   * schedules.
   */
  timeZone: z
    .string()
    .trim()
    .refine((s) => s === '' || isListedTimeZone(s), 'timeZoneUnknown')
    .default(''),
  aboutHosts: z
    .array(z.string().trim().url('must be an http(s) URL'))
    .length(3, 'exactly three hosts, the first is the default')
    .default([...DEFAULT_ABOUT_HOSTS]),
  /** Login throttling: failures per client address before back-off starts, and the lock-out window. */
  loginMaxFailures: z.number().int().min(3).max(100).default(5),
  loginLockMinutes: z.number().int().min(1).max(1440).default(15),
  /** Open connections to the admin port from one address (IPv6: its /64), and in all (an eighth kept for LAN peers). */
  adminMaxConnsPerAddress: bounded(C.adminMaxConnsPerAddress),
  adminMaxConns: bounded(C.adminMaxConns),
  /** The same over all web service rules of the process. */
  webMaxConnsPerAddress: bounded(C.webMaxConnsPerAddress),
  webMaxConns: bounded(C.webMaxConns),
  /** Seconds for a TLS handshake, and for a whole request head (admin and web service). */
  handshakeTimeout: bounded(C.handshakeTimeout),
  headerTimeout: bounded(C.headerTimeout),
});
export type BaseSettings = z.infer<typeof baseSettingsSchema>;

/** What GET /api/baseconfigure answers: settings plus read-only facts, never secrets. */
export interface BaseConfigureView extends BaseSettings {
  passwordIsDefault: boolean;
  twoFAEnable: boolean;
  /**
   * The port given with `-p` for this run, else null. It overrides `adminPort` (the saved
   * setting, used when the program starts without the flag).
   */
  portOverride: number | null;
}

/** PUT /api/baseconfigure: settings, plus an optional password change. */
export const baseConfigurePutSchema = baseSettingsSchema.partial().extend({
  newPassword: z.string().min(6, 'password must have at least 6 characters').max(128).optional(),
  /** Required to change the account or the password. */
  currentPassword: z.string().max(128).optional(),
});
export type BaseConfigurePut = z.infer<typeof baseConfigurePutSchema>;

export const loginSchema = z.object({
  Account: z.string().trim().min(1, 'account cannot be empty').max(64),
  Password: z.string().min(1, 'password cannot be empty').max(128),
  TwoFACode: z.string().trim().max(32).optional(),
});

export const apiTokenCreateSchema = z.object({
  name: z.string().trim().min(1, 'name cannot be empty').max(64),
  /** A token outlives the session that makes it, so making one needs the password. */
  currentPassword: z
    .string({ error: 'enter the current password to create a token' })
    .min(1, 'enter the current password to create a token')
    .max(128),
});

export const twoFAEnableSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'enter the 6-digit code'),
});
export const twoFADisableSchema = z.object({
  password: z.string().min(1, 'password cannot be empty').max(128),
});

export { isIp };
