// NameSilo API (version 1, JSON answers, key in the query): dnsListRecords → dnsUpdateRecord
// or dnsAddRecord; reply code 300 means success. TXT: one record per value, dnsAddRecord and
// dnsDeleteRecord.
import { holdsTxt } from '../txt.js';
import { callJson } from './common.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface NsRecord {
  record_id: string;
  type: string;
  host: string;
  value: string;
}
interface NsAnswer {
  reply: { code: number | string; detail?: string; resource_record?: NsRecord | NsRecord[] };
}

function api(ctx: ProviderContext, root: string) {
  const base = ctx.endpoint('https://www.namesilo.com/api');
  const call = async (op: string, params: Record<string, string>) => {
    const q = new URLSearchParams({ version: '1', type: 'json', key: ctx.dns.secret, domain: root, ...params });
    const r = await callJson<NsAnswer>(ctx, { method: 'GET', url: `${base}/${op}?${q}` });
    if (Number(r.reply?.code) !== 300) throw new ProviderError(`${r.reply?.code}: ${r.reply?.detail ?? 'refused'}`);
    return r.reply;
  };
  /** The records of one full name and type. */
  const records = async (fqdn: string, type: string) => {
    const rr = (await call('dnsListRecords', {})).resource_record;
    // A single record comes as an object, several as a list (their XML-to-JSON conversion).
    const all = rr === undefined ? [] : Array.isArray(rr) ? rr : [rr];
    return all.filter((r) => r.host === fqdn && r.type === type);
  };
  return { call, records };
}

export const namesilo: DnsProviderImpl = {
  name: 'namesilo',
  async setAddress(t, ctx) {
    const { call, records } = api(ctx, t.root);
    const existing = (await records(t.fqdn, t.type))[0];
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
  txt: {
    many: true,
    async add(t, ctx) {
      const { call, records } = api(ctx, t.root);
      if ((await records(t.fqdn, 'TXT')).some((r) => holdsTxt(r.value, t.value))) return 'same';
      await call('dnsAddRecord', { rrtype: 'TXT', rrhost: t.sub, rrvalue: t.value, rrttl: String(t.ttl) });
      return 'created';
    },
    async remove(t, ctx) {
      const { call, records } = api(ctx, t.root);
      const mine = (await records(t.fqdn, 'TXT')).filter((r) => holdsTxt(r.value, t.value));
      for (const r of mine) await call('dnsDeleteRecord', { rrid: r.record_id });
      return mine.length ? 'removed' : 'absent';
    },
  },
};
