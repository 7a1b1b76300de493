// PowerDNS Authoritative HTTP API (v1, X-API-Key): the zone is `dns.zone` or the longest
// zone of the server that contains the name; the RRset is read from the zone and replaced
// with one PATCH (changetype REPLACE), which PowerDNS applies atomically. TXT: the RRset's
// values are quoted ("…"); it is REPLACEd with our value added or taken out, and DELETEd when
// ours was the last.
import { holdsTxt, quoteTxt } from '../txt.js';
import { callJson, longestZone, trimSlash } from './common.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface PdnsRecord {
  content: string;
  disabled: boolean;
}
interface PdnsRRset {
  name: string;
  type: string;
  ttl: number;
  records: PdnsRecord[];
}

/** The name's RRset of one type in its zone, and the PATCH that changes it. */
async function rrset(ctx: ProviderContext, fqdn: string, type: string) {
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
    const z = longestZone(fqdn, zones, (x) => x.name);
    if (!z) throw new ProviderError(`no zone on this server contains ${fqdn}`);
    zone = z.name;
  }
  const name = `${fqdn}.`;
  const zurl = `${api}/zones/${encodeURIComponent(zone)}`;
  // rrset_name/rrset_type narrow the answer on servers that know them; others send the whole
  // zone, which the filter below handles as well.
  const q = `rrsets=true&rrset_name=${encodeURIComponent(name)}&rrset_type=${type}`;
  const z = await callJson<{ rrsets?: PdnsRRset[] }>(ctx, { method: 'GET', url: `${zurl}?${q}`, headers }, why);
  const set = (z.rrsets ?? []).find((r) => r.name === name && r.type === type);
  const patch = (change: { changetype: 'REPLACE'; ttl: number; records: PdnsRecord[] } | { changetype: 'DELETE' }) =>
    callJson(ctx, { method: 'PATCH', url: zurl, headers, body: { rrsets: [{ name, type, ...change }] } }, why);
  return { set, patch };
}

export const powerdns: DnsProviderImpl = {
  name: 'powerdns',
  async setAddress(t, ctx) {
    const { set: existing, patch } = await rrset(ctx, t.fqdn, t.type);
    const live = existing?.records.filter((r) => !r.disabled) ?? [];
    if (existing && live.length === 1 && live[0].content === t.value && existing.records.length === 1) return 'same';
    await patch({ changetype: 'REPLACE', ttl: t.ttl, records: [{ content: t.value, disabled: false }] });
    return existing && existing.records.length > 0 ? 'updated' : 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const { set, patch } = await rrset(ctx, t.fqdn, 'TXT');
      const records = set?.records ?? [];
      if (records.some((r) => !r.disabled && holdsTxt(r.content, t.value))) return 'same';
      // A disabled copy of our value is replaced by a live one.
      const others = records.filter((r) => !holdsTxt(r.content, t.value));
      await patch({
        changetype: 'REPLACE',
        ttl: set && records.length ? set.ttl : t.ttl,
        records: [...others, { content: quoteTxt(t.value), disabled: false }],
      });
      return 'created';
    },
    async remove(t, ctx) {
      const { set, patch } = await rrset(ctx, t.fqdn, 'TXT');
      const records = set?.records ?? [];
      const keep = records.filter((r) => !holdsTxt(r.content, t.value));
      if (!set || keep.length === records.length) return 'absent';
      if (keep.length) await patch({ changetype: 'REPLACE', ttl: set.ttl, records: keep });
      else await patch({ changetype: 'DELETE' });
      return 'removed';
    },
  },
};
