// What a control session needs of the server around it: the live settings, logins, the user's
// mounts and the storages, TLS, the passive port range, the log. The engine implements it; the
// commands see only this, so they can be read (and tested) without the module around them.
import type { FtpTlsMode } from '@lucky/shared';
import type { Storage } from '../../../core/storage/types.js';
import type { PassivePorts } from './passive.js';
import type { TlsSource } from './tls.js';
import type { VisibleMount } from './virtualFs.js';

/** The settings a session reads at each use (a reload applies to the next command). */
export interface SessionSettings {
  tlsMode: FtpTlsMode;
  idleTimeoutMs: number;
  loginTimeoutMs: number;
  /** '' = the control connection's local address. */
  announceAddress: string;
  announceForLan: boolean;
}

/** Fixed limits of the protocol engine (the tests shorten the time-outs). */
export interface EngineLimits {
  /** Longest command line kept (longer ones are answered 500 and dropped as they arrive). */
  lineMax: number;
  /** Commands per second a session may send, and the burst above it; more are read later. */
  commandRate: number;
  commandBurst: number;
  /** Failed PASS before the connection is closed. */
  maxLoginFailures: number;
  /** Pause before a failed login's 530 (slows guessing on one connection). */
  failDelayMs: number;
  /** The client must open a passive data connection this soon. */
  dataConnectMs: number;
  /** A TLS handshake (control or data) must be done this soon. */
  handshakeMs: number;
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  lineMax: 4096,
  // A mirror of many small files sends a handful of commands per file; a flood of cheap commands
  // is slowed here (reading waits), never answered faster than this.
  commandRate: 500,
  commandBurst: 1000,
  maxLoginFailures: 3,
  failDelayMs: 1000,
  dataConnectMs: 30_000,
  handshakeMs: 10_000,
};

export interface LoggedIn {
  /** The user's key ('' for anonymous). */
  key: string;
  name: string;
  anonymous: boolean;
}

export type LoginResult =
  | { ok: true; user: LoggedIn }
  | { ok: false; reason: 'bad' | 'locked' | 'busy'; retryAfterMs?: number };

export type LogLevel = 2 | 3 | 4 | 5;

export interface SessionHost {
  readonly limits: EngineLimits;
  settings(): SessionSettings;
  login(ip: string, name: string, password: string): Promise<LoginResult>;
  mountsOf(user: LoggedIn): readonly VisibleMount[];
  storage(key: string): Storage | undefined;
  /** Whether AUTH TLS can be offered now (a certificate is stored). */
  tlsReady(): boolean;
  tls: TlsSource;
  passive: PassivePorts;
  isLan(ip: string): boolean;
  /** The global security lists (ctx.safe): may `ip` still connect (a guess may just have banned it)? */
  admits(ip: string): boolean;
  /** An announced host name resolved to IPv4 (undefined: not resolvable now). */
  resolveAnnounce(host: string): Promise<string | undefined>;
  log(level: LogLevel, code: string, params: Record<string, unknown>): void;
  /** Bytes moved, for the server's totals. */
  countBytes(dir: 'in' | 'out', n: number): void;
  loginCounted(ok: boolean): void;
  /** A data TLS handshake resumed the control session (counted for the status and the tests). */
  dataTlsResumed(): void;
}
