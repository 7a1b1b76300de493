// The custom callback: the user's request template (see DDNS_CALLBACK_PRESETS for the free
// services) with #{ip}, #{domain}, #{sub}, #{root}, #{recordType}, #{ttl}, #{id}, #{secret}
// and the line's ?params. A callback cannot tell "changed" from "unchanged": success = updated.
import { buildTemplateRequest, isSuccessAnswer, type TemplateVars } from '../template.js';
import { send } from './common.js';
import { type DnsProviderImpl, ProviderError, type RecordTarget } from './types.js';

export function callbackVars(t: RecordTarget, id: string, secret: string): TemplateVars {
  return {
    ...t.params,
    ip: t.value,
    domain: t.fqdn,
    sub: t.sub,
    root: t.root,
    recordType: t.type,
    ttl: String(t.ttl),
    id,
    secret,
  };
}

export const callback: DnsProviderImpl = {
  name: 'callback',
  async sync(t, ctx) {
    const c = ctx.dns.callback;
    const vars = callbackVars(t, ctx.dns.id, ctx.dns.secret);
    const req = buildTemplateRequest(c, vars);
    const res = await send(ctx, { method: req.method, url: req.url, headers: req.headers, body: req.body });
    if (!isSuccessAnswer(res, c.successStrings, c.disableSuccessCheck, vars))
      throw new ProviderError(`HTTP ${res.status}: answer is not a success: ${res.text.slice(0, 200)}`, res.status);
    return 'updated';
  },
};
