// The custom callback: the user's request template (see DDNS_CALLBACK_PRESETS for the free
// services) with #{ip}, #{domain}, #{sub}, #{root}, #{recordType}, #{ttl}, #{id}, #{secret}
// and the line's ?params. A callback cannot tell "changed" from "unchanged": success = updated.
// It is this module's own way to set an address, beside the core's provider APIs (`ctx.dns`); the
// request template is the core's (core/webhook/template.ts), as for webhooks.
import { type CodedText, type DdnsTask, webhookReason } from '@lucky/shared';
import { type DnsClientOptions, type DnsName, type DnsProvider, ProviderError } from '../../core/dns/index.js';
import { buildTemplateRequest, isSuccessAnswer, type TemplateVars } from '../../core/webhook/template.js';

/** The callback's answer was not a success: its status and the start of its body, coded. */
export class CallbackRefused extends ProviderError {
  constructor(readonly reason: CodedText) {
    super(reason.text, reason.params?.status as number);
  }
}

function callbackVars(
  n: DnsName,
  type: 'A' | 'AAAA',
  ip: string,
  ttl: number,
  id: string,
  secret: string,
): TemplateVars {
  return {
    ...n.params,
    ip,
    domain: n.fqdn,
    sub: n.sub,
    root: n.root,
    recordType: type,
    ttl: String(ttl),
    id,
    secret,
  };
}

export function callbackProvider(dns: DdnsTask['dns'], o: DnsClientOptions): Pick<DnsProvider, 'setAddress'> {
  return {
    async setAddress(n, type, ip, ttl) {
      const c = dns.callback;
      const vars = callbackVars(n, type, ip, ttl, dns.id, dns.secret);
      const req = buildTemplateRequest(c, vars);
      const res = await o.http.request(
        { proxy: o.proxy, family: o.family },
        {
          method: req.method,
          url: req.url,
          headers: { accept: 'application/json', ...req.headers },
          body: req.body,
          timeoutMs: o.timeoutMs,
          signal: o.signal,
        },
      );
      if (!isSuccessAnswer(res, c.successStrings, c.disableSuccessCheck, vars)) {
        const answer = res.text.slice(0, 200);
        throw new CallbackRefused(
          webhookReason('answerNotSuccess', { status: res.status, ...(answer ? { detail: answer } : {}) }),
        );
      }
      return 'updated';
    },
  };
}
