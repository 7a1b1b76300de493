// deSEC API v1 ("Token <token>"): the domain is found among the account's domains (longest
// match, e.g. name.dedyn.io), then the RRset of subname and type is read, PATCHed or POSTed.
import { callJson, longestZone, send, subOf } from './common.js';
import { type DnsProviderImpl, ProviderError } from './types.js';

interface DsRRset {
  subname: string;
  type: string;
  records: string[];
  ttl: number;
}

export const desec: DnsProviderImpl = {
  name: 'desec',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://desec.io/api/v1');
    const headers = { authorization: `Token ${ctx.dns.secret}` };
    const domains = await callJson<{ name: string }[]>(ctx, { method: 'GET', url: `${base}/domains/`, headers });
    const domain = longestZone(t.fqdn, domains, (d) => d.name);
    if (!domain) throw new ProviderError(`no domain of this account contains ${t.fqdn}`);
    const sub = subOf(t.fqdn, domain.name);
    const path = `/domains/${domain.name}/rrsets/${sub === '' ? '@' : encodeURIComponent(sub)}/${t.type}/`;
    const res = await send(ctx, { method: 'GET', url: base + path, headers });
    if (res.status !== 404) {
      if (res.status !== 200) throw new ProviderError(`HTTP ${res.status}: ${res.text.slice(0, 200)}`, res.status);
      const rr = JSON.parse(res.text) as DsRRset;
      if (rr.records.length === 1 && rr.records[0] === t.value) return 'same';
      await callJson(ctx, { method: 'PATCH', url: base + path, headers, body: { records: [t.value], ttl: t.ttl } });
      return 'updated';
    }
    await callJson(ctx, {
      method: 'POST',
      url: `${base}/domains/${domain.name}/rrsets/`,
      headers,
      body: { subname: sub, type: t.type, ttl: t.ttl, records: [t.value] },
    });
    return 'created';
  },
};
