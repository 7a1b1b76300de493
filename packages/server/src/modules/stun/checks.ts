// The module's checks beyond its schema: local ports across rules (two rules cannot keep the
// same protocol's mapping from one local port). A refusal names the field, code and params in
// the module's vocabulary.
import { type StunConfig, type StunIssueCode, stunIssues } from '@lucky/shared';
import { type ApiFailure, fieldFailure } from '../../core/http/reply.js';

const STATUS: Partial<Record<StunIssueCode, number>> = { localPortTaken: 409, ruleNotFound: 404, moduleDisabled: 409 };

export function refuse(
  field: string,
  code: StunIssueCode,
  params: Record<string, unknown> = {},
  status = STATUS[code] ?? 400,
): ApiFailure {
  return fieldFailure({ field, code, params, msg: stunIssues.describe(code, params) }, status);
}

/** Refuses a config where two enabled rules hold the same local port for one protocol. */
export function checkChange(next: StunConfig, focus?: string): void {
  const owner = new Map<string, string>();
  const order = [...next.rules].sort((a, b) => Number(a.key === focus) - Number(b.key === focus));
  for (const rule of order) {
    if (!rule.enabled || rule.localPort === 0) continue;
    for (const protocol of rule.protocols) {
      const id = `${protocol}:${rule.localPort}`;
      const other = owner.get(id);
      if (other !== undefined)
        throw refuse('localPort', 'localPortTaken', {
          protocol: protocol.toUpperCase(),
          port: rule.localPort,
          rule: other,
        });
      owner.set(id, rule.name);
    }
  }
}
