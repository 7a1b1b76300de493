// Alibaba Cloud DNS (alidns, API 2015-01-09) with an RPC v1 signature on every call:
// DescribeSubDomainRecords → UpdateDomainRecord (the first record, or `?RecordId=`) or
// AddDomainRecord. `?Line=` picks the resolution line. TXT: one record per value, added with
// AddDomainRecord and removed with DeleteDomainRecord.
import { holdsTxt } from '../txt.js';
import { callJson } from './common.js';
import { aliyunSignedQuery } from './sign/aliyunRpc.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface AliRecord {
  RecordId: string;
  RR: string;
  Type: string;
  Value: string;
  TTL: number;
}

function api(ctx: ProviderContext) {
  const base = ctx.endpoint('https://alidns.aliyuncs.com');
  const call = <T>(params: Record<string, string>) =>
    callJson<T>(
      ctx,
      {
        method: 'GET',
        url: `${base}/?${aliyunSignedQuery(params, {
          id: ctx.dns.id,
          secret: ctx.dns.secret,
          version: '2015-01-09',
          now: ctx.now(),
        })}`,
      },
      (b) => (b.Code ? `${b.Code}: ${b.Message ?? ''}` : undefined),
    );
  const records = async (rr: string, root: string, type: string) => {
    const found = await call<{ DomainRecords?: { Record?: AliRecord[] } }>({
      Action: 'DescribeSubDomainRecords',
      SubDomain: `${rr}.${root}`,
      DomainName: root,
      Type: type,
    });
    return (found.DomainRecords?.Record ?? []).filter((r) => r.Type === type);
  };
  return { call, records };
}

export const alidns: DnsProviderImpl = {
  name: 'alidns',
  async setAddress(t, ctx) {
    const { call, records: list } = api(ctx);
    const rr = t.sub || '@';
    const records = await list(rr, t.root, t.type);
    const wanted = t.params.RecordId ? records.find((r) => r.RecordId === t.params.RecordId) : records[0];
    if (t.params.RecordId && !wanted) throw new ProviderError(`record ${t.params.RecordId} not found`);
    const line: Record<string, string> = t.params.Line ? { Line: t.params.Line } : {};
    if (wanted) {
      if (wanted.Value === t.value) return 'same';
      const r = await call<{ RecordId?: string }>({
        Action: 'UpdateDomainRecord',
        RecordId: wanted.RecordId,
        RR: rr,
        Type: t.type,
        Value: t.value,
        TTL: String(t.ttl),
        ...line,
      });
      if (!r.RecordId) throw new ProviderError('no RecordId in the answer');
      return 'updated';
    }
    const r = await call<{ RecordId?: string }>({
      Action: 'AddDomainRecord',
      DomainName: t.root,
      RR: rr,
      Type: t.type,
      Value: t.value,
      TTL: String(t.ttl),
      ...line,
    });
    if (!r.RecordId) throw new ProviderError('no RecordId in the answer');
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const { call, records } = api(ctx);
      const rr = t.sub || '@';
      if ((await records(rr, t.root, 'TXT')).some((r) => holdsTxt(r.Value, t.value))) return 'same';
      const r = await call<{ RecordId?: string }>({
        Action: 'AddDomainRecord',
        DomainName: t.root,
        RR: rr,
        Type: 'TXT',
        Value: t.value,
        TTL: String(t.ttl),
        ...(t.params.Line ? { Line: t.params.Line } : {}),
      });
      if (!r.RecordId) throw new ProviderError('no RecordId in the answer');
      return 'created';
    },
    async remove(t, ctx) {
      const { call, records } = api(ctx);
      const mine = (await records(t.sub || '@', t.root, 'TXT')).filter((r) => holdsTxt(r.Value, t.value));
      for (const r of mine) await call({ Action: 'DeleteDomainRecord', RecordId: r.RecordId });
      return mine.length ? 'removed' : 'absent';
    },
  },
};
