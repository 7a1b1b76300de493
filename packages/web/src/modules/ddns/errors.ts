// Failures of the DDNS calls in the user's language. The server names a stable code
// (`DDNS_MESSAGES`) with its numbers and the field; the form's own check runs the same shared
// schema and produces the same codes, so both read the same `ddns.err_<code>` texts (the
// webhook's codes, which DDNS's templates share, read `webhook.err_<code>`: i18n/coded.ts).
import { DDNS_MESSAGES, type DdnsErrorCode } from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';
import { codedKey } from '../../i18n/coded';

export { errorDuration, type Translate } from '../../api/callErrors';

export interface Issue {
  code: DdnsErrorCode;
  params?: Record<string, unknown>;
}

/** A problem with the field it belongs to (the server's path, e.g. `ipSource.urls.1`). */
export interface FieldIssue extends Issue {
  field: string;
}

export const isIssueCode = (c: unknown): c is DdnsErrorCode => typeof c === 'string' && Object.hasOwn(DDNS_MESSAGES, c);

/** The spec's range messages (§5) for the numbers that have one. */
const RANGE_KEYS: Record<string, string> = {
  forceInterval: 'err_rangeForceInterval',
  firstCheckDelay: 'err_rangeFirstCheckDelay',
  interval: 'err_rangeInterval',
  httpTimeout: 'err_rangeTimeout',
  'webhook.timeout': 'err_rangeTimeout',
};

const PROVIDER_CODES = new Set<DdnsErrorCode>(['idRequired', 'secretRequired', 'serverRequired']);

export function issueText(t: Translate, { code, params = {} }: Issue, field = ''): string {
  if (code === 'tooSmall' || code === 'tooBig') {
    const range = RANGE_KEYS[field];
    if (range) return t(`ddns.${range}`);
  }
  const vars: Record<string, unknown> = { min: '?', max: '?', values: '', provider: '', ...params };
  if (Array.isArray(params.values)) vars.values = params.values.join(', ');
  if (PROVIDER_CODES.has(code) && typeof params.provider === 'string')
    vars.provider = t(`ddns.provider_${params.provider}`);
  return t(codedKey('ddns', 'err', code) ?? `ddns.err_${code}`, vars);
}

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => issueText(t, issue, issue.field));
}

/** A whole number in the range; the message is the spec's own for that field (`ddns.err_range…`). */
export function rangeRule(t: Translate, range: { min: number; max: number }, key: string) {
  return {
    validator: (_: unknown, value: unknown) =>
      typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max
        ? Promise.resolve()
        : Promise.reject(new Error(t(`ddns.${key}`))),
  };
}
