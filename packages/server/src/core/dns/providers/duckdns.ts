// DuckDNS update API: one GET with the token; `verbose=true` makes it say UPDATED or NOCHANGE.
// The DuckDNS name is the label in front of duckdns.org (deeper names share its address).
import { send } from './common.js';
import { type DnsProviderImpl, ProviderError } from './types.js';

export const duckdns: DnsProviderImpl = {
  name: 'duckdns',
  async setAddress(t, ctx) {
    const base = ctx.endpoint('https://www.duckdns.org');
    const m = /(?:^|\.)([^.]+)\.duckdns\.org$/.exec(t.fqdn);
    const name = m ? m[1] : t.sub || t.fqdn;
    const q = new URLSearchParams({ domains: name, token: ctx.dns.secret, verbose: 'true' });
    q.set(t.type === 'A' ? 'ip' : 'ipv6', t.value);
    const res = await send(ctx, { method: 'GET', url: `${base}/update?${q}`, headers: { accept: 'text/plain' } });
    const lines = res.text.trim().split(/\r?\n/);
    if (res.status !== 200 || lines[0] !== 'OK')
      throw new ProviderError('DuckDNS answered KO (wrong token or name)', res.status);
    return lines.includes('NOCHANGE') ? 'same' : 'updated';
  },
};
