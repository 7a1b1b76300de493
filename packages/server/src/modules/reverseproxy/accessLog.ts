import type { ReverseproxyRule } from '@lucky/shared';
import type { Logger } from '../../core/logs/logger.js';
import { RuleLog } from '../../core/logs/ruleLog.js';

/** What the handlers write to: a sub rule's RuleLog here, a relay in a helper process (helperMain.ts). */
export type SiteLog = Pick<RuleLog, 'wants' | 'error' | 'warn' | 'info' | 'debug'>;

export interface SiteLogs {
  get(siteKey: string): SiteLog | undefined;
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
