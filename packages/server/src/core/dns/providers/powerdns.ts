// PowerDNS Authoritative HTTP API (v1, X-API-Key): the zone is `dns.zone` or the longest
// zone of the server that contains the name; the RRset is read from the zone and replaced
// with one PATCH (changetype REPLACE), which PowerDNS applies atomically.
import { callJson, longestZone, trimSlash } from './common.js';
import { type DnsProviderImpl, ProviderError } from './types.js';

interface PdnsRRset {
  name: string;
  type: string;
  ttl: number;
  records: { content: string; disabled: boolean }[];
}

export const powerdns: DnsProviderImpl = {
  name: 'powerdns',
  async setAddress(t, ctx) {
    const api = `${trimSlash(ctx.dns.server).replace(/\/api\/v1$/, '')}/api/v1/servers/${encodeURIComponent(ctx.dns.id || 'localhost')}`;
    const headers = { 'x-api-key': ctx.dns.secret };
    const why = (b: Record<string, unknown>) => (typeof b.error === 'string' ? b.error : undefined);
    let zone = ctx.dns.zone ? `${ctx.dns.zone.replace(/\.$/, '')}.` : '';
    if (!zone) {
      const zones = await callJson<{ id: string; name: string }[]>(
        ctx,
        { method: 'GET', url: `${api}/zones`, headers },
        why,
      );
      const z = longestZone(t.fqdn, zones, (x) => x.name);
      if (!z) throw new ProviderError(`no zone on this server contains ${t.fqdn}`);
      zone = z.name;
    }
    const name = `${t.fqdn}.`;
    const zurl = `${api}/zones/${encodeURIComponent(zone)}`;
    // rrset_name/rrset_type narrow the answer on servers that know them; others send the whole
    // zone, which the filter below handles as well.
    const q = `rrsets=true&rrset_name=${encodeURIComponent(name)}&rrset_type=${t.type}`;
    const z = await callJson<{ rrsets?: PdnsRRset[] }>(ctx, { method: 'GET', url: `${zurl}?${q}`, headers }, why);
    const existing = (z.rrsets ?? []).find((r) => r.name === name && r.type === t.type);
    const live = existing?.records.filter((r) => !r.disabled) ?? [];
    if (existing && live.length === 1 && live[0].content === t.value && existing.records.length === 1) return 'same';
    await callJson(
      ctx,
      {
        method: 'PATCH',
        url: zurl,
        headers,
        body: {
          rrsets: [
            {
              name,
              type: t.type,
              ttl: t.ttl,
              changetype: 'REPLACE',
              records: [{ content: t.value, disabled: false }],
            },
          ],
        },
      },
      why,
    );
    return existing && existing.records.length > 0 ? 'updated' : 'created';
  },
};
