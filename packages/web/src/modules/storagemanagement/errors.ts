// Failures of the storage calls in the user's language: the server names a stable code
// (STORAGEMANAGEMENT_MESSAGES, or a generic one) with its params and the field, read as
// `storagemanagement.err_<code>` through the one form-error wording (useFormErrors' failureText).
import { GENERIC_ISSUE_MESSAGES, STORAGEMANAGEMENT_MESSAGES, type StoragemanagementErrorCode } from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';

export const isIssueCode = (c: unknown): c is StoragemanagementErrorCode =>
  typeof c === 'string' && (Object.hasOwn(STORAGEMANAGEMENT_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'storagemanagement', issue));
}
