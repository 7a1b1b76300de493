import type { StunLogCode, StunRule } from '@lucky/shared';
import type { RuleLogLevel } from '../../core/logs/ruleLog.js';
import type { ListsSubscribe } from '../../core/safe/recheck.js';
import type { Channel } from './channel.js';
import type { Endpoint, Mapping } from './mapping.js';

/** What a mapping needs from its rule: settings read live, the log, timers, and where to report. */
export interface MappingHost {
  rule(): StunRule;
  channel(): Channel;
  /** The rule's STUN servers, or the global list, last good one first. */
  servers(): string[];
  /** Remember which server answered, so the next check asks it first. */
  serverWorked(server: string): void;
  keepAliveUrl(): string;
  heartbeatMs(): number;
  retrySec(): number;
  timeoutMs(): number;
  line(level: RuleLogLevel, code: StunLogCode, params: Record<string, unknown>): void;
  /**
   * The global security lists (ctx.safe.admits): may a client at `ip` open a forwarded connection
   * or UDP session? Asked first, before a byte is read; the lists log their own refusals.
   */
  admits(ip: string): boolean;
  /** The lists' change notice (ctx.safe.onChange): the forwarders ask `admits` again for what they hold open. */
  onListsChange?: ListsSubscribe;
  addressChanged(mapping: Mapping, previous: Endpoint | undefined): void;
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
  signal: AbortSignal;
}
