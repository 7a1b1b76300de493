// dynv6 REST API v2 with a bearer token. The zone is found among the account's zones (a zone
// is often a whole name such as home.dynv6.net); its apex address lives on the zone itself
// (ipv4address / ipv6prefix), other names are records of the zone. TXT: one record per value,
// POST and DELETE.
import { holdsTxt } from '../txt.js';
import { callJson, longestZone, subOf } from './common.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

interface Dv6Zone {
  id: number;
  name: string;
  ipv4address?: string;
  ipv6prefix?: string;
}
interface Dv6Record {
  id: number;
  name: string;
  type: string;
  data: string;
}

async function zoneOf(ctx: ProviderContext, fqdn: string) {
  const base = ctx.endpoint('https://dynv6.com/api/v2');
  const headers = { authorization: `Bearer ${ctx.dns.secret}` };
  const call = <T>(method: string, path: string, body?: unknown) =>
    callJson<T>(ctx, { method, url: base + path, headers, body });
  const zone = longestZone(fqdn, await call<Dv6Zone[]>('GET', '/zones'), (z) => z.name);
  if (!zone) throw new ProviderError(`no zone of this token contains ${fqdn}`);
  const sub = subOf(fqdn, zone.name);
  const records = async (type: string) =>
    (await call<Dv6Record[]>('GET', `/zones/${zone.id}/records`)).filter((r) => r.name === sub && r.type === type);
  return { zone, sub, call, records };
}

export const dynv6: DnsProviderImpl = {
  name: 'dynv6',
  async setAddress(t, ctx) {
    const { zone, sub, call, records } = await zoneOf(ctx, t.fqdn);
    if (sub === '') {
      const field = t.type === 'A' ? 'ipv4address' : 'ipv6prefix';
      if (zone[field] === t.value) return 'same';
      await call('PATCH', `/zones/${zone.id}`, { [field]: t.value });
      return 'updated';
    }
    const existing = (await records(t.type))[0];
    if (existing) {
      if (existing.data === t.value) return 'same';
      await call('PATCH', `/zones/${zone.id}/records/${existing.id}`, { data: t.value });
      return 'updated';
    }
    await call('POST', `/zones/${zone.id}/records`, { name: sub, type: t.type, data: t.value });
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const { zone, sub, call, records } = await zoneOf(ctx, t.fqdn);
      if ((await records('TXT')).some((r) => holdsTxt(r.data, t.value))) return 'same';
      await call('POST', `/zones/${zone.id}/records`, { name: sub, type: 'TXT', data: t.value });
      return 'created';
    },
    async remove(t, ctx) {
      const { zone, call, records } = await zoneOf(ctx, t.fqdn);
      const mine = (await records('TXT')).filter((r) => holdsTxt(r.data, t.value));
      for (const r of mine) await call('DELETE', `/zones/${zone.id}/records/${r.id}`);
      return mine.length ? 'removed' : 'absent';
    },
  },
};
