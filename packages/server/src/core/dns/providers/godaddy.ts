// GoDaddy Domains API v1 with "sso-key <key>:<secret>": read the records of the name and type,
// then PUT them (GoDaddy's PUT replaces the whole set, so it both creates and updates). The
// ancestor never reported success here; this one does.
import { callJson } from './common.js';
import type { DnsProviderImpl } from './types.js';

export const godaddy: DnsProviderImpl = {
  name: 'godaddy',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://api.godaddy.com');
    const headers = { authorization: `sso-key ${ctx.dns.id}:${ctx.dns.secret}` };
    const path = `/v1/domains/${encodeURIComponent(t.root)}/records/${t.type}/${encodeURIComponent(t.sub || '@')}`;
    const why = (b: Record<string, unknown>) => (b.code ? `${b.code}: ${b.message ?? ''}` : undefined);
    const records = await callJson<{ data: string; ttl: number }[]>(
      ctx,
      { method: 'GET', url: base + path, headers },
      why,
    );
    if (records.length === 1 && records[0].data === t.value) return 'same';
    await callJson(ctx, { method: 'PUT', url: base + path, headers, body: [{ data: t.value, ttl: t.ttl }] }, why);
    return records.length ? 'updated' : 'created';
  },
};
