// The one way the UI turns a server's coded text (field issues, runtime reasons, log lines,
// status notes) into the user's language. Keys are flat per module, one prefix per kind:
// `<ns>.err_<code>` (field issues), `<ns>.reason_<code>` (states and runtime errors),
// `<ns>.log_<code>` (log lines); then the namespaces of the core pieces modules share
// (`webhook.<kind>_<code>`: a module's webhook speaks the webhook's codes), then the program-wide
// `errors.<code>`, then the generic field codes `common.err_<code>` (tooSmall, tooBig, …), then
// the server's English text (a code this build does not know yet).
import i18n from 'i18next';

export interface CodedLike {
  code?: string;
  params?: Record<string, unknown>;
  /** English text from the server. */
  text?: string;
  msg?: string;
}

export type CodedKind = 'err' | 'reason' | 'log';

/** Params as i18next interpolates them: lists joined, so `{{values}}` reads "a, b". */
export function codedParams(params: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The locale key that names this code, if the loaded language has one. */
/** Namespaces of core pieces whose codes every module may answer with (shared contract/webhook.ts). */
export const SHARED_CODED_NAMESPACES = ['webhook'] as const;

export function codedKey(ns: string, kind: CodedKind, code: string): string | undefined {
  return [
    `${ns}.${kind}_${code}`,
    ...SHARED_CODED_NAMESPACES.map((shared) => `${shared}.${kind}_${code}`),
    `errors.${code}`,
    `common.err_${code}`,
  ].find((k) => i18n.exists(k));
}

export function codedText(ns: string, kind: CodedKind, c: CodedLike): string {
  const fallback = c.text ?? c.msg ?? c.code ?? '';
  const key = c.code ? codedKey(ns, kind, c.code) : undefined;
  return key ? i18n.t(key, codedParams(c.params)) : fallback;
}

const isCoded = (v: unknown): v is CodedLike =>
  typeof v === 'object' && v !== null && typeof (v as CodedLike).code === 'string';

/**
 * A coded text that may say why, worded as the server's English (shared `englishWithCauses`): a
 * param that is itself coded is worded first; `cause` (the reasons behind this one) and `detail`
 * (a server's answer, a system error) follow the text. The server's English for a code this build
 * does not know.
 */
export function codedTextWithCauses(ns: string, kind: CodedKind, c: CodedLike | undefined): string {
  if (!c) return '';
  if (!c.code || !codedKey(ns, kind, c.code)) return c.text ?? c.msg ?? c.code ?? '';
  const { cause, detail, ...rest } = c.params ?? {};
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) params[k] = isCoded(v) ? codedTextWithCauses(ns, 'reason', v) : v;
  const causes = ([] as unknown[]).concat(cause ?? []).filter(isCoded);
  const tail = [
    causes.map((x) => codedTextWithCauses(ns, 'reason', x)).join(i18n.t('common.listSep')),
    typeof detail === 'string' ? detail : '',
  ].filter(Boolean);
  return [codedText(ns, kind, { code: c.code, params }), ...tail].join(i18n.t('common.textSep'));
}
