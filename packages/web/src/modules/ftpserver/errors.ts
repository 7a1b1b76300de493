// Failures of the FTP server calls in the user's language. The server names a stable code
// (`FTPSERVER_MESSAGES`, or a generic one) with its numbers and the field; the dialogs' own checks
// run the same shared schema and produce the same codes, so both read the same
// `ftpserver.err_<code>` texts through the one form-error wording (useFormErrors' failureText).
import { FTPSERVER_MESSAGES, type FtpserverErrorCode, GENERIC_ISSUE_MESSAGES } from '@lucky/shared';
import { callErrorText, failureOf, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';
import { codedKey } from '../../i18n/coded';

export const isIssueCode = (c: unknown): c is FtpserverErrorCode =>
  typeof c === 'string' && (Object.hasOwn(FTPSERVER_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/**
 * What to tell the user about a failed call; undefined when the session ended or the call was
 * cancelled. A program-wide code (the module switch's `portTaken`, naming who holds the port) reads
 * in the UI language too.
 */
export function errorText(err: unknown, t: Translate): string | undefined {
  const failure = failureOf(err);
  if (failure?.code && codedKey('ftpserver', 'err', failure.code)) return failureText(t, 'ftpserver', failure);
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'ftpserver', issue));
}
