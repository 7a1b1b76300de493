// Baidu Cloud domain resolution (BCD, bcd.baidubce.com) with bce-auth-v1 over host and
// x-bce-date: resolve/list → resolve/edit or resolve/add. TXT: one record per value,
// resolve/add and resolve/delete.
import { holdsTxt } from '../txt.js';
import { callJson } from './common.js';
import { bceSign } from './sign/bce.js';
import type { DnsProviderImpl, ProviderContext } from './types.js';

interface BdRecord {
  recordId: number;
  domain: string;
  view: string;
  rdtype: string;
  ttl: number;
  rdata: string;
  zoneName: string;
}

function bd<T>(ctx: ProviderContext, base: string, path: string, body: object): Promise<T> {
  const u = new URL(base);
  const timestamp = ctx
    .now()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
  const fullPath = `${u.pathname.replace(/\/$/, '')}${path}`;
  const authorization = bceSign(
    { method: 'POST', path: fullPath, query: {}, headers: { host: u.host, 'x-bce-date': timestamp } },
    { ak: ctx.dns.id, sk: ctx.dns.secret, timestamp, signedHeaders: ['host', 'x-bce-date'] },
  );
  return callJson<T>(
    ctx,
    {
      method: 'POST',
      url: `${u.origin}${fullPath}`,
      headers: { authorization, 'x-bce-date': timestamp, 'content-type': 'application/json; charset=utf-8' },
      body,
    },
    (b) => (b.code ? `${b.code}: ${b.message ?? ''}` : undefined),
  );
}

const BASE = 'https://bcd.baidubce.com';

/** The records of one name and type ('' sub = '@'). */
async function records(ctx: ProviderContext, base: string, root: string, sub: string, type: string) {
  const list = await bd<{ result?: BdRecord[] }>(ctx, base, '/v1/domain/resolve/list', {
    domain: root,
    pageNum: 1,
    pageSize: 1000,
  });
  return (list.result ?? []).filter((r) => r.domain === sub && r.rdtype === type);
}

export const baiducloud: DnsProviderImpl = {
  name: 'baiducloud',
  async setAddress(t, ctx) {
    const base = ctx.endpoint(BASE);
    const sub = t.sub || '@';
    const existing = (await records(ctx, base, t.root, sub, t.type))[0];
    if (existing) {
      if (existing.rdata === t.value) return 'same';
      await bd(ctx, base, '/v1/domain/resolve/edit', {
        recordId: existing.recordId,
        domain: existing.domain,
        view: existing.view,
        rdType: t.type,
        ttl: t.ttl,
        rdata: t.value,
        zoneName: existing.zoneName || t.root,
      });
      return 'updated';
    }
    await bd(ctx, base, '/v1/domain/resolve/add', {
      domain: sub,
      rdType: t.type,
      ttl: t.ttl,
      rdata: t.value,
      zoneName: t.root,
    });
    return 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      const base = ctx.endpoint(BASE);
      const sub = t.sub || '@';
      if ((await records(ctx, base, t.root, sub, 'TXT')).some((r) => holdsTxt(r.rdata, t.value))) return 'same';
      await bd(ctx, base, '/v1/domain/resolve/add', {
        domain: sub,
        rdType: 'TXT',
        ttl: t.ttl,
        rdata: t.value,
        zoneName: t.root,
      });
      return 'created';
    },
    async remove(t, ctx) {
      const base = ctx.endpoint(BASE);
      const mine = (await records(ctx, base, t.root, t.sub || '@', 'TXT')).filter((r) => holdsTxt(r.rdata, t.value));
      for (const r of mine)
        await bd(ctx, base, '/v1/domain/resolve/delete', { zoneName: r.zoneName || t.root, recordId: r.recordId });
      return mine.length ? 'removed' : 'absent';
    },
  },
};
