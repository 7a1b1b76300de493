// Failures of the WebDAV calls in the user's language: the server names a stable code
// (`WEBDAV_MESSAGES`, or a generic one) with its numbers and the field; the forms read the same
// `webdav.err_<code>` texts through the one form-error wording (useFormErrors' failureText).
import { GENERIC_ISSUE_MESSAGES, WEBDAV_MESSAGES, type WebdavErrorCode } from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';

export const isIssueCode = (c: unknown): c is WebdavErrorCode =>
  typeof c === 'string' && (Object.hasOwn(WEBDAV_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'webdav', issue));
}
