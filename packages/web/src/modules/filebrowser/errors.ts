// Failures of the file manager's calls in the user's language: `filebrowser.err_<code>` for the
// module's codes (storage failures included, as `storage_<code>`), the generic wording otherwise.
import { FILEBROWSER_MESSAGES, type FilebrowserIssueCode, GENERIC_ISSUE_MESSAGES } from '@lucky/shared';
import { callErrorText, codedIssueOf, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';

export const isIssueCode = (c: unknown): c is FilebrowserIssueCode =>
  typeof c === 'string' && (Object.hasOwn(FILEBROWSER_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'filebrowser', issue));
}

/** A coded reason of a batch item or an upload (`{code, params, text}`) in the user's language. */
export function codedText(
  r: { code?: string; params?: Record<string, unknown>; text: string } | undefined,
  t: Translate,
): string {
  if (!r) return '';
  if (r.code && isIssueCode(r.code))
    return failureText(t, 'filebrowser', { field: '', code: r.code, params: r.params ?? {}, msg: r.text });
  return r.text;
}

/** The module's code of a refused call (`changedOnDisk`, `storage_exists` …), if it named one. */
export function issueCodeOf(err: unknown): FilebrowserIssueCode | undefined {
  return codedIssueOf(err, isIssueCode)?.code;
}
