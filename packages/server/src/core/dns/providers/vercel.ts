// Vercel DNS with a bearer token (and `teamId` when the ID field holds one): list the
// domain's records → PATCH the matching record or POST a new one. TXT: one record per value,
// POST and DELETE.
import { holdsTxt } from '../txt.js';
import { callJson } from './common.js';
import type { DnsProviderImpl, ProviderContext } from './types.js';

interface VcRecord {
  id: string;
  name: string;
  type: string;
  value: string;
}

function api(ctx: ProviderContext, root: string) {
  const base = ctx.endpoint('https://api.vercel.com');
  const headers = { authorization: `Bearer ${ctx.dns.secret}` };
  const team = ctx.dns.id ? `teamId=${encodeURIComponent(ctx.dns.id)}` : '';
  const url = (path: string, q = '') => `${base}${path}${q || team ? `?${[q, team].filter(Boolean).join('&')}` : ''}`;
  const domain = encodeURIComponent(root);
  const call = (method: string, path: string, body?: unknown) =>
    callJson(ctx, { method, url: url(path), headers, body });
  const records = async (sub: string, type: string) =>
    (
      (
        await callJson<{ records?: VcRecord[] }>(ctx, {
          method: 'GET',
          url: url(`/v4/domains/${domain}/records`, 'limit=100'),
          headers,
        })
      ).records ?? []
    ).filter((r) => r.name === sub && r.type === type);
  return { call, records, domain };
}

export const vercel: DnsProviderImpl = {
  name: 'vercel',
  async setAddress(t, ctx) {
    const { call, records, domain } = api(ctx, t.root);
    const existing = (await records(t.sub, t.type))[0];
    if (existing) {
      if (existing.value === t.value) return 'same';
      await call('PATCH', `/v1/domains/records/${encodeURIComponent(existing.id)}`, {
        type: t.type,
        value: t.value,
        ttl: t.ttl,
      });
      return 'updated';
    }
    await call('POST', `/v2/domains/${domain}/records`, { name: t.sub, type: t.type, value: t.value, ttl: t.ttl });
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const { call, records, domain } = api(ctx, t.root);
      if ((await records(t.sub, 'TXT')).some((r) => holdsTxt(r.value, t.value))) return 'same';
      await call('POST', `/v2/domains/${domain}/records`, { name: t.sub, type: 'TXT', value: t.value, ttl: t.ttl });
      return 'created';
    },
    async remove(t, ctx) {
      const { call, records, domain } = api(ctx, t.root);
      const mine = (await records(t.sub, 'TXT')).filter((r) => holdsTxt(r.value, t.value));
      for (const r of mine) await call('DELETE', `/v2/domains/${domain}/records/${encodeURIComponent(r.id)}`);
      return mine.length ? 'removed' : 'absent';
    },
  },
};
