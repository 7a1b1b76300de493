// What the GET routes answer (types in shared/modules/reverseproxy.ts): a rule as stored with
// its secrets masked, its live status and each site's newest log lines.
import {
  maskSecrets,
  REVERSEPROXY_DEFAULT_SITE,
  REVERSEPROXY_SECRETS,
  type ReverseproxyRule,
  type ReverseproxyRuleStatus,
  type ReverseproxyRuleView,
  reverseproxyReason,
} from '@lucky/shared';
import type { ReverseproxyRuntime } from './runtime.js';
import { maskFreeText } from './secrets.js';

/** The whole-value secret paths relative to one rule. */
const RULE_SECRETS = REVERSEPROXY_SECRETS.map((p) => p.replace(/^rules\.\*\./, ''));

/** A rule's state when no runtime runs it: the module is off (or not started). */
function idleStatus(rule: ReverseproxyRule, moduleOn: boolean): ReverseproxyRuleStatus {
  if (!rule.enabled) return { state: 'disabled', warnings: [] };
  return moduleOn
    ? { state: 'stopped', warnings: [] }
    : { state: 'stopped', reason: reverseproxyReason('moduleDisabled'), warnings: [] };
}

export function ruleView(
  rule: ReverseproxyRule,
  rt: ReverseproxyRuntime | undefined,
  moduleOn: boolean,
): ReverseproxyRuleView {
  const masked = maskSecrets(rule, RULE_SECRETS);
  const lastLogs: ReverseproxyRuleView['lastLogs'] = {};
  const sites = [
    { key: REVERSEPROXY_DEFAULT_SITE, show: rule.defaultRule.log.showLatest },
    ...rule.subRules.map((x) => ({ key: x.key, show: x.log.showLatest })),
  ];
  for (const site of sites) lastLogs[site.key] = rt?.log(rule.key, site.key)?.newest(site.show) ?? [];
  return {
    ...masked,
    defaultRule: maskFreeText(masked.defaultRule),
    subRules: masked.subRules.map(maskFreeText),
    status: rt?.ruleStatus(rule.key) ?? idleStatus(rule, moduleOn),
    lastLogs,
  };
}
