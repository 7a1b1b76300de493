// The messages between the server process and a web service helper process (helperPool.ts,
// helperMain.ts), over node's IPC channel. Connections travel as the message's handle.
import type { ReverseproxyRule } from '@lucky/shared';
import type { CertRecord } from '../../core/certs/schema.js';
import type { RuleLogLevel } from '../../core/logs/ruleLog.js';

export type ToHelper =
  /** The admin port and relay secret (core/http/adminRelay.ts), so a helper hands the real client on too. */
  | { t: 'relay'; port: number; secret: string }
  /** The enabled certificates (keys included: the helper terminates TLS too). */
  | { t: 'certs'; certs: CertRecord[] }
  /** The ACME HTTP-01 board's tokens and key authorizations (core/certs/challenges.ts), whole. */
  | { t: 'challenges'; entries: [string, string][] }
  /** A rule the helper may get connections for (new or changed). */
  | { t: 'rule'; rule: ReverseproxyRule }
  /** The rule stopped listening here: close its connections and forget it. */
  | { t: 'drop'; key: string }
  /** A connection of rule `key`, as the handle of this message. */
  | { t: 'conn'; key: string }
  /** The security lists changed: answer `peers` with the client addresses of the open connections. */
  | { t: 'recheck' }
  /** Of the `peers` sent, these the lists refuse now: reset their connections. */
  | { t: 'refused'; ips: string[] }
  /** Finish: close every connection and exit. */
  | { t: 'exit' };

/** One log line: rule key, site key (sub rule or `default`), level, text, time (ms), and its code + params when coded. */
export type RelayedLine = [string, string, RuleLogLevel, string, number, string?, Record<string, unknown>?];

/** A rule's figures in one helper since it got the rule: bytes in, bytes out, requests, open connections. */
export type HelperTraffic = [number, number, number, number];

export type FromHelper =
  | { t: 'ready' }
  /** The answer to `recheck`: each client address with a connection open here, once. */
  | { t: 'peers'; ips: string[] }
  /**
   * Log lines since the last report, the connections the helper has open now, its figures per rule
   * key, and the client addresses of wrong basic-auth credentials since then, one per failure
   * (auto-ban of the security lists counts them in the server process).
   */
  | {
      t: 'report';
      lines: RelayedLine[];
      connections: number;
      traffic: Record<string, HelperTraffic>;
      authFailures?: string[];
    };
