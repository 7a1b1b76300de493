// Webhooks, for every module that tells the outside world about an event (DDNS after a record
// changed, STUN when its public address moved): one HTTP request built from the user's template
// (URL, method, `Name:Value` header lines, body) with the module's own `#{variables}`, judged a
// success by the answer's text, tried again with growing pauses. This file is the shared half:
// the settings schema (a factory, so a module can add proxy types and fields of its own), the
// field codes and runtime reasons, the test call's body and answer, the history entry. The
// server half is packages/server/src/core/webhook/, the form is web components/webhook/.
//
// Codes are the webhook's own vocabulary: a module spreads WEBHOOK_MESSAGES into its messages so
// its issue kit knows them, and the browser reads them as `webhook.err_<code>` /
// `webhook.reason_<code>` when the module's namespace has no text of its own.
import { z } from 'zod';
import { issueKit } from '../modules/fieldIssue.js';
import { isHostPort, isHttpUrl } from '../net.js';
import { type CodedText, englishWithCauses } from './coded.js';

/** Methods of a request template (webhooks, DDNS's callback). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
/** Outbound proxies; a module may offer more (DDNS: `dns`, the task's provider proxy). */
export const PROXY_TYPES = ['none', 'http', 'https', 'socks5'] as const;
export type ProxyType = (typeof PROXY_TYPES)[number];

export const WEBHOOK_LIMITS = {
  /** Seconds per attempt. */
  timeout: { min: 3, max: 60, default: 20 },
  /** Extra attempts after a failed call. */
  retries: { min: 0, max: 5, default: 2 },
  headers: { max: 32 },
  successStrings: { max: 32 },
  /** Calls kept per owner (a task, a rule), newest first. */
  history: { max: 10 },
  /** Characters of an answer's body kept for the test button. */
  response: { max: 4096 },
} as const;

/** Field codes of a request template (English; the browser's `webhook.err_<code>`). */
export const WEBHOOK_MESSAGES = {
  webhookUrlRequired: 'the webhook address is required',
  urlInvalid: 'not an http(s) URL',
  webhookMethodRequired: 'the webhook method is required',
  webhookProxyAddressRequired: 'the webhook proxy address must not be empty when a proxy is set',
  proxyAddressInvalid: 'the proxy address is host:port',
  successStringsRequired: 'the success string must not be empty unless the success check is disabled',
  headerInvalid: 'a header line is Name:Value',
  secretMaskUnmatched: 'this field shows ****** for stored secrets that no longer fit it; type the secret again',
} as const;
export type WebhookErrorCode = keyof typeof WEBHOOK_MESSAGES;
/** The webhook's own issue kit: the form checks a webhook about to be tested with it. */
export const webhookIssues = issueKit(WEBHOOK_MESSAGES);

/** What a call came to (the browser's `webhook.reason_<code>`); `cause` and `detail` as DDNS_REASONS. */
export const WEBHOOK_REASONS = {
  webhookOk: 'the call succeeded',
  webhookCallError: 'webhook call error',
  answerNotSuccess: 'HTTP {status}: the answer is not a success',
} as const;
export type WebhookReasonCode = keyof typeof WEBHOOK_REASONS;

export function webhookReason(code: WebhookReasonCode, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: englishWithCauses(WEBHOOK_REASONS[code], params) };
}

const L = WEBHOOK_LIMITS;
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);
const str = (max: number) => z.string().trim().max(max).default('');
const lines = (max: number, each: number) => z.array(z.string().trim().max(each)).max(max).default([]);

/** An outbound proxy setting of `types` (the first is the default, and means "no proxy"). */
export function proxySchema<T extends string>(types: readonly [T, ...T[]]) {
  return z
    .object({
      type: z.enum(types as unknown as [T, ...T[]]).default(types[0] as never),
      /** host:port */
      address: str(300),
      user: str(256),
      password: z.string().max(256).default(''),
    })
    .prefault({});
}

/** `Name:Value` lines; `BasicAuthUserName:` + `BasicAuthPassword:` become HTTP Basic auth. */
export const headerLinesSchema = lines(L.headers.max, 4096);
/** The answer is a success when it contains one of these (after variables). */
export const successStringsSchema = lines(L.successStrings.max, 1024);
/** Sent for every method but GET; JSON when it is JSON, else a form body. */
export const templateBodySchema = z.string().max(65536).default('');
/** A template's URL: variables are not checked, the rest must be an http(s) URL. */
export const isTemplateUrl = (url: string) => isHttpUrl(url.replace(/#\{\w+\}/g, 'x'));

/** The fields of a webhook every module has, with `extra` proxy types after the standard ones. */
function webhookFields<X extends string>(extra: readonly X[]) {
  return {
    enabled: z.boolean().default(false),
    url: str(4096),
    method: z.enum(['', ...HTTP_METHODS]).default('GET'),
    headers: headerLinesSchema,
    body: templateBodySchema,
    successStrings: successStringsSchema,
    /** Then any 2xx answer is a success. */
    disableSuccessCheck: z.boolean().default(false),
    proxy: proxySchema<ProxyType | X>([...PROXY_TYPES, ...extra]),
    skipCertCheck: z.boolean().default(false),
    /** Seconds per attempt. */
    timeout: int(L.timeout),
    /** Extra attempts after a failed call, 1 s, 2 s, 4 s … apart. */
    retries: int(L.retries),
  };
}

/** A webhook as the server half reads it, whatever a module added. */
export interface WebhookSettings {
  enabled: boolean;
  url: string;
  method: '' | HttpMethod;
  headers: string[];
  body: string;
  successStrings: string[];
  disableSuccessCheck: boolean;
  proxy: { type: string; address: string; user: string; password: string };
  skipCertCheck: boolean;
  timeout: number;
  retries: number;
}

type Add = (path: (string | number)[], code: WebhookErrorCode) => void;
const adder =
  (ctx: z.RefinementCtx): Add =>
  (path, message) =>
    ctx.addIssue({ code: 'custom', path, message });

/** Each header line is `Name:Value` (a module's other templates check theirs with it too). */
export function checkHeaderLines(list: string[], ctx: z.RefinementCtx, at: (string | number)[]): void {
  list.forEach((h, i) => {
    if (h !== '' && h.indexOf(':') < 1) adder(ctx)([...at, i], 'headerInvalid');
  });
}

/** With the success check on, at least one success string (the ancestor failed every call instead). */
export function checkSuccessStrings(
  t: { successStrings: string[]; disableSuccessCheck: boolean },
  ctx: z.RefinementCtx,
  at: (string | number)[],
): void {
  if (!t.disableSuccessCheck && t.successStrings.filter((s) => s !== '').length === 0)
    adder(ctx)([...at, 'successStrings'], 'successStringsRequired');
}

/**
 * The schemas of one module's webhook. `proxyTypes`: the module's extra proxy types (no address
 * of their own: the module resolves them when it calls); `fields`: the module's extra fields.
 */
export function webhookSchemas<X extends string = never, E extends z.ZodRawShape = Record<never, never>>(
  options: { proxyTypes?: readonly X[]; fields?: E } = {},
) {
  const extra = options.proxyTypes ?? [];
  const shape = { ...webhookFields(extra), ...(options.fields as E) };
  const object = z.object(shape);
  /** Checks between the fields; a switched-off webhook is not checked unless `force` (the test button). */
  const check = (w: WebhookSettings, ctx: z.RefinementCtx, at: (string | number)[], force = false): void => {
    if (!w.enabled && !force) return;
    const add = adder(ctx);
    if (w.url === '') add([...at, 'url'], 'webhookUrlRequired');
    else if (!isTemplateUrl(w.url)) add([...at, 'url'], 'urlInvalid');
    if (w.method === '') add([...at, 'method'], 'webhookMethodRequired');
    if (w.proxy.type !== 'none' && !(extra as readonly string[]).includes(w.proxy.type)) {
      if (w.proxy.address === '') add([...at, 'proxy', 'address'], 'webhookProxyAddressRequired');
      else if (!isHostPort(w.proxy.address)) add([...at, 'proxy', 'address'], 'proxyAddressInvalid');
    }
    checkSuccessStrings(w, ctx, at);
    checkHeaderLines(w.headers, ctx, [...at, 'headers']);
  };
  /** The webhook of the "test webhook" call: checked as if it were switched on. */
  const testSchema = object.superRefine((w, ctx) => check(w as WebhookSettings, ctx, [], true));
  return {
    /** The fields alone (a module that checks the webhook with the rest of its item calls `check`). */
    object,
    /** A webhook on its own (a module's global webhook). */
    schema: object.superRefine((w, ctx) => check(w as WebhookSettings, ctx, [])),
    testSchema,
    /**
     * POST /api/<module>/webhook/test: the webhook as the dialog holds it, and its owner's key
     * (whose stored secrets fill masked fields; `''` = the module's global webhook).
     */
    testBodySchema: z.object({ webhook: testSchema, key: z.string().max(32).default('') }),
    check,
  };
}

/** A ready template a dialog offers (`<key>` is for the user to replace); its body uses the module's variables. */
export interface WebhookPreset {
  id: string;
  method: HttpMethod;
  url: string;
  headers: string[];
  body: string;
  successStrings: string[];
}

/** Whole-value secrets inside a webhook (paths below it): read as SECRET_MASK, kept when sent back so. */
export const WEBHOOK_SECRETS = ['proxy.password'] as const;
/** Free text inside a webhook that may hold secrets in parts (secretText.ts). */
export const WEBHOOK_FREE_TEXT_SECRETS = ['url', 'headers', 'body'] as const;

/** One call in an owner's webhook history (newest first, WEBHOOK_LIMITS.history of them). */
export interface WebhookCallView {
  /** ISO 8601, UTC. */
  time: string;
  ok: boolean;
  attempts: number;
  status?: number;
  /** webhookOk, or webhookCallError with its cause. */
  reason: CodedText;
}

/** POST /api/<module>/webhook/test */
export interface WebhookTestResponse {
  ret: 0;
  ok: boolean;
  status?: number;
  /** webhookOk, or webhookCallError with its cause. */
  reason: CodedText;
  /** The answer's body (first WEBHOOK_LIMITS.response characters), secrets masked. */
  response: string;
}
