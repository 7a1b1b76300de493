// A webhook call for any module: the request built from the template with the caller's variables
// (template.ts), success by the configured strings (or any 2xx with the check off), extra
// attempts with growing pauses (1 s, 2 s, 4 s … at most 10 s). Never throws: what went wrong is
// the outcome's coded reason (shared WEBHOOK_REASONS).
import {
  type CodedText,
  WEBHOOK_LIMITS,
  type WebhookSettings,
  type WebhookTestResponse,
  webhookReason,
} from '@lucky/shared';
import { HttpClients, type ProxySpec } from '../outbound/client.js';
import { scrubDeep, webhookSecrets } from './secrets.js';
import { buildTemplateRequest, isSuccessAnswer, type TemplateVars } from './template.js';

export interface WebhookOutcome {
  ok: boolean;
  status?: number;
  /** webhookOk, or webhookCallError with what went wrong as its cause or detail. */
  reason: CodedText;
  /** Start of the last answer's body. */
  response: string;
  attempts: number;
}

export interface WebhookEnv {
  http: HttpClients;
  /** The proxy of a module's own proxy type (DDNS `dns`: the task's provider proxy); undefined = none. */
  moduleProxy?(type: string): ProxySpec | undefined;
  signal?: AbortSignal;
  /** Pause between attempts (the module's timers; tests shorten it). */
  delay(ms: number): Promise<void>;
}

const STANDARD_PROXIES = new Set(['http', 'https', 'socks5']);

function proxyFor(w: WebhookSettings, env: WebhookEnv): ProxySpec | undefined {
  const p = w.proxy;
  if (p.type === 'none') return undefined;
  if (!STANDARD_PROXIES.has(p.type)) return env.moduleProxy?.(p.type);
  return { type: p.type as ProxySpec['type'], address: p.address, user: p.user, password: p.password };
}

/** Calls the webhook; `retries` defaults to the webhook's own (the test button passes 0). */
export async function callWebhook(
  w: WebhookSettings,
  vars: TemplateVars,
  env: WebhookEnv,
  retries = w.retries,
): Promise<WebhookOutcome> {
  const failed = (params: Record<string, unknown>) => webhookReason('webhookCallError', params);
  let last: WebhookOutcome = { ok: false, reason: failed({}), response: '', attempts: 0 };
  let req: ReturnType<typeof buildTemplateRequest>;
  try {
    req = buildTemplateRequest(w, vars);
  } catch (err) {
    return { ok: false, reason: failed({ detail: (err as Error).message }), response: '', attempts: 0 };
  }
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) {
      await env.delay(Math.min(1000 * 2 ** (attempt - 1), 10_000));
      if (env.signal?.aborted) break;
    }
    try {
      const res = await env.http.request(
        { proxy: proxyFor(w, env), verify: !w.skipCertCheck },
        { ...req, timeoutMs: w.timeout * 1000, signal: env.signal, maxBytes: 256 * 1024 },
      );
      const ok = isSuccessAnswer(res, w.successStrings, w.disableSuccessCheck, vars);
      last = {
        ok,
        status: res.status,
        reason: ok
          ? webhookReason('webhookOk')
          : failed({ cause: webhookReason('answerNotSuccess', { status: res.status }) }),
        response: res.text.slice(0, WEBHOOK_LIMITS.response.max),
        attempts: attempt + 1,
      };
    } catch (err) {
      last = { ok: false, reason: failed({ detail: (err as Error).message }), response: '', attempts: attempt + 1 };
    }
    if (last.ok) break;
  }
  return last;
}

/**
 * The "test webhook" button: one call (no retries) with the module's demo variables, answered
 * with the answer's start. The answer may echo what was sent (a token in the URL, a header), so
 * it is scrubbed of the webhook's secrets and the owner's (`ownerSecrets`, ready for scrub()).
 * Without `http` (the module is off) a client is made for the call and closed after it.
 */
export async function testWebhook(
  w: WebhookSettings,
  vars: TemplateVars,
  env: Omit<WebhookEnv, 'delay' | 'http'> & { http?: HttpClients },
  ownerSecrets: readonly string[] = [],
): Promise<WebhookTestResponse> {
  const http = env.http ?? new HttpClients();
  try {
    const r = await callWebhook(w, vars, { ...env, http, delay: async () => {} }, 0);
    const secrets = [...webhookSecrets(w), ...ownerSecrets].sort((a, b) => b.length - a.length);
    const { reason, response } = scrubDeep({ reason: r.reason, response: r.response }, secrets);
    return { ret: 0, ok: r.ok, ...(r.status !== undefined ? { status: r.status } : {}), reason, response };
  } finally {
    if (!env.http) await http.close();
  }
}
