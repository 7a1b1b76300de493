// Huawei Cloud DNS (v2) with the APIG SDK-HMAC-SHA256 signature: zone by name → record sets
// of the zone by type and name → PUT the record set or POST a new one.
import { callJson } from './common.js';
import { huaweiEncode, huaweiSign, sdkDate } from './sign/huaweiSdk.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface HwRecordset {
  id: string;
  name: string;
  type: string;
  records: string[];
}

async function hw<T>(
  ctx: ProviderContext,
  base: string,
  method: string,
  path: string,
  query: Record<string, string>,
  body?: object,
): Promise<T> {
  const u = new URL(base);
  const payload = body === undefined ? '' : JSON.stringify(body);
  const date = sdkDate(ctx.now());
  const headers = { 'content-type': 'application/json', host: u.host, 'x-sdk-date': date };
  const fullPath = `${u.pathname.replace(/\/$/, '')}${path}`;
  const authorization = huaweiSign(
    { method, path: fullPath, query, headers, body: payload },
    ctx.dns.id,
    ctx.dns.secret,
    date,
  );
  const qs = Object.keys(query)
    .sort()
    .map((k) => `${huaweiEncode(k)}=${huaweiEncode(query[k])}`)
    .join('&');
  return callJson<T>(
    ctx,
    {
      method,
      url: `${u.origin}${fullPath}${qs ? `?${qs}` : ''}`,
      headers: { 'content-type': 'application/json', 'x-sdk-date': date, authorization },
      body: body === undefined ? undefined : payload,
    },
    (b) => (b.code || b.error_code ? `${b.code ?? b.error_code}: ${b.message ?? b.error_msg ?? ''}` : undefined),
  );
}

export const huaweicloud: DnsProviderImpl = {
  name: 'huaweicloud',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://dns.myhuaweicloud.com');
    const zones = await hw<{ zones: { id: string; name: string }[] }>(ctx, base, 'GET', '/v2/zones', {
      name: `${t.root}.`,
    });
    const zone = zones.zones.find((z) => z.name === `${t.root}.`);
    if (!zone) throw new ProviderError(`zone ${t.root} not found in this account`);
    const name = `${t.fqdn}.`;
    const sets = await hw<{ recordsets: HwRecordset[] }>(ctx, base, 'GET', `/v2/zones/${zone.id}/recordsets`, {
      name,
      type: t.type,
    });
    const existing = sets.recordsets.find((r) => r.name === name && r.type === t.type);
    if (existing) {
      if (existing.records.length === 1 && existing.records[0] === t.value) return 'same';
      await hw(
        ctx,
        base,
        'PUT',
        `/v2/zones/${zone.id}/recordsets/${existing.id}`,
        {},
        {
          name,
          type: t.type,
          ttl: t.ttl,
          records: [t.value],
        },
      );
      return 'updated';
    }
    await hw(
      ctx,
      base,
      'POST',
      `/v2/zones/${zone.id}/recordsets`,
      {},
      {
        name,
        type: t.type,
        ttl: t.ttl,
        records: [t.value],
      },
    );
    return 'created';
  },
};
