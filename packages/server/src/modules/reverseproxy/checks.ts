// The web service's own checks across rules (the schemas check each field; the port registry
// checks ports against other modules and the admin port).
import {
  type FieldIssue,
  isIpv4,
  type ReverseproxyConfig,
  type ReverseproxyRule,
  reverseproxyIssues,
} from '@lucky/shared';

const unbracket = (a: string) => a.replace(/^\[|\]$/g, '');

/** The address families a rule's socket takes: its literal's, else its network type's. */
function familiesOf(r: ReverseproxyRule): (4 | 6)[] {
  const a = unbracket(r.address);
  if (a) return [isIpv4(a) ? 4 : 6];
  return r.network === 'tcp4' ? [4] : r.network === 'tcp6' ? [6] : [4, 6];
}

/**
 * Another enabled rule that listens where rule `key` would (same port, same address or either
 * on every address, an address family in common: an IPv4-only and an IPv6-only rule may share
 * a port), named on the rule's `port` field.
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
      (unbracket(o.address) === at || o.address === '' || at === '') &&
      familiesOf(o).some((f) => familiesOf(rule).includes(f)),
  );
  if (!clash) return undefined;
  const params = { rule: clash.name || clash.key };
  return { field: 'port', code: 'portConflict', params, msg: reverseproxyIssues.describe('portConflict', params) };
}
