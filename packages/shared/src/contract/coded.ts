// One dialect for everything the server tells the UI in words: a stable code, its numbers and
// names (params), and English text for API users and logs. The browser shows its own
// translation of the code (locale key `<module>.<kind>.<code>`), filled with the params, and
// falls back to the English text for a code it does not know.

/** A reason, state note or runtime error as the API carries it. */
export interface Coded {
  code: string;
  params?: Record<string, unknown>;
}

/** A coded reason with its English text (API users, the plain-text log, old browsers). */
export interface CodedText extends Coded {
  text: string;
}

/** Spec log levels: 2 Error, 3 Warn, 4 Info, 5 Debug, 6 Trace. */
export type LogLevel = 2 | 3 | 4 | 5 | 6;

/**
 * A line of a rule's or task's log as the API answers it. `code` + `params` when the line has a
 * translation (most do); `text` is the English line, always present.
 */
export interface LogEntryView {
  seq: number;
  /** ISO 8601, UTC; the UI shows it in the display time zone. */
  time: string;
  level: LogLevel;
  text: string;
  code?: string;
  params?: Record<string, unknown>;
}

/** Failure envelope of every admin call: every failure has a code. */
export interface ApiFailureBody {
  ret: number;
  msg: string;
  code: string;
  /** Dotted path of the offending field for validation failures. */
  field?: string;
  params?: Record<string, unknown>;
}

/** Fill `{name}` placeholders of an English template from params (server-side text of a code). */
export function fillTemplate(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** A coded reason with its English text (the shape every `…Reason()` helper returns). */
export const isCodedText = (v: unknown): v is CodedText =>
  typeof v === 'object' && v !== null && typeof (v as CodedText).code === 'string' && 'text' in v;

/**
 * English of a reason or log line that may say why: `{name}` placeholders filled (a coded param by
 * its text), then the `cause` (a reason or a list of reasons behind this one) and the `detail`
 * (text from outside the program: a server's answer, a system error) after ": ". The browser
 * words the same params the same way (web i18n/coded.ts, `codedTextWithCauses`).
 */
export function englishWithCauses(template: string, params: Record<string, unknown>): string {
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) flat[k] = isCodedText(v) ? v.text : v;
  const causes = params.cause === undefined ? [] : ([] as unknown[]).concat(params.cause).filter(isCodedText);
  const tail = [causes.map((c) => c.text).join('; '), typeof params.detail === 'string' ? params.detail : ''];
  return [fillTemplate(template, flat), ...tail.filter(Boolean)].join(': ');
}
