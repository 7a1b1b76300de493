// What the DDNS runtime says (domain statuses, IP errors, webhook results, task log lines) in the
// user's language: the one coded-text helper (i18n/coded.ts) with the module's two extra params.
// A param that is itself coded (where an address came from) is worded first; `cause` (the reasons
// behind this one) and `detail` (a provider's answer, a system error) follow the text, as the
// server's English does (shared DDNS_REASONS).
import type { CodedText } from '@lucky/shared';
import i18n from 'i18next';
import { type CodedKind, type CodedLike, codedKey, codedText } from '../../i18n/coded';

const isCoded = (v: unknown): v is CodedLike =>
  typeof v === 'object' && v !== null && typeof (v as CodedLike).code === 'string';

/** A coded line of this module in the UI language; the server's English for a code this build does not know. */
export function ddnsText(kind: CodedKind, c: CodedLike | undefined): string {
  if (!c) return '';
  if (!c.code || !codedKey('ddns', kind, c.code)) return c.text ?? c.msg ?? c.code ?? '';
  const { cause, detail, ...rest } = c.params ?? {};
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) params[k] = isCoded(v) ? ddnsText('reason', v) : v;
  const causes = ([] as unknown[]).concat(cause ?? []).filter(isCoded);
  const tail = [
    causes.map((x) => ddnsText('reason', x)).join(i18n.t('ddns.listSep')),
    typeof detail === 'string' ? detail : '',
  ].filter(Boolean);
  return [codedText('ddns', kind, { code: c.code, params }), ...tail].join(i18n.t('ddns.textSep'));
}

/** A reason (domain status, IP error, webhook result), '' for none. */
export const ddnsReasonText = (r: CodedText | undefined): string => ddnsText('reason', r);
