import {
  maskSecrets,
  STUN_SECRETS,
  type StunConfig,
  type StunMappingView,
  type StunRule,
  type StunRuleView,
  type StunSettings,
  type StunSummary,
} from '@lucky/shared';
import type { StunRuntime } from './runtime.js';

/** A rule's secrets, by path inside the rule (the keyed-list routes mask and keep them). */
export const RULE_SECRETS = STUN_SECRETS.filter((p) => p.startsWith('rules.*.')).map((p) =>
  p.replace(/^rules\.\*\./, ''),
);
const SETTINGS_SECRETS = STUN_SECRETS.filter((p) => !p.startsWith('rules.'));

export function summaryView(config: StunConfig, rt: StunRuntime | undefined): StunSummary {
  if (rt) return rt.summary(config);
  return { enabled: config.enabled, rules: config.rules.length, open: 0, broken: 0 };
}

/** The global settings as read (without the rules; the webhook's secrets masked). */
export function settingsView({ rules: _rules, ...settings }: StunConfig): StunSettings {
  return maskSecrets(settings, SETTINGS_SECRETS);
}

/** What a rule's mappings read as while nothing runs them. */
function idleMappings(rule: StunRule): StunMappingView[] {
  return rule.protocols.map((protocol) => ({
    protocol,
    state: 'stopped',
    since: 0,
    localAddress: rule.channelIp || '0.0.0.0',
    localPort: rule.localPort,
    changes: 0,
    portMaps: [],
    connections: 0,
    bytesIn: 0,
    bytesOut: 0,
    rateIn: 0,
    rateOut: 0,
  }));
}

/**
 * A rule (its secrets already masked) with its live mappings; a rule that is off, or of a module
 * that is off, reads as such.
 */
export function ruleView(rule: StunRule, rt: StunRuntime | undefined): StunRuleView {
  const runner = rt?.rule(rule.key);
  if (!runner) {
    return {
      ...rule,
      state: rule.enabled ? 'stopped' : 'disabled',
      ...(rule.enabled && !rt ? { reason: { code: 'moduleDisabled' }, error: 'STUN module disabled' } : {}),
      mappings: idleMappings(rule),
      lastLogs: [],
      webhookHistory: [],
    };
  }
  return { ...rule, ...runner.view() };
}
