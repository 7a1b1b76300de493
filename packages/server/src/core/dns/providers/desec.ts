// deSEC API v1 ("Token <token>"): the domain is found among the account's domains (longest
// match, e.g. name.dedyn.io), then the RRset of subname and type is read, PATCHed or POSTed.
// TXT: the RRset's values are quoted ("…"); it is PATCHed with our value added or taken out
// (an empty record list deletes the RRset).
import { holdsTxt, quoteTxt } from '../txt.js';
import { callJson, longestZone, send, subOf } from './common.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface DsRRset {
  subname: string;
  type: string;
  records: string[];
  ttl: number;
}

/** The RRset of the name and type (undefined when there is none) and the calls to change it. */
async function rrset(ctx: ProviderContext, fqdn: string, type: string) {
  const base = ctx.endpoint('https://desec.io/api/v1');
  const headers = { authorization: `Token ${ctx.dns.secret}` };
  const domains = await callJson<{ name: string }[]>(ctx, { method: 'GET', url: `${base}/domains/`, headers });
  const domain = longestZone(fqdn, domains, (d) => d.name);
  if (!domain) throw new ProviderError(`no domain of this account contains ${fqdn}`);
  const sub = subOf(fqdn, domain.name);
  const url = `${base}/domains/${domain.name}/rrsets/${sub === '' ? '@' : encodeURIComponent(sub)}/${type}/`;
  const res = await send(ctx, { method: 'GET', url, headers });
  if (res.status !== 404 && res.status !== 200)
    throw new ProviderError(`HTTP ${res.status}: ${res.text.slice(0, 200)}`, res.status);
  return {
    set: res.status === 200 ? (JSON.parse(res.text) as DsRRset) : undefined,
    patch: (body: object) => callJson(ctx, { method: 'PATCH', url, headers, body }),
    create: (ttl: number, records: string[]) =>
      callJson(ctx, {
        method: 'POST',
        url: `${base}/domains/${domain.name}/rrsets/`,
        headers,
        body: { subname: sub, type, ttl, records },
      }),
  };
}

export const desec: DnsProviderImpl = {
  name: 'desec',
  async setAddress(t, ctx) {
    const { set, patch, create } = await rrset(ctx, t.fqdn, t.type);
    if (set) {
      if (set.records.length === 1 && set.records[0] === t.value) return 'same';
      await patch({ records: [t.value], ttl: t.ttl });
      return 'updated';
    }
    await create(t.ttl, [t.value]);
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const { set, patch, create } = await rrset(ctx, t.fqdn, 'TXT');
      if (set?.records.some((r) => holdsTxt(r, t.value))) return 'same';
      if (set) await patch({ records: [...set.records, quoteTxt(t.value)] });
      else await create(t.ttl, [quoteTxt(t.value)]);
      return 'created';
    },
    async remove(t, ctx) {
      const { set, patch } = await rrset(ctx, t.fqdn, 'TXT');
      const keep = set?.records.filter((r) => !holdsTxt(r, t.value)) ?? [];
      if (!set || keep.length === set.records.length) return 'absent';
      await patch({ records: keep });
      return 'removed';
    },
  },
};
