// Failures of the wanji_admin calls and the reasons a console cannot be read, in the user's
// language: `wanji_admin.err_<code>` for refusals (field issues, and a remote call that failed
// answers its reason's code), `wanji_admin.reason_<code>` for a console's state and a bulk result.
import {
  type CodedText,
  GENERIC_ISSUE_MESSAGES,
  WANJI_ADMIN_MESSAGES,
  type WanjiAdminIssueCode,
  type WanjiBulkResult,
} from '@lucky/shared';
import { callErrorText, type Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';
import { codedTextWithCauses } from '../../i18n/coded';

export type { Translate } from '../../api/callErrors';

export const isIssueCode = (c: unknown): c is WanjiAdminIssueCode =>
  typeof c === 'string' && (Object.hasOwn(WANJI_ADMIN_MESSAGES, c) || Object.hasOwn(GENERIC_ISSUE_MESSAGES, c));

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  return callErrorText(err, isIssueCode, (issue) => failureText(t, 'wanji_admin', issue));
}

/** Why a console cannot be read, in the user's language with the system's detail. */
export function reasonText(reason: CodedText | undefined): string {
  return codedTextWithCauses('wanji_admin', 'reason', reason);
}

/** A bulk result's failure in the user's language. */
export function resultText(r: WanjiBulkResult): string {
  if (!r.code) return r.text ?? '';
  return codedTextWithCauses('wanji_admin', 'reason', { code: r.code, params: r.params, text: r.text });
}
