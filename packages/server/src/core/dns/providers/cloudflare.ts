// Cloudflare API v4 with an API token: zone by name → records by type and name → PUT the
// first record (keeping its proxied flag unless `?proxied=` says otherwise) or POST a new one.
import { callJson } from './common.js';
import { type DnsProviderImpl, ProviderError } from './types.js';

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

export const cloudflare: DnsProviderImpl = {
  name: 'cloudflare',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://api.cloudflare.com/client/v4');
    const headers = { authorization: `Bearer ${ctx.dns.secret}` };
    const cf = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const r = await callJson<CfAnswer<T>>(ctx, { method, url: base + path, headers, body }, (b) =>
        (b as unknown as CfAnswer<T>).errors?.map((e) => `${e.code} ${e.message}`).join('; '),
      );
      if (!r.success) throw new ProviderError(r.errors?.map((e) => `${e.code} ${e.message}`).join('; ') || 'refused');
      return r.result;
    };
    const zones = await cf<{ id: string; name: string }[]>(
      'GET',
      `/zones?name=${encodeURIComponent(t.root)}&status=active&per_page=50`,
    );
    if (zones.length !== 1) throw new ProviderError(`zone ${t.root} not found in this account`);
    const zone = zones[0].id;
    const records = await cf<CfRecord[]>(
      'GET',
      `/zones/${zone}/dns_records?type=${t.type}&name=${encodeURIComponent(t.fqdn)}&per_page=50`,
    );
    const proxied = t.params.proxied === undefined ? undefined : t.params.proxied === 'true';
    const comment = t.params.comment;
    const existing = records[0];
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
};
