// Vercel DNS with a bearer token (and `teamId` when the ID field holds one): list the
// domain's records → PATCH the matching record or POST a new one.
import { callJson } from './common.js';
import type { DnsProviderImpl } from './types.js';

interface VcRecord {
  id: string;
  name: string;
  type: string;
  value: string;
}

export const vercel: DnsProviderImpl = {
  name: 'vercel',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://api.vercel.com');
    const headers = { authorization: `Bearer ${ctx.dns.secret}` };
    const team = ctx.dns.id ? `teamId=${encodeURIComponent(ctx.dns.id)}` : '';
    const url = (path: string, q = '') => `${base}${path}${q || team ? `?${[q, team].filter(Boolean).join('&')}` : ''}`;
    const list = await callJson<{ records?: VcRecord[] }>(ctx, {
      method: 'GET',
      url: url(`/v4/domains/${encodeURIComponent(t.root)}/records`, 'limit=100'),
      headers,
    });
    const existing = (list.records ?? []).find((r) => r.name === t.sub && r.type === t.type);
    if (existing) {
      if (existing.value === t.value) return 'same';
      await callJson(ctx, {
        method: 'PATCH',
        url: url(`/v1/domains/records/${encodeURIComponent(existing.id)}`),
        headers,
        body: { type: t.type, value: t.value, ttl: t.ttl },
      });
      return 'updated';
    }
    await callJson(ctx, {
      method: 'POST',
      url: url(`/v2/domains/${encodeURIComponent(t.root)}/records`),
      headers,
      body: { name: t.sub, type: t.type, value: t.value, ttl: t.ttl },
    });
    return 'created';
  },
};
