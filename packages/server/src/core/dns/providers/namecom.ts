// Name.com Core API v1 with HTTP Basic (user name + API token): list the domain's records,
// then PUT the matching one or POST a new one. TXT: one record per value, POST and DELETE.
import { holdsTxt } from '../txt.js';
import { callJson } from './common.js';
import type { DnsProviderImpl, ProviderContext } from './types.js';

interface NcRecord {
  id: number;
  host?: string;
  type: string;
  answer: string;
}

function api(ctx: ProviderContext, root: string) {
  const base = ctx.endpoint('https://api.name.com/core/v1');
  const headers = { authorization: `Basic ${Buffer.from(`${ctx.dns.id}:${ctx.dns.secret}`).toString('base64')}` };
  const url = `${base}/domains/${encodeURIComponent(root)}/records`;
  const records = async (sub: string, type: string) =>
    (
      (await callJson<{ records?: NcRecord[] }>(ctx, { method: 'GET', url: `${url}?perPage=1000`, headers })).records ??
      []
    ).filter((r) => (r.host ?? '') === sub && r.type === type);
  const call = (method: string, path: string, body?: unknown) =>
    callJson(ctx, { method, url: `${url}${path}`, headers, body });
  return { records, call };
}

export const namecom: DnsProviderImpl = {
  name: 'namecom',
  async setAddress(t, ctx) {
    const { records, call } = api(ctx, t.root);
    const existing = (await records(t.sub, t.type))[0];
    const body = { host: t.sub, type: t.type, answer: t.value, ttl: t.ttl };
    if (existing) {
      if (existing.answer === t.value) return 'same';
      await call('PUT', `/${existing.id}`, body);
      return 'updated';
    }
    await call('POST', '', body);
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const { records, call } = api(ctx, t.root);
      if ((await records(t.sub, 'TXT')).some((r) => holdsTxt(r.answer, t.value))) return 'same';
      await call('POST', '', { host: t.sub, type: 'TXT', answer: t.value, ttl: t.ttl });
      return 'created';
    },
    async remove(t, ctx) {
      const { records, call } = api(ctx, t.root);
      const mine = (await records(t.sub, 'TXT')).filter((r) => holdsTxt(r.answer, t.value));
      for (const r of mine) await call('DELETE', `/${r.id}`);
      return mine.length ? 'removed' : 'absent';
    },
  },
};
