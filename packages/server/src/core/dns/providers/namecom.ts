// Name.com Core API v1 with HTTP Basic (user name + API token): list the domain's records,
// then PUT the matching one or POST a new one.
import { callJson } from './common.js';
import type { DnsProviderImpl } from './types.js';

interface NcRecord {
  id: number;
  host?: string;
  type: string;
  answer: string;
}

export const namecom: DnsProviderImpl = {
  name: 'namecom',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://api.name.com/core/v1');
    const headers = { authorization: `Basic ${Buffer.from(`${ctx.dns.id}:${ctx.dns.secret}`).toString('base64')}` };
    const path = `/domains/${encodeURIComponent(t.root)}/records`;
    const list = await callJson<{ records?: NcRecord[] }>(ctx, {
      method: 'GET',
      url: `${base}${path}?perPage=1000`,
      headers,
    });
    const existing = (list.records ?? []).find((r) => (r.host ?? '') === t.sub && r.type === t.type);
    const body = { host: t.sub, type: t.type, answer: t.value, ttl: t.ttl };
    if (existing) {
      if (existing.answer === t.value) return 'same';
      await callJson(ctx, { method: 'PUT', url: `${base}${path}/${existing.id}`, headers, body });
      return 'updated';
    }
    await callJson(ctx, { method: 'POST', url: `${base}${path}`, headers, body });
    return 'created';
  },
};
