// dynv6 REST API v2 with a bearer token. The zone is found among the account's zones (a zone
// is often a whole name such as home.dynv6.net); its apex address lives on the zone itself
// (ipv4address / ipv6prefix), other names are records of the zone.
import { callJson, longestZone, subOf } from './common.js';
import { type DnsProviderImpl, ProviderError } from './types.js';

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

export const dynv6: DnsProviderImpl = {
  name: 'dynv6',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://dynv6.com/api/v2');
    const headers = { authorization: `Bearer ${ctx.dns.secret}` };
    const call = <T>(method: string, path: string, body?: unknown) =>
      callJson<T>(ctx, { method, url: base + path, headers, body });
    const zone = longestZone(t.fqdn, await call<Dv6Zone[]>('GET', '/zones'), (z) => z.name);
    if (!zone) throw new ProviderError(`no zone of this token contains ${t.fqdn}`);
    const sub = subOf(t.fqdn, zone.name);
    if (sub === '') {
      const field = t.type === 'A' ? 'ipv4address' : 'ipv6prefix';
      if (zone[field] === t.value) return 'same';
      await call('PATCH', `/zones/${zone.id}`, { [field]: t.value });
      return 'updated';
    }
    const records = await call<Dv6Record[]>('GET', `/zones/${zone.id}/records`);
    const existing = records.find((r) => r.name === sub && r.type === t.type);
    if (existing) {
      if (existing.data === t.value) return 'same';
      await call('PATCH', `/zones/${zone.id}/records/${existing.id}`, { data: t.value });
      return 'updated';
    }
    await call('POST', `/zones/${zone.id}/records`, { name: sub, type: t.type, data: t.value });
    return 'created';
  },
};
