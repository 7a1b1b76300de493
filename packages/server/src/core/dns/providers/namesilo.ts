// NameSilo API (version 1, JSON answers, key in the query): dnsListRecords → dnsUpdateRecord
// or dnsAddRecord; reply code 300 means success.
import { callJson } from './common.js';
import { type DnsProviderImpl, ProviderError } from './types.js';

interface NsRecord {
  record_id: string;
  type: string;
  host: string;
  value: string;
}
interface NsAnswer {
  reply: { code: number | string; detail?: string; resource_record?: NsRecord | NsRecord[] };
}

export const namesilo: DnsProviderImpl = {
  name: 'namesilo',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://www.namesilo.com/api');
    const call = async (op: string, params: Record<string, string>) => {
      const q = new URLSearchParams({ version: '1', type: 'json', key: ctx.dns.secret, domain: t.root, ...params });
      const r = await callJson<NsAnswer>(ctx, { method: 'GET', url: `${base}/${op}?${q}` });
      if (Number(r.reply?.code) !== 300) throw new ProviderError(`${r.reply?.code}: ${r.reply?.detail ?? 'refused'}`);
      return r.reply;
    };
    const reply = await call('dnsListRecords', {});
    // A single record comes as an object, several as a list (their XML-to-JSON conversion).
    const rr = reply.resource_record;
    const records = rr === undefined ? [] : Array.isArray(rr) ? rr : [rr];
    const existing = records.find((r) => r.host === t.fqdn && r.type === t.type);
    if (existing) {
      if (existing.value === t.value) return 'same';
      await call('dnsUpdateRecord', {
        rrid: existing.record_id,
        rrhost: t.sub,
        rrvalue: t.value,
        rrttl: String(t.ttl),
      });
      return 'updated';
    }
    await call('dnsAddRecord', { rrtype: t.type, rrhost: t.sub, rrvalue: t.value, rrttl: String(t.ttl) });
    return 'created';
  },
};
