// The result webhook: variables filled in for where they land (template.ts), success by the
// configured strings (or any 2xx with the check off), extra attempts with growing pauses.
// Variables: #{ipAddr} #{time} #{timestamp} #{taskName} #{recordType} #{successDomains}
// #{failedDomains} (comma lists) and #{successDomainsLine} #{failedDomainsLine} (one per line).
import { type CodedText, type DdnsTask, type DdnsWebhook, ddnsReason } from '@lucky/shared';
import type { HttpClients } from '../../core/outbound/client.js';
import { proxyOf } from './providerContext.js';
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
  /** The task's provider proxy, for webhook proxy type `dns`. */
  taskProxy?: DdnsTask['proxy'];
  signal?: AbortSignal;
  /** Pause between attempts (tests shorten it). */
  delay(ms: number): Promise<void>;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Local time of the program as `YYYY-MM-DD hh:mm:ss` (a message for humans). */
export function localTime(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function webhookVars(o: {
  ip: string;
  ipError?: string;
  taskName: string;
  recordType: string;
  success: string[];
  failed: string[];
  now: Date;
}): TemplateVars {
  return {
    ipAddr: o.ip || `failed to get IP${o.ipError ? `: ${o.ipError}` : ''}`,
    time: localTime(o.now),
    timestamp: String(Math.floor(o.now.getTime() / 1000)),
    taskName: o.taskName,
    recordType: o.recordType,
    successDomains: o.success.join(','),
    failedDomains: o.failed.join(','),
    successDomainsLine: o.success.join('\n'),
    failedDomainsLine: o.failed.join('\n'),
  };
}

/** Demo data of the "test webhook" button (documentation addresses and names only). */
export function demoVars(now: Date): TemplateVars {
  return webhookVars({
    ip: '198.51.100.66',
    taskName: 'demo',
    recordType: 'A',
    success: ['www1.example.com', 'www2.example.com', 'www3.example.com'],
    failed: ['www1.example.net', 'www2.example.net'],
    now,
  });
}

function proxyFor(w: DdnsWebhook, env: WebhookEnv) {
  if (w.proxy.type === 'none') return undefined;
  if (w.proxy.type === 'dns') return env.taskProxy ? proxyOf(env.taskProxy) : undefined;
  return { type: w.proxy.type, address: w.proxy.address, user: w.proxy.user, password: w.proxy.password };
}

export async function callWebhook(
  w: DdnsWebhook,
  vars: TemplateVars,
  env: WebhookEnv,
  retries = w.retries,
): Promise<WebhookOutcome> {
  const failed = (params: Record<string, unknown>) => ddnsReason('webhookCallError', params);
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
          ? ddnsReason('webhookOk')
          : failed({ cause: ddnsReason('answerNotSuccess', { status: res.status }) }),
        response: res.text.slice(0, 4096),
        attempts: attempt + 1,
      };
    } catch (err) {
      last = { ok: false, reason: failed({ detail: (err as Error).message }), response: '', attempts: attempt + 1 };
    }
    if (last.ok) break;
  }
  return last;
}
