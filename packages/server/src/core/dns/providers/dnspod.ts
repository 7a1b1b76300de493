// DNSPod through Tencent Cloud API 3.0 (service dnspod, version 2021-03-23), every call signed
// with TC3-HMAC-SHA256: DescribeRecordList → ModifyRecord or CreateRecord. `?RecordLine=`
// (or `?line=`) picks the line, default 默认; `?RecordId=` picks one of several records.
// TXT: one record per value, CreateRecord / DeleteRecord.
import { holdsTxt } from '../txt.js';
import { send } from './common.js';
import { tc3Sign } from './sign/tc3.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface TcRecord {
  RecordId: number;
  Name: string;
  Type: string;
  Value: string;
  Line: string;
}
interface TcAnswer<T> {
  Response: T & { Error?: { Code: string; Message: string }; RequestId?: string };
}

const CT = 'application/json; charset=utf-8';

async function tc<T>(
  ctx: ProviderContext,
  base: string,
  action: string,
  body: object,
): Promise<TcAnswer<T>['Response']> {
  const payload = JSON.stringify(body);
  const timestamp = Math.floor(ctx.now().getTime() / 1000);
  const host = new URL(base).host;
  const { authorization } = tc3Sign({
    secretId: ctx.dns.id,
    secretKey: ctx.dns.secret,
    service: 'dnspod',
    host,
    timestamp,
    payload,
    contentType: CT,
  });
  const res = await send(ctx, {
    method: 'POST',
    url: `${base}/`,
    headers: {
      authorization,
      'content-type': CT,
      'x-tc-action': action,
      'x-tc-timestamp': String(timestamp),
      'x-tc-version': '2021-03-23',
    },
    body: payload,
  });
  let answer: TcAnswer<T>;
  try {
    answer = JSON.parse(res.text) as TcAnswer<T>;
  } catch {
    throw new ProviderError(`HTTP ${res.status}: ${res.text.slice(0, 200)}`, res.status);
  }
  return answer.Response;
}

const fail = (r: { Error?: { Code: string; Message: string } }) => {
  if (r.Error) throw new ProviderError(`${r.Error.Code}: ${r.Error.Message}`);
};

/** The records of one name and type ('' sub = '@'); "no records" is an empty list. */
async function records(ctx: ProviderContext, base: string, root: string, sub: string, type: string) {
  const list = await tc<{ RecordList?: TcRecord[] }>(ctx, base, 'DescribeRecordList', {
    Domain: root,
    Subdomain: sub,
    RecordType: type,
  });
  if (list.Error && list.Error.Code !== 'ResourceNotFound.NoDataOfRecord')
    throw new ProviderError(`${list.Error.Code}: ${list.Error.Message}`);
  return (list.RecordList ?? []).filter((r) => r.Type === type && r.Name === sub);
}

const BASE = 'https://dnspod.tencentcloudapi.com';
const lineOf = (params: Record<string, string>) => params.RecordLine ?? params.line ?? '默认';

export const dnspod: DnsProviderImpl = {
  name: 'dnspod',
  async setAddress(t, ctx) {
    const base = ctx.endpoint(BASE);
    const sub = t.sub || '@';
    const line = lineOf(t.params);
    const list = await records(ctx, base, t.root, sub, t.type);
    const wanted = t.params.RecordId ? list.find((r) => String(r.RecordId) === t.params.RecordId) : list[0];
    if (wanted) {
      if (wanted.Value === t.value) return 'same';
      fail(
        await tc(ctx, base, 'ModifyRecord', {
          Domain: t.root,
          SubDomain: sub,
          RecordType: t.type,
          RecordLine: wanted.Line || line,
          Value: t.value,
          RecordId: wanted.RecordId,
          TTL: t.ttl,
        }),
      );
      return 'updated';
    }
    fail(
      await tc(ctx, base, 'CreateRecord', {
        Domain: t.root,
        SubDomain: sub,
        RecordType: t.type,
        RecordLine: line,
        Value: t.value,
        TTL: t.ttl,
      }),
    );
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const base = ctx.endpoint(BASE);
      const sub = t.sub || '@';
      if ((await records(ctx, base, t.root, sub, 'TXT')).some((r) => holdsTxt(r.Value, t.value))) return 'same';
      fail(
        await tc(ctx, base, 'CreateRecord', {
          Domain: t.root,
          SubDomain: sub,
          RecordType: 'TXT',
          RecordLine: lineOf(t.params),
          Value: t.value,
          TTL: t.ttl,
        }),
      );
      return 'created';
    },
    async remove(t, ctx) {
      const base = ctx.endpoint(BASE);
      const mine = (await records(ctx, base, t.root, t.sub || '@', 'TXT')).filter((r) => holdsTxt(r.Value, t.value));
      for (const r of mine) fail(await tc(ctx, base, 'DeleteRecord', { Domain: t.root, RecordId: r.RecordId }));
      return mine.length ? 'removed' : 'absent';
    },
  },
};
