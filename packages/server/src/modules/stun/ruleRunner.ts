import type { StunRuleView } from '@lucky/shared';
import type { RuleLog } from '../../core/logs/ruleLog.js';

/** One enabled rule at work: its mappings, port maps, notifications and log. */
export interface RuleRunner {
  readonly log: RuleLog;
  view(): Omit<StunRuleView, keyof import('@lucky/shared').StunRule>;
}
