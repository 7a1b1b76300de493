// Failures of the STUN calls in the user's language. The server names a stable code
// (`STUN_MESSAGES`, or a generic one) with its numbers and the field; the dialog's own check runs
// the same shared schema and produces the same codes, so both read the same `stun.err_<code>`
// texts through the one form-error wording (useFormErrors' failureText).
import { GENERIC_ISSUE_MESSAGES, STUN_MESSAGES, type StunErrorCode } from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';

export { errorDuration, type Translate } from '../../api/callErrors';

export const isIssueCode = (c: unknown): c is StunErrorCode =>
  typeof c === 'string' && (Object.hasOwn(STUN_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'stun', issue));
}
