// The one way the UI turns a server's coded text (field issues, runtime reasons, log lines,
// status notes) into the user's language: `<ns>.<kind>.<code>` filled with the params, then the
// generic `errors.<code>`, then the server's English text (a code this build does not know yet).
import i18n from 'i18next';

export interface CodedLike {
  code?: string;
  params?: Record<string, unknown>;
  /** English text from the server. */
  text?: string;
  msg?: string;
}

export type CodedKind = 'issues' | 'log' | 'reasons';

export function codedText(ns: string, kind: CodedKind, c: CodedLike): string {
  const fallback = c.text ?? c.msg ?? c.code ?? '';
  if (!c.code) return fallback;
  const params = { ...(c.params ?? {}) };
  for (const key of [`${ns}.${kind}.${c.code}`, `errors.${c.code}`]) if (i18n.exists(key)) return i18n.t(key, params);
  return fallback;
}
