// GoDaddy Domains API v1 with "sso-key <key>:<secret>": read the records of the name and type,
// then PUT them (GoDaddy's PUT replaces the whole set, so it both creates and updates). The
// ancestor never reported success here; this one does. TXT: the set is PUT back with our value
// added or taken out, and DELETEd when ours was the last.
import { holdsTxt } from '../txt.js';
import { callJson } from './common.js';
import type { DnsProviderImpl, ProviderContext } from './types.js';

interface GdRecord {
  data: string;
  ttl: number;
}

function api(ctx: ProviderContext, t: { root: string; sub: string }, type: string) {
  const base = ctx.endpoint('https://api.godaddy.com');
  const headers = { authorization: `sso-key ${ctx.dns.id}:${ctx.dns.secret}` };
  const url = `${base}/v1/domains/${encodeURIComponent(t.root)}/records/${type}/${encodeURIComponent(t.sub || '@')}`;
  const why = (b: Record<string, unknown>) => (b.code ? `${b.code}: ${b.message ?? ''}` : undefined);
  return {
    get: () => callJson<GdRecord[]>(ctx, { method: 'GET', url, headers }, why),
    put: (records: GdRecord[]) => callJson(ctx, { method: 'PUT', url, headers, body: records }, why),
    del: () => callJson(ctx, { method: 'DELETE', url, headers }, why),
  };
}

export const godaddy: DnsProviderImpl = {
  name: 'godaddy',
  async setAddress(t, ctx) {
    const gd = api(ctx, t, t.type);
    const records = await gd.get();
    if (records.length === 1 && records[0].data === t.value) return 'same';
    await gd.put([{ data: t.value, ttl: t.ttl }]);
    return records.length ? 'updated' : 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const gd = api(ctx, t, 'TXT');
      const records = await gd.get();
      if (records.some((r) => holdsTxt(r.data, t.value))) return 'same';
      await gd.put([...records.map((r) => ({ data: r.data, ttl: r.ttl })), { data: t.value, ttl: t.ttl }]);
      return 'created';
    },
    async remove(t, ctx) {
      const gd = api(ctx, t, 'TXT');
      const records = await gd.get();
      const keep = records.filter((r) => !holdsTxt(r.data, t.value));
      if (keep.length === records.length) return 'absent';
      if (keep.length) await gd.put(keep.map((r) => ({ data: r.data, ttl: r.ttl })));
      else await gd.del();
      return 'removed';
    },
  },
};
