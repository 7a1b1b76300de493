// A webhook as a form holds it, free of React so it is unit-tested: the values a new webhook
// starts with, the conversions to and from the API shape (lists are edited as one entry per
// line), a preset filled in, and the check before the test button calls — the module's shared
// test schema, answered with the webhook's codes (shared contract/webhook.ts).
import {
  type HttpMethod,
  WEBHOOK_LIMITS,
  type WebhookPreset,
  type WebhookSettings,
  webhookIssues,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import { joinLines, splitLines } from '../LinesInput';

/** A request template as a form holds it (a webhook's request, DDNS's callback). */
export interface TemplateFormValues {
  url: string;
  method: '' | HttpMethod;
  /** One `Name:Value` per line. */
  headers: string;
  body: string;
  /** One per line. */
  successStrings: string;
  disableSuccessCheck: boolean;
}

/** The request template's fields in the API's shape. */
type TemplateFields = Pick<
  WebhookSettings,
  'url' | 'method' | 'headers' | 'body' | 'successStrings' | 'disableSuccessCheck'
>;

export const newTemplateValues = (): TemplateFormValues => ({
  url: '',
  method: 'GET',
  headers: '',
  body: '',
  successStrings: '',
  disableSuccessCheck: false,
});

/** The lists of a template as text, one entry per line. */
export const templateLists = (t: Partial<Pick<WebhookSettings, 'headers' | 'successStrings'>>) => ({
  headers: joinLines(t.headers),
  successStrings: joinLines(t.successStrings),
});

/** What is sent: the URL trimmed, lists split into lines without blanks. */
export const valuesToTemplate = (v: TemplateFormValues): TemplateFields => ({
  url: v.url.trim(),
  method: v.method,
  headers: splitLines(v.headers),
  body: v.body,
  successStrings: splitLines(v.successStrings),
  disableSuccessCheck: v.disableSuccessCheck,
});

/** A ready template's request as form values (with the success check on). */
export const presetValues = (p: Omit<WebhookPreset, 'id'>): TemplateFormValues => ({
  url: p.url,
  method: p.method,
  body: p.body,
  ...templateLists(p),
  disableSuccessCheck: false,
});

export interface WebhookFormValues extends TemplateFormValues {
  enabled: boolean;
  proxy: { type: string; address: string; user: string; password: string };
  skipCertCheck: boolean;
  timeout: number;
  retries: number;
}

export function newWebhookValues(): WebhookFormValues {
  return {
    enabled: false,
    ...newTemplateValues(),
    proxy: { type: 'none', address: '', user: '', password: '' },
    skipCertCheck: false,
    timeout: WEBHOOK_LIMITS.timeout.default,
    retries: WEBHOOK_LIMITS.retries.default,
  };
}

/** The form values of a webhook; a module's own fields come from `base` (its defaults) and the webhook. */
export function webhookToValues<V extends WebhookFormValues>(w: Partial<WebhookSettings> | undefined, base: V): V {
  if (!w) return base;
  return { ...base, ...w, ...templateLists(w), proxy: { ...base.proxy, ...w.proxy } };
}

/** What is sent: trimmed text, lists split into lines without blanks (a module's own fields as they are). */
export function valuesToWebhook<W extends WebhookSettings, V extends WebhookFormValues = WebhookFormValues>(v: V): W {
  return {
    ...v,
    ...valuesToTemplate(v),
    proxy: { ...v.proxy, address: v.proxy.address.trim(), user: v.proxy.user.trim() },
  } as unknown as W;
}

type Issue = Parameters<typeof webhookIssues.fromZod>[0];
/** A module's webhook test schema (shared `webhookSchemas(…).testSchema`). */
export interface WebhookTestSchema {
  safeParse(v: unknown): { success: boolean; error?: { issues: Issue[] } };
}

/** The problems of a webhook about to be tested, as failures on `at` + the field (none = callable). */
export function testProblems(testSchema: WebhookTestSchema, w: WebhookSettings, at: string): Failure[] {
  const r = testSchema.safeParse(w);
  return (r.error?.issues ?? []).map((i) => {
    const { field, code, params } = webhookIssues.fromZod(i, testSchema);
    return { field: `${at}${field}`, code, params };
  });
}

/** A preset's request filled in (the switch, proxy and call options stay). */
export function applyWebhookPreset<V extends WebhookFormValues>(values: V, preset: WebhookPreset | undefined): V {
  return preset ? { ...values, ...presetValues(preset) } : values;
}
