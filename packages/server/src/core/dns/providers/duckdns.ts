// DuckDNS update API: one GET with the token; `verbose=true` makes it say UPDATED or NOCHANGE.
// The DuckDNS name is the label in front of duckdns.org (deeper names share its address).
// TXT: DuckDNS keeps one TXT value per name, answered for every name below it too
// (_acme-challenge.<name>.duckdns.org): `txt=` sets it, `clear=true` empties it. There is no
// read call, so a remove clears whatever value is there (capability txtMany: false).
import { send } from './common.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

async function update(ctx: ProviderContext, fqdn: string, sub: string, set: Record<string, string>) {
  const base = ctx.endpoint('https://www.duckdns.org');
  const m = /(?:^|\.)([^.]+)\.duckdns\.org$/.exec(fqdn);
  const name = m ? m[1] : sub || fqdn;
  const q = new URLSearchParams({ domains: name, token: ctx.dns.secret, ...set, verbose: 'true' });
  const res = await send(ctx, { method: 'GET', url: `${base}/update?${q}`, headers: { accept: 'text/plain' } });
  const lines = res.text.trim().split(/\r?\n/);
  if (res.status !== 200 || lines[0] !== 'OK')
    throw new ProviderError('DuckDNS answered KO (wrong token or name)', res.status);
  return lines.includes('NOCHANGE') ? 'same' : 'updated';
}

export const duckdns: DnsProviderImpl = {
  name: 'duckdns',
  setAddress: (t, ctx) => update(ctx, t.fqdn, t.sub, { [t.type === 'A' ? 'ip' : 'ipv6']: t.value }),
  txt: {
    many: false,
    add: async (t, ctx) => ((await update(ctx, t.fqdn, t.sub, { txt: t.value })) === 'same' ? 'same' : 'created'),
    remove: async (t, ctx) =>
      (await update(ctx, t.fqdn, t.sub, { txt: '', clear: 'true' })) === 'same' ? 'absent' : 'removed',
  },
};
