// Cloudflare API v4 with an API token: zone by name → records by type and name → PUT the
// first record (keeping its proxied flag unless `?proxied=` says otherwise) or POST a new one.
// TXT: one record per value, POSTed or DELETEd by id.
import { holdsTxt } from '../txt.js';
import { callJson } from './common.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface CfAnswer<T> {
  success: boolean;
  errors?: { code: number; message: string }[];
  result: T;
}
interface CfRecord {
  id: string;
  content: string;
  proxied?: boolean;
}

function api(ctx: ProviderContext) {
  const base = ctx.endpoint('https://api.cloudflare.com/client/v4');
  const headers = { authorization: `Bearer ${ctx.dns.secret}` };
  const cf = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await callJson<CfAnswer<T>>(ctx, { method, url: base + path, headers, body }, (b) =>
      (b as unknown as CfAnswer<T>).errors?.map((e) => `${e.code} ${e.message}`).join('; '),
    );
    if (!r.success) throw new ProviderError(r.errors?.map((e) => `${e.code} ${e.message}`).join('; ') || 'refused');
    return r.result;
  };
  const zoneOf = async (root: string): Promise<string> => {
    const zones = await cf<{ id: string; name: string }[]>(
      'GET',
      `/zones?name=${encodeURIComponent(root)}&status=active&per_page=50`,
    );
    if (zones.length !== 1) throw new ProviderError(`zone ${root} not found in this account`);
    return zones[0].id;
  };
  const records = (zone: string, type: string, fqdn: string) =>
    cf<CfRecord[]>('GET', `/zones/${zone}/dns_records?type=${type}&name=${encodeURIComponent(fqdn)}&per_page=100`);
  return { cf, zoneOf, records };
}

export const cloudflare: DnsProviderImpl = {
  name: 'cloudflare',
  async setAddress(t, ctx) {
    const { cf, zoneOf, records } = api(ctx);
    const zone = await zoneOf(t.root);
    const list = await records(zone, t.type, t.fqdn);
    const proxied = t.params.proxied === undefined ? undefined : t.params.proxied === 'true';
    const comment = t.params.comment;
    const existing = list[0];
    if (existing) {
      if (existing.content === t.value && (proxied === undefined || proxied === existing.proxied)) return 'same';
      await cf('PUT', `/zones/${zone}/dns_records/${existing.id}`, {
        type: t.type,
        name: t.fqdn,
        content: t.value,
        ttl: t.ttl,
        proxied: proxied ?? existing.proxied ?? false,
        ...(comment !== undefined ? { comment } : {}),
      });
      return 'updated';
    }
    await cf('POST', `/zones/${zone}/dns_records`, {
      type: t.type,
      name: t.fqdn,
      content: t.value,
      ttl: t.ttl,
      proxied: proxied ?? false,
      ...(comment !== undefined ? { comment } : {}),
    });
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const { cf, zoneOf, records } = api(ctx);
      const zone = await zoneOf(t.root);
      if ((await records(zone, 'TXT', t.fqdn)).some((r) => holdsTxt(r.content, t.value))) return 'same';
      await cf('POST', `/zones/${zone}/dns_records`, { type: 'TXT', name: t.fqdn, content: t.value, ttl: t.ttl });
      return 'created';
    },
    async remove(t, ctx) {
      const { cf, zoneOf, records } = api(ctx);
      const zone = await zoneOf(t.root);
      const mine = (await records(zone, 'TXT', t.fqdn)).filter((r) => holdsTxt(r.content, t.value));
      for (const r of mine) await cf('DELETE', `/zones/${zone}/dns_records/${r.id}`);
      return mine.length ? 'removed' : 'absent';
    },
  },
};
