// The web service's own checks across rules (the schemas check each field; the port registry
// checks ports against other modules and the admin port).
import { type FieldIssue, type ReverseproxyConfig, reverseproxyIssues } from '@lucky/shared';

const unbracket = (a: string) => a.replace(/^\[|\]$/g, '');

/**
 * Another enabled rule that listens where rule `key` would (same port, same address or either
 * on every address), named on the rule's `port` field.
 */
export function portConflict(config: ReverseproxyConfig, key: string): FieldIssue<'portConflict'> | undefined {
  const rule = config.rules.find((x) => x.key === key);
  if (!rule?.enabled) return undefined;
  const at = unbracket(rule.address);
  const clash = config.rules.find(
    (o) =>
      o.key !== rule.key &&
      o.enabled &&
      o.port === rule.port &&
      (unbracket(o.address) === at || o.address === '' || at === ''),
  );
  if (!clash) return undefined;
  const params = { rule: clash.name || clash.key };
  return { field: 'port', code: 'portConflict', params, msg: reverseproxyIssues.describe('portConflict', params) };
}
