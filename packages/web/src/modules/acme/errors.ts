// Failures of the ACME calls in the user's language. The server names a stable code
// (`ACME_MESSAGES`, or a generic one) with its numbers and the field; the dialogs' own checks run
// the same shared schemas and rules and produce the same codes, so both read the same
// `acme.err_<code>` texts through the one form-error wording (useFormErrors' failureText).
// A certificate's failed order reads `acme.reason_<code>` (i18n/coded.ts).
import { ACME_MESSAGES, type AcmeCertificateStatus, type AcmeIssueCode, GENERIC_ISSUE_MESSAGES } from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';
import { codedText } from '../../i18n/coded';

export { errorDuration, type Translate } from '../../api/callErrors';

export const isIssueCode = (c: unknown): c is AcmeIssueCode =>
  typeof c === 'string' && (Object.hasOwn(ACME_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'acme', issue));
}

/**
 * Why the last order failed, in the user's language. The reasons carry the CA's or the DNS's own
 * words as `{detail}` inside their text, so the plain coded text (not the one that appends it).
 */
export function reasonText(lastError: AcmeCertificateStatus['lastError']): string {
  return lastError ? codedText('acme', 'reason', lastError) : '';
}
