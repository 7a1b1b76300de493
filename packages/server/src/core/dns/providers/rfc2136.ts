// RFC 2136 dynamic update signed with TSIG (RFC 8945), for BIND, Knot, PowerDNS, Windows DNS
// and others: ask the server for the RRset, and when it differs replace it in one UPDATE
// (delete the RRset + add the record, applied atomically by the server).
import { randomInt } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { canonicalIp } from '../../net/lan.js';
import { exchange, parseServer } from '../rfc2136/transport.js';
import { signMessage, TSIG_ERRORS, verifyAnswer } from '../rfc2136/tsig.js';
import { addressRdata, buildUpdate, parseMessage, RCODE_NAMES, replaceRRset, TYPE } from '../rfc2136/wire.js';
import { type DnsProviderImpl, ProviderError } from './types.js';

async function currentValues(server: string, port: number, fqdn: string, type: 'A' | 'AAAA', timeoutMs: number) {
  const r = new Resolver({ timeout: Math.min(timeoutMs, 5000), tries: 2 });
  r.setServers([server.includes(':') ? `[${server}]:${port}` : `${server}:${port}`]);
  try {
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

export const rfc2136: DnsProviderImpl = {
  name: 'rfc2136',
  async setAddress(t, ctx) {
    const server = parseServer(ctx.dns.server);
    const zone = (ctx.dns.zone || t.root).replace(/\.$/, '');
    const key = { name: ctx.dns.id, algorithm: ctx.dns.tsigAlgorithm, secret: Buffer.from(ctx.dns.secret, 'base64') };
    const now = await currentValues(server.host, server.port, t.fqdn, t.type, ctx.timeoutMs);
    if (now.length === 1 && now[0] === t.value) return 'same';
    const type = t.type === 'A' ? TYPE.A : TYPE.AAAA;
    const msg = buildUpdate(randomInt(0, 0x10000), zone, replaceRRset(t.fqdn, type, t.ttl, [addressRdata(t.value)]));
    const { signed, mac } = signMessage(msg, key, Math.floor(ctx.now().getTime() / 1000));
    const answer = await exchange(server, signed, ctx.timeoutMs);
    const parsed = parseMessage(answer);
    if (parsed.rcode !== 0) {
      const tsigErr = parsed.tsig?.error ? ` (${TSIG_ERRORS[parsed.tsig.error] ?? parsed.tsig.error})` : '';
      throw new ProviderError(`update refused: ${RCODE_NAMES[parsed.rcode] ?? parsed.rcode}${tsigErr}`);
    }
    const bad = verifyAnswer(answer, parsed, mac, key);
    if (bad) throw new ProviderError(`update answer rejected: ${bad}`);
    return now.length ? 'updated' : 'created';
  },
};
