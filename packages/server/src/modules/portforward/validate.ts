import {
  checkPortforwardRules,
  describePortforwardCode,
  type PortforwardConfig,
  type PortforwardErrorCode,
  type PortforwardIssue,
  portforwardConfigSchema,
  portforwardIssue,
  proxyCount,
} from '@lucky/shared';
import type { ZodType } from 'zod';
import { ApiFailure } from '../../core/http/reply.js';
import { checkRuleTls } from './ruleTls.js';

/** A validation failure as the API answers it: `{ret:1, msg, field, code, params}`. */
export function invalid(issue: PortforwardIssue, status = 400): ApiFailure {
  return new ApiFailure(status, 1, issue.field ? `${issue.field}: ${issue.msg}` : issue.msg, issue.field || undefined, {
    code: issue.code,
    params: issue.params,
  });
}

/** HTTP status of the codes that are not plain bad input. */
const STATUS: Partial<Record<PortforwardErrorCode, number>> = { portConflict: 409, ruleNotFound: 404 };

export function issueOf(field: string, code: PortforwardErrorCode, params: Record<string, unknown> = {}) {
  return invalid({ field, code, params, msg: describePortforwardCode(code, params) }, STATUS[code] ?? 400);
}

/** Parse request input with a shared schema; the first problem becomes a field + code answer. */
export function parseInput<T>(schema: ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  throw invalid(portforwardIssue(r.error.issues[0]));
}

/**
 * Checks a whole new config before anything is saved: the schema, the focus rule's TLS material,
 * the proxy count and listen-port conflicts. `focus` is the rule being changed (its problems are
 * reported with the rule's own field names); without it (global settings) the limit is reported
 * on `ruleLimit`. Problems among other rules that this change did not cause do not block it.
 */
export function validateConfig(next: PortforwardConfig, prev: PortforwardConfig, focus?: string): PortforwardConfig {
  const parsed = portforwardConfigSchema.safeParse(next);
  if (!parsed.success) {
    const issue = portforwardIssue(parsed.error.issues[0]);
    const index = focus === undefined ? -1 : next.rules.findIndex((r) => r.key === focus);
    const prefix = `rules.${index}.`;
    if (index >= 0 && issue.field.startsWith(prefix)) issue.field = issue.field.slice(prefix.length);
    throw invalid(issue);
  }
  const config = parsed.data;
  const rule = focus === undefined ? undefined : config.rules.find((r) => r.key === focus);
  if (rule) {
    const tls = checkRuleTls(rule);
    if (tls) throw issueOf(tls.field, tls.code);
  }
  // An edit that does not add proxies is never refused for the count (a hand-edited file may be over it).
  const grows = totalProxies(config) > totalProxies(prev) || config.ruleLimit < prev.ruleLimit;
  for (const issue of checkPortforwardRules(config.rules, config.ruleLimit)) {
    if (issue.code === 'ruleLimitExceeded') {
      if (grows) throw issueOf(focus === undefined ? 'ruleLimit' : issue.field, issue.code, issue.params);
    } else if (focus !== undefined && (issue.ruleKey === focus || issue.otherKey === focus)) {
      throw issueOf(issue.field, issue.code, issue.params);
    }
  }
  return config;
}

const totalProxies = (c: PortforwardConfig) => c.rules.reduce((n, r) => n + proxyCount(r), 0);
