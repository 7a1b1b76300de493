// The one way the UI turns a server's coded text (field issues, runtime reasons, log lines,
// status notes) into the user's language. Keys are flat per module, one prefix per kind:
// `<ns>.err_<code>` (field issues), `<ns>.reason_<code>` (states and runtime errors),
// `<ns>.log_<code>` (log lines); then the program-wide `errors.<code>`, then the generic field
// codes `common.err_<code>` (tooSmall, tooBig, …), then the server's English text (a code this
// build does not know yet).
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
export function codedKey(ns: string, kind: CodedKind, code: string): string | undefined {
  return [`${ns}.${kind}_${code}`, `errors.${code}`, `common.err_${code}`].find((k) => i18n.exists(k));
}

export function codedText(ns: string, kind: CodedKind, c: CodedLike): string {
  const fallback = c.text ?? c.msg ?? c.code ?? '';
  const key = c.code ? codedKey(ns, kind, c.code) : undefined;
  return key ? i18n.t(key, codedParams(c.params)) : fallback;
}
