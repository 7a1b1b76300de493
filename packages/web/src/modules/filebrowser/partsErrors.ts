// Failures of the file manager's calls in the user's language: `filebrowser.err_<code>` for the
// module's codes (storage failures included, as `storage_<code>`), the generic wording otherwise.
import { FILEBROWSER_MESSAGES, type FilebrowserIssueCode, GENERIC_ISSUE_MESSAGES } from '@lucky/shared';
import { callErrorText, codedIssueOf, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';

const isIssueCode = (c: unknown): c is FilebrowserIssueCode =>
  typeof c === 'string' && (Object.hasOwn(FILEBROWSER_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function partsErrorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'filebrowser', issue));
}

/** The module's code of a refused call (`changedOnDisk`, `storage_exists` …), if it named one. */
export function issueCodeOf(err: unknown): FilebrowserIssueCode | undefined {
  return codedIssueOf(err, isIssueCode)?.code;
}
