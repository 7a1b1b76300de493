// Porkbun API v3: keys travel in the JSON body. retrieveByNameType → editByNameType or create.
// TXT: one record per value, create and delete/<id>.
import { holdsTxt } from '../txt.js';
import { callJson } from './common.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface PbAnswer {
  status: string;
  message?: string;
  records?: { id: string; name: string; type: string; content: string }[];
}

function api(ctx: ProviderContext) {
  const base = ctx.endpoint('https://api.porkbun.com/api/json/v3');
  const keys = { apikey: ctx.dns.id, secretapikey: ctx.dns.secret };
  const call = async (path: string, body: object) => {
    const r = await callJson<PbAnswer>(ctx, { method: 'POST', url: base + path, body: { ...keys, ...body } });
    if (r.status !== 'SUCCESS') throw new ProviderError(r.message || `status ${r.status}`);
    return r;
  };
  /** `<root>/<type>[/<sub>]`, the name-and-type tail of the ByNameType calls. */
  const tail = (t: { root: string; sub: string }, type: string) =>
    `${encodeURIComponent(t.root)}/${type}${t.sub ? `/${encodeURIComponent(t.sub)}` : ''}`;
  const records = async (t: { root: string; sub: string }, type: string) =>
    (await call(`/dns/retrieveByNameType/${tail(t, type)}`, {})).records ?? [];
  return { call, tail, records };
}

export const porkbun: DnsProviderImpl = {
  name: 'porkbun',
  async setAddress(t, ctx) {
    const { call, tail, records: list } = api(ctx);
    const records = await list(t, t.type);
    if (records.length > 0) {
      if (records.length === 1 && records[0].content === t.value) return 'same';
      await call(`/dns/editByNameType/${tail(t, t.type)}`, { content: t.value, ttl: String(t.ttl) });
      return 'updated';
    }
    await call(`/dns/create/${encodeURIComponent(t.root)}`, {
      name: t.sub,
      type: t.type,
      content: t.value,
      ttl: String(t.ttl),
    });
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const { call, records } = api(ctx);
      if ((await records(t, 'TXT')).some((r) => holdsTxt(r.content, t.value))) return 'same';
      await call(`/dns/create/${encodeURIComponent(t.root)}`, {
        name: t.sub,
        type: 'TXT',
        content: t.value,
        ttl: String(t.ttl),
      });
      return 'created';
    },
    async remove(t, ctx) {
      const { call, records } = api(ctx);
      const mine = (await records(t, 'TXT')).filter((r) => holdsTxt(r.content, t.value));
      for (const r of mine) await call(`/dns/delete/${encodeURIComponent(t.root)}/${encodeURIComponent(r.id)}`, {});
      return mine.length ? 'removed' : 'absent';
    },
  },
};
