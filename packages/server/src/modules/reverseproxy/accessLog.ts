import { fillTemplate, REVERSEPROXY_LOG, type ReverseproxyLogCode, type ReverseproxyRule } from '@lucky/shared';
import type { Logger } from '../../core/logs/logger.js';
import { RuleLog, type RuleLogLevel } from '../../core/logs/ruleLog.js';

/** What the handlers write to: a sub rule's RuleLog here, a relay in a helper process (helperMain.ts). */
export type SiteLog = Pick<RuleLog, 'wants' | 'error' | 'warn' | 'info' | 'debug' | 'coded'>;

export interface SiteLogs {
  get(siteKey: string): SiteLog | undefined;
}

/**
 * A line in words (refusals, back-end failures): code + params for the UI's translation
 * (`reverseproxy.log_<code>`), the English text made only when the site keeps the level. The
 * access line itself is data (address, method, URL, status, time) and stays plain text: it is
 * written for every request.
 */
export function logLine(
  log: SiteLog | undefined,
  level: RuleLogLevel,
  code: ReverseproxyLogCode,
  params: Record<string, unknown>,
): void {
  if (log?.wants(level)) log.coded(level, code, params, fillTemplate(REVERSEPROXY_LOG[code], params));
}

/**
 * Access and error logs of one rule: a ring per sub rule key (and `default`),
 * sized by that sub rule's settings. Logs of sub rules that are gone are dropped.
 */
export class AccessLogs implements SiteLogs {
  private logs = new Map<string, RuleLog>();

  constructor(private readonly console: Logger) {}

  configure(rule: ReverseproxyRule): void {
    const sites = [{ key: 'default', s: rule.defaultRule }, ...rule.subRules.map((x) => ({ key: x.key, s: x }))];
    const keep = new Set(sites.map((x) => x.key));
    for (const k of [...this.logs.keys()]) if (!keep.has(k)) this.logs.delete(k);
    for (const { key, s } of sites) {
      const opts = { level: s.log.level, capacity: s.log.capacity, toConsole: s.log.toConsole };
      const log = this.logs.get(key);
      if (log) log.configure(opts);
      else this.logs.set(key, new RuleLog(opts, this.console.child(rule.name || rule.key)));
    }
  }

  get(key: string): RuleLog | undefined {
    return this.logs.get(key);
  }
}
