// DNSPod through Tencent Cloud API 3.0 (service dnspod, version 2021-03-23), every call signed
// with TC3-HMAC-SHA256: DescribeRecordList → ModifyRecord or CreateRecord. `?RecordLine=`
// (or `?line=`) picks the line, default 默认; `?RecordId=` picks one of several records.
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

export const dnspod: DnsProviderImpl = {
  name: 'dnspod',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://dnspod.tencentcloudapi.com');
    const sub = t.sub || '@';
    const line = t.params.RecordLine ?? t.params.line ?? '默认';
    const list = await tc<{ RecordList?: TcRecord[] }>(ctx, base, 'DescribeRecordList', {
      Domain: t.root,
      Subdomain: sub,
      RecordType: t.type,
    });
    if (list.Error && list.Error.Code !== 'ResourceNotFound.NoDataOfRecord')
      throw new ProviderError(`${list.Error.Code}: ${list.Error.Message}`);
    const records = (list.RecordList ?? []).filter((r) => r.Type === t.type && r.Name === sub);
    const wanted = t.params.RecordId ? records.find((r) => String(r.RecordId) === t.params.RecordId) : records[0];
    const fail = (r: { Error?: { Code: string; Message: string } }) => {
      if (r.Error) throw new ProviderError(`${r.Error.Code}: ${r.Error.Message}`);
    };
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
};
