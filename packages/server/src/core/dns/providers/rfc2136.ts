// RFC 2136 dynamic update signed with TSIG (RFC 8945), for BIND, Knot, PowerDNS, Windows DNS
// and others: ask the server for the RRset, and when it differs replace it in one UPDATE
// (delete the RRset + add the record, applied atomically by the server). TXT: one UPDATE that
// adds our record to the RRset (§2.5.1) or deletes just that record from it (§2.5.4), so the
// server itself leaves every other value alone.
import { randomInt } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { canonicalIp } from '../../net/lan.js';
import { exchange, parseServer } from '../rfc2136/transport.js';
import { signMessage, TSIG_ERRORS, verifyAnswer } from '../rfc2136/tsig.js';
import {
  addRR,
  addressRdata,
  buildUpdate,
  deleteRR,
  parseMessage,
  RCODE_NAMES,
  type ResourceRecord,
  replaceRRset,
  TYPE,
} from '../rfc2136/wire.js';
import { txtRdata } from '../txt.js';
import { type DnsProviderImpl, type ProviderContext, ProviderError } from './types.js';

/** The name's current values of one type, asked of the server itself. */
async function currentValues(ctx: ProviderContext, fqdn: string, type: 'A' | 'AAAA' | 'TXT'): Promise<string[]> {
  const { host, port } = parseServer(ctx.dns.server);
  const r = new Resolver({ timeout: Math.min(ctx.timeoutMs, 5000), tries: 2 });
  r.setServers([host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`]);
  try {
    if (type === 'TXT') return (await r.resolveTxt(fqdn)).map((chunks) => chunks.join(''));
    const list = type === 'A' ? await r.resolve4(fqdn) : await r.resolve6(fqdn);
    return list.map(canonicalIp);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw new ProviderError(`cannot read ${fqdn} from the server: ${code ?? (err as Error).message}`);
  } finally {
    r.cancel();
  }
}

/** One signed UPDATE of the zone; the answer must be NOERROR and carry a valid TSIG. */
async function update(ctx: ProviderContext, zoneOf: string, updates: ResourceRecord[]): Promise<void> {
  const server = parseServer(ctx.dns.server);
  const zone = (ctx.dns.zone || zoneOf).replace(/\.$/, '');
  const key = { name: ctx.dns.id, algorithm: ctx.dns.tsigAlgorithm, secret: Buffer.from(ctx.dns.secret, 'base64') };
  const msg = buildUpdate(randomInt(0, 0x10000), zone, updates);
  const { signed, mac } = signMessage(msg, key, Math.floor(ctx.now().getTime() / 1000));
  const answer = await exchange(server, signed, ctx.timeoutMs);
  const parsed = parseMessage(answer);
  if (parsed.rcode !== 0) {
    const tsigErr = parsed.tsig?.error ? ` (${TSIG_ERRORS[parsed.tsig.error] ?? parsed.tsig.error})` : '';
    throw new ProviderError(`update refused: ${RCODE_NAMES[parsed.rcode] ?? parsed.rcode}${tsigErr}`);
  }
  const bad = verifyAnswer(answer, parsed, mac, key);
  if (bad) throw new ProviderError(`update answer rejected: ${bad}`);
}

export const rfc2136: DnsProviderImpl = {
  name: 'rfc2136',
  async setAddress(t, ctx) {
    const now = await currentValues(ctx, t.fqdn, t.type);
    if (now.length === 1 && now[0] === t.value) return 'same';
    const type = t.type === 'A' ? TYPE.A : TYPE.AAAA;
    await update(ctx, t.root, replaceRRset(t.fqdn, type, t.ttl, [addressRdata(t.value)]));
    return now.length ? 'updated' : 'created';
  },
  txt: {
    many: true,
    async add(t, ctx) {
      if ((await currentValues(ctx, t.fqdn, 'TXT')).includes(t.value)) return 'same';
      await update(ctx, t.root, [addRR(t.fqdn, TYPE.TXT, t.ttl, txtRdata(t.value))]);
      return 'created';
    },
    async remove(t, ctx) {
      if (!(await currentValues(ctx, t.fqdn, 'TXT')).includes(t.value)) return 'absent';
      await update(ctx, t.root, [deleteRR(t.fqdn, TYPE.TXT, txtRdata(t.value))]);
      return 'removed';
    },
  },
};
