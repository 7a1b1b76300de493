// Failures of the port-forwarding calls in the user's language. The server
// names a stable code (`PORTFORWARD_MESSAGES`) with its numbers and the field;
// the form checks produce the same codes, so both read the same
// `portforward.err_<code>` texts.
import { GENERIC_ISSUE_MESSAGES, PORTFORWARD_MESSAGES, type PortforwardErrorCode } from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';

export { errorDuration, type Translate } from '../../api/callErrors';

export interface Issue {
  code: PortforwardErrorCode;
  params?: Record<string, unknown>;
}

/** A problem with the form field it belongs to (the server's path, e.g. `targetAddresses.1`). */
export interface FieldIssue extends Issue {
  field: string;
}

export const isIssueCode = (c: unknown): c is PortforwardErrorCode =>
  typeof c === 'string' && (Object.hasOwn(PORTFORWARD_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** Placeholders every message may use, so a missing number never shows `{{…}}`. */
const BLANKS = { token: '', count: '?', limit: '?', port: '?', protocol: '', rule: '', min: '?', max: '?', values: '' };

const TOKEN_CODES = new Set<PortforwardErrorCode>([
  'portListInvalid',
  'portListDuplicate',
  'targetAddressInvalid',
  'accessListInvalid',
]);

export function issueText(t: Translate, { code, params = {} }: Issue): string {
  const vars: Record<string, unknown> = { ...BLANKS, ...params };
  if (Array.isArray(params.values)) vars.values = params.values.join(', ');
  if (typeof vars.protocol === 'string') vars.protocol = vars.protocol.toUpperCase();
  // Codes that can name the bad entry have a second text for when they do not.
  const key = TOKEN_CODES.has(code) && !params.token ? `${code}Plain` : code;
  return t(`portforward.err_${key}`, vars);
}

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => issueText(t, issue));
}
