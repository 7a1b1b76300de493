// Failures of the web service calls and form checks in the user's language.
// The server answers its validation problems as `{msg, field, code, params}`,
// where `code` is a key of the shared REVERSEPROXY_MESSAGES or a generic code
// (tooSmall, tooBig, …); the shared schemas use the same codes as their zod
// messages, so the form's own checks and the server read the same
// `reverseproxy.err_<code>` texts.
import { REVERSEPROXY_MESSAGES, type ReverseproxyMessage } from '@lucky/shared';
import { callErrorText, type Failure, failureOf, type Translate } from '../../api/callErrors';
import { ApiError } from '../../api/client';
import { codedText } from '../../i18n/coded';

export { errorDuration, type Translate } from '../../api/callErrors';

export type IssueCode =
  | ReverseproxyMessage
  /** A mount without a directory (the server says `mountRequired` on `mounts.N.dir`). */
  | 'mountDirRequired'
  | 'tooSmall'
  | 'tooBig'
  | 'tooLong'
  | 'tooMany'
  | 'invalidValue'
  | 'invalid'
  /** A server text this screen has no translation for: shown as the server wrote it. */
  | 'server';

export interface Issue {
  code: IssueCode;
  params?: Record<string, unknown>;
}

/** A problem with the field it belongs to: the server's dotted path, e.g. `defaultRule.targets.1`. */
export interface FieldIssue extends Issue {
  field: string;
}

/** A zod message of the shared schemas that is one of the module's codes (never matched by English wording). */
export const codeOfMessage = (message: string): ReverseproxyMessage | undefined =>
  Object.hasOwn(REVERSEPROXY_MESSAGES, message) ? (message as ReverseproxyMessage) : undefined;

/**
 * The generic codes every module's validation can answer, and those the form's own checks use
 * besides the module's (`issueOfSchema`: too long a text, too many entries).
 */
const LOCAL_CODES = new Set<IssueCode>(['tooSmall', 'tooBig', 'tooLong', 'tooMany', 'invalidValue', 'invalid']);

/** Codes whose message can name the bad entry; they have a second text for when it is unknown. */
const TOKEN_CODES = new Set<IssueCode>(['domainInvalid', 'targetInvalid', 'cidrInvalid', 'headerInvalid']);
const BLANKS = { token: '', rule: '', min: '?', max: '?', values: '', msg: '', line: '?' };

export function issueText(t: Translate, { code, params = {} }: Issue): string {
  const vars: Record<string, unknown> = { ...BLANKS, ...params };
  if (Array.isArray(params.values)) vars.values = params.values.join(', ');
  const key = TOKEN_CODES.has(code) && !params.token ? `${code}Plain` : code;
  return t(`reverseproxy.err_${key}`, vars);
}

/** The shape of a zod issue this screen reads (kept structural: the web does not import zod). */
export interface SchemaIssue {
  path: PropertyKey[];
  message: string;
  code: string;
  params?: Record<string, unknown>;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  values?: unknown[];
}

/** A problem the shared schema found, as a field issue with a code. */
export function issueOfSchema(issue: SchemaIssue): FieldIssue {
  const field = issue.path.map(String).join('.');
  const known = codeOfMessage(issue.message);
  if (known)
    return {
      field,
      code: known === 'mountRequired' && field.endsWith('.dir') ? 'mountDirRequired' : known,
      params: issue.params,
    };
  if (issue.code === 'too_small') return { field, code: 'tooSmall', params: { min: Number(issue.minimum) } };
  if (issue.code === 'too_big') {
    const code = issue.origin === 'string' ? 'tooLong' : issue.origin === 'array' ? 'tooMany' : 'tooBig';
    return { field, code, params: { max: Number(issue.maximum) } };
  }
  if (issue.code === 'invalid_value') return { field, code: 'invalidValue', params: { values: issue.values ?? [] } };
  return { field, code: 'invalid' };
}

/** The field and problem of a refusal (a call's answer or a form check), when it names either. */
export function issueOfFailure(f: Failure): FieldIssue | undefined {
  const { code, field = '', msg = '' } = f;
  const params = f.params && Object.keys(f.params).length > 0 ? f.params : undefined;
  const named = (c: IssueCode): FieldIssue => (params ? { field, code: c, params } : { field, code: c });
  if (typeof code === 'string' && Object.hasOwn(REVERSEPROXY_MESSAGES, code)) return named(code as ReverseproxyMessage);
  if (code === 'invalidType') return { field, code: 'invalid' };
  if (LOCAL_CODES.has(code as IssueCode)) return named(code as IssueCode);
  // Program-wide codes on a field (portTaken, …): their own translation (`errors.<code>`), else the server's words.
  const text = field && msg.startsWith(`${field}: `) ? msg.slice(field.length + 2) : msg;
  return field && (code || text)
    ? { field, code: 'server', params: { msg: codedText('reverseproxy', 'err', { code, params, msg: text }) } }
    : undefined;
}

/** The field and problem of a refused call, when the server named either. */
export function issueOfError(err: unknown): FieldIssue | undefined {
  if (!(err instanceof ApiError) || err.kind !== 'ret') return undefined;
  const f = failureOf(err);
  return f && issueOfFailure(f);
}

/** What to tell the user about a failed call; undefined when the session ended or the call was cancelled. */
export function errorText(err: unknown, t: Translate): string | undefined {
  const issue = issueOfError(err);
  if (issue) return issueText(t, issue);
  return callErrorText(
    err,
    (_c): _c is never => false,
    () => '',
  );
}
