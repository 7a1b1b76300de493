// The module's own checks, beyond what its schemas say: the PEM material of a rule (node:crypto,
// so not in the shared schema) and the checks across rules (the proxy count over all rules, two
// rules on one port). A refusal names the field, code and params in the module's vocabulary.
import tls from 'node:tls';
import {
  checkPortforwardRules,
  type PortforwardConfig,
  type PortforwardIssueCode,
  type PortforwardRule,
  portforwardIssues,
  proxyCount,
} from '@lucky/shared';
import { type ApiFailure, fieldFailure } from '../../core/http/reply.js';

/** HTTP status of the codes that are not plain bad input. */
const STATUS: Partial<Record<PortforwardIssueCode, number>> = { portConflict: 409, ruleNotFound: 404 };

/** A refusal on `field` with the module's code and its English text. */
export function refuse(field: string, code: PortforwardIssueCode, params: Record<string, unknown> = {}): ApiFailure {
  return fieldFailure({ field, code, params, msg: portforwardIssues.describe(code, params) }, STATUS[code] ?? 400);
}

type TlsFields = Pick<PortforwardRule, 'tlsMode' | 'tlsCert' | 'tlsKey' | 'tlsCa'>;

/** PEM that node can use: a pasted certificate with its key, an extra CA. */
export function checkRuleTls(rule: TlsFields): { field: string; code: PortforwardIssueCode } | undefined {
  if (rule.tlsMode === 'terminate' && rule.tlsCert.trim()) {
    if (!rule.tlsKey.trim()) return { field: 'tlsKey', code: 'tlsKeyRequired' };
    try {
      tls.createSecureContext({ cert: rule.tlsCert, key: rule.tlsKey });
    } catch {
      return { field: 'tlsCert', code: 'tlsPairInvalid' };
    }
  }
  if (rule.tlsMode === 'originate' && rule.tlsCa.trim()) {
    try {
      tls.createSecureContext({ ca: rule.tlsCa });
      if (!rule.tlsCa.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no certificate');
    } catch {
      return { field: 'tlsCa', code: 'tlsCaInvalid' };
    }
  }
  return undefined;
}

const totalProxies = (c: PortforwardConfig) => c.rules.reduce((n, r) => n + proxyCount(r), 0);

/**
 * Checks a change before it is saved (`next` with its stored secrets in place). `focus` is the
 * rule being changed: its TLS material, and the conflicts it takes part in, are reported with
 * the rule's own field names; without it (global settings) the proxy count is reported on
 * `ruleLimit`. Problems among other rules that this change did not cause do not block it, and
 * an edit that does not add proxies is never refused for the count (a hand-edited file may be
 * over it).
 */
export function checkChange(next: PortforwardConfig, prev: PortforwardConfig, focus?: string): void {
  const rule = focus === undefined ? undefined : next.rules.find((r) => r.key === focus);
  if (rule) {
    const tlsIssue = checkRuleTls(rule);
    if (tlsIssue) throw refuse(tlsIssue.field, tlsIssue.code);
  }
  const grows = totalProxies(next) > totalProxies(prev) || next.ruleLimit < prev.ruleLimit;
  for (const issue of checkPortforwardRules(next.rules, next.ruleLimit)) {
    if (issue.code === 'ruleLimitExceeded') {
      if (grows) throw refuse(focus === undefined ? 'ruleLimit' : issue.field, issue.code, issue.params);
    } else if (focus !== undefined && (issue.ruleKey === focus || issue.otherKey === focus)) {
      throw refuse(issue.field, issue.code, issue.params);
    }
  }
}
