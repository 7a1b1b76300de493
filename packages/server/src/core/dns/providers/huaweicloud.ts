// Huawei Cloud DNS (v2) with the APIG SDK-HMAC-SHA256 signature: zone by name → record sets
// of the zone by type and name → PUT the record set or POST a new one.
import { holdsTxt, quoteTxt } from '../txt.js';
import { callJson } from './common.js';
import { huaweiEncode, huaweiSign, sdkDate } from './sign/huaweiSdk.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface HwRecordset {
  id: string;
  name: string;
  type: string;
  ttl?: number;
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

const BASE = 'https://dns.myhuaweicloud.com';

async function zoneOf(ctx: ProviderContext, base: string, root: string): Promise<string> {
  const zones = await hw<{ zones: { id: string; name: string }[] }>(ctx, base, 'GET', '/v2/zones', {
    name: `${root}.`,
  });
  const zone = zones.zones.find((z) => z.name === `${root}.`);
  if (!zone) throw new ProviderError(`zone ${root} not found in this account`);
  return zone.id;
}

/** The record set of exactly this name and type (the API's name filter also matches longer names). */
async function recordset(ctx: ProviderContext, base: string, zone: string, name: string, type: string) {
  const sets = await hw<{ recordsets: HwRecordset[] }>(ctx, base, 'GET', `/v2/zones/${zone}/recordsets`, {
    name,
    type,
  });
  return sets.recordsets.find((r) => r.name === name && r.type === type);
}

export const huaweicloud: DnsProviderImpl = {
  name: 'huaweicloud',
  async setAddress(t, ctx) {
    const base = ctx.endpoint(BASE);
    const zone = await zoneOf(ctx, base, t.root);
    const name = `${t.fqdn}.`;
    const existing = await recordset(ctx, base, zone, name, t.type);
    const body = { name, type: t.type, ttl: t.ttl, records: [t.value] };
    if (existing) {
      if (existing.records.length === 1 && existing.records[0] === t.value) return 'same';
      await hw(ctx, base, 'PUT', `/v2/zones/${zone}/recordsets/${existing.id}`, {}, body);
      return 'updated';
    }
    await hw(ctx, base, 'POST', `/v2/zones/${zone}/recordsets`, {}, body);
    return 'created';
  },
  // TXT values live in one record set per name, each value quoted ("…"): the set is read and
  // PUT back with our value added or taken out; the last value out deletes the set.
  txt: {
    many: true,
    async add(t, ctx) {
      const base = ctx.endpoint(BASE);
      const zone = await zoneOf(ctx, base, t.root);
      const name = `${t.fqdn}.`;
      const set = await recordset(ctx, base, zone, name, 'TXT');
      if (set?.records.some((r) => holdsTxt(r, t.value))) return 'same';
      if (set) {
        const body = { name, type: 'TXT', ttl: set.ttl ?? t.ttl, records: [...set.records, quoteTxt(t.value)] };
        await hw(ctx, base, 'PUT', `/v2/zones/${zone}/recordsets/${set.id}`, {}, body);
      } else {
        const body = { name, type: 'TXT', ttl: t.ttl, records: [quoteTxt(t.value)] };
        await hw(ctx, base, 'POST', `/v2/zones/${zone}/recordsets`, {}, body);
      }
      return 'created';
    },
    async remove(t, ctx) {
      const base = ctx.endpoint(BASE);
      const zone = await zoneOf(ctx, base, t.root);
      const name = `${t.fqdn}.`;
      const set = await recordset(ctx, base, zone, name, 'TXT');
      const keep = set?.records.filter((r) => !holdsTxt(r, t.value)) ?? [];
      if (!set || keep.length === set.records.length) return 'absent';
      if (keep.length === 0) await hw(ctx, base, 'DELETE', `/v2/zones/${zone}/recordsets/${set.id}`, {});
      else
        await hw(
          ctx,
          base,
          'PUT',
          `/v2/zones/${zone}/recordsets/${set.id}`,
          {},
          {
            name,
            type: 'TXT',
            ttl: set.ttl ?? t.ttl,
            records: keep,
          },
        );
      return 'removed';
    },
  },
};
