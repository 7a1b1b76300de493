// Porkbun API v3: keys travel in the JSON body. retrieveByNameType → editByNameType or create.
import { callJson } from './common.js';
import { type DnsProviderImpl, ProviderError } from './types.js';

interface PbAnswer {
  status: string;
  message?: string;
  records?: { id: string; name: string; type: string; content: string }[];
}

export const porkbun: DnsProviderImpl = {
  name: 'porkbun',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://api.porkbun.com/api/json/v3');
    const keys = { apikey: ctx.dns.id, secretapikey: ctx.dns.secret };
    const call = async (path: string, body: object) => {
      const r = await callJson<PbAnswer>(ctx, { method: 'POST', url: base + path, body: { ...keys, ...body } });
      if (r.status !== 'SUCCESS') throw new ProviderError(r.message || `status ${r.status}`);
      return r;
    };
    const tail = `${encodeURIComponent(t.root)}/${t.type}${t.sub ? `/${encodeURIComponent(t.sub)}` : ''}`;
    const found = await call(`/dns/retrieveByNameType/${tail}`, {});
    const records = found.records ?? [];
    if (records.length > 0) {
      if (records.length === 1 && records[0].content === t.value) return 'same';
      await call(`/dns/editByNameType/${tail}`, { content: t.value, ttl: String(t.ttl) });
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
};
