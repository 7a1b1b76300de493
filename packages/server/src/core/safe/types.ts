// The global security lists as every listener sees them (shared/src/safe.ts has the rules and the
// config). One gate for the process, built by the core; a module gets it bound to its own key as
// `ctx.safe`, the admin listener uses the scope `admin`.
import type { SafeDecisionRule, SafeEntry, SafeFailureSource, SafeScope } from '@lucky/shared';

export interface SafeDecision {
  allowed: boolean;
  rule: SafeDecisionRule;
  /** The list entry that decided (`block`, `allow`). */
  entry?: SafeEntry;
}

/** The process-wide gate (core/safe). */
export interface SafeGate {
  /** The whole decision for `ip` at `scope` (the test button; refusal logs). */
  decide(ip: string, scope: SafeScope): SafeDecision;
  /**
   * At accept (a TCP connection, a new UDP session, an FTP control connection): may `ip` in?
   * Cheap enough for every connection; a refusal is logged once per address and minute.
   */
  admits(ip: string, scope: SafeScope): boolean;
  /** One failed authentication from `ip` (auto-ban counts it; a LAN address only with `banLan`). */
  failure(ip: string, source: SafeFailureSource): void;
  /**
   * Tells `cb` when a decision may have changed (lists saved, a ban added / lifted / ended), on a
   * later turn of the event loop; returns the unsubscribe. Listeners ask `admits` again for what
   * they hold open (safe/recheck.ts).
   */
  onChange(cb: () => void): () => void;
}

/** What a module gets as `ctx.safe`: the gate bound to its own key. */
export interface ModuleSafe {
  /** May `ip` connect to one of this module's listeners? Call at accept, before reading a byte. */
  admits(ip: string): boolean;
  /** A failed authentication of one of this module's users from `ip` (auto-ban). */
  failure(ip: string): void;
  /**
   * The lists may decide otherwise now: ask `admits` again for every open connection / session and
   * close the refused ones (safe/recheck.ts `watchLists`). Returns the unsubscribe; whatever is
   * still subscribed when the module stops is unsubscribed by the supervisor.
   */
  onChange(cb: () => void): () => void;
}
