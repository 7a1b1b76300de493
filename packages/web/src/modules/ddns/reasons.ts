// What the DDNS runtime says (domain statuses, IP errors, webhook results, task log lines) in the
// user's language: the one coded-text helper (i18n/coded.ts) with its `cause` and `detail` params,
// as the server's English does (shared DDNS_REASONS; a webhook's reasons are the webhook's own).
import type { CodedText } from '@lucky/shared';
import { type CodedKind, type CodedLike, codedTextWithCauses } from '../../i18n/coded';

/** A coded line of this module in the UI language; the server's English for a code this build does not know. */
export const ddnsText = (kind: CodedKind, c: CodedLike | undefined): string => codedTextWithCauses('ddns', kind, c);

/** A reason (domain status, IP error, webhook result), '' for none. */
export const ddnsReasonText = (r: CodedText | undefined): string => ddnsText('reason', r);
