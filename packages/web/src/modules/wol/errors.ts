// Failures of the Wake-on-LAN calls in the user's language. The server names a stable code
// (`WOL_MESSAGES`, or a generic one) with its params and the field; the dialog's own check runs the
// same shared schema and produces the same codes, so both read the same `wol.err_<code>` texts.
// Why a wake, a shutdown or a check failed reads `wol.reason_<code>` (i18n/coded.ts).
import { type CodedText, GENERIC_ISSUE_MESSAGES, WOL_MESSAGES, type WolIssueCode } from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';
import { codedTextWithCauses } from '../../i18n/coded';

export { errorDuration, type Translate } from '../../api/callErrors';

export const isIssueCode = (c: unknown): c is WolIssueCode =>
  typeof c === 'string' && (Object.hasOwn(WOL_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'wol', issue));
}

/** A reason the server gave (a wake, a shutdown), in the user's language with its detail. */
export function reasonText(reason: CodedText | undefined): string {
  return codedTextWithCauses('wol', 'reason', reason);
}
